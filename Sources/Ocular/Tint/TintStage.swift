/// The "cool pig" animation as a stage: a new random tint every interval of the frame's clock.
public struct TintStage: Stage {
    public static let name = "tint"
    public static let title = "Tint"
    public static let category = StageCategory.colourEffect
    public static let summary = "Multiplies red, green and blue by random factors, a new tint every interval; gray frames become colour."

    public static let parameters: [ParameterDescriptor] = [
        .integer("seed", title: "Seed", in: 0...Int64(UInt32.max), default: 0,
                 help: "Picks the sequence of tints; the same seed gives the same tints."),
        .number("interval", title: "Interval (s)", in: 0.1...60, step: 0.1, default: 2,
                help: "Seconds each tint is held."),
    ] + TintRanges.Channel.allCases.flatMap { channel in
        let range = TintRanges.coolPig[channel]
        return [
            ParameterDescriptor.number("\(channel)Minimum", title: "\(channel.title) from", in: 0...4, step: 0.05, default: range.lowerBound,
                                       help: "Smallest factor of \(channel.rawValue)."),
            ParameterDescriptor.number("\(channel)Maximum", title: "\(channel.title) to", in: 0...4, step: 0.05, default: range.upperBound,
                                       help: "Largest factor of \(channel.rawValue)."),
        ]
    }

    /// The tints shown.
    public let sequence: TintSequence

    public init(_ values: StageValues) throws(StageError) {
        var ranges = TintRanges.coolPig
        for channel in TintRanges.Channel.allCases {
            let low = values.number("\(channel)Minimum"), high = values.number("\(channel)Maximum")
            guard low <= high else {
                throw StageError(stage: Self.name, parameter: "\(channel)Minimum",
                                 reason: "must not exceed \(channel)Maximum (\(ParameterValue.number(high))), got \(ParameterValue.number(low))")
            }
            ranges[channel] = low...high
        }
        sequence = TintSequence(seed: UInt64(values.integer("seed")), interval: .seconds(values.number("interval")), ranges: ranges)
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        frame.image = try sequence.tint(at: frame.timestamp).apply(to: frame.image)
        return frame
    }
}

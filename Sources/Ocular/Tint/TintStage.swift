/// The "cool pig" animation as a stage: a new random tint every interval of the frame's clock.
public struct TintStage: Stage {
    public static let name = "tint"
    public static let title = "Tint"
    public static let category = StageCategory.colourEffect
    public static let summary = "Multiplies red, green and blue by random factors, a new tint every interval; gray frames become colour."

    /// The “Seed” parameter: Picks the sequence of tints; the same seed gives the same tints.
    public static let seed = Key<Int>.integer("seed", title: "Seed", in: 0...Int(UInt32.max), default: 0,
                                               help: "Picks the sequence of tints; the same seed gives the same tints.")
    /// The “Interval (s)” parameter: Seconds each tint is held.
    public static let interval = Key<Double>.number("interval", title: "Interval (s)", in: 0.1...60, step: 0.1,
                                                    default: Tint.defaultInterval / .seconds(1), help: "Seconds each tint is held.")

    /// The smallest factor of a channel, by default the cool pig's.
    /// - Parameter channel: The channel.
    /// - Returns: The key of its minimum.
    public static func minimum(of channel: TintRanges.Channel) -> Key<Double> {
        .number("\(channel)Minimum", title: "\(channel.title) from", in: 0...4, step: 0.05, default: TintRanges.coolPig[channel].lowerBound,
                help: "Smallest factor of \(channel.rawValue).")
    }

    /// The largest factor of a channel, by default the cool pig's.
    /// - Parameter channel: The channel.
    /// - Returns: The key of its maximum.
    public static func maximum(of channel: TintRanges.Channel) -> Key<Double> {
        .number("\(channel)Maximum", title: "\(channel.title) to", in: 0...4, step: 0.05, default: TintRanges.coolPig[channel].upperBound,
                help: "Largest factor of \(channel.rawValue).")
    }

    public static let parameters = declared(seed, interval) + TintRanges.Channel.allCases.flatMap { declared(minimum(of: $0), maximum(of: $0)) }

    /// The tints shown.
    public let sequence: TintSequence

    public init(_ values: StageValues) throws(StageError) {
        var ranges = TintRanges.coolPig
        for channel in TintRanges.Channel.allCases {
            let low = values[Self.minimum(of: channel)], high = values[Self.maximum(of: channel)]
            guard low <= high else {
                throw StageError(stage: Self.name, parameter: Self.minimum(of: channel).name,
                                 reason: "must not exceed \(Self.maximum(of: channel).name) (\(ParameterValue.number(high))), got \(ParameterValue.number(low))")
            }
            ranges[channel] = low...high
        }
        sequence = TintSequence(seed: UInt64(values[Self.seed]), interval: .seconds(values[Self.interval]), ranges: ranges)
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        frame.image = try sequence.tint(at: frame.timestamp).apply(to: frame.image)
        return frame
    }
}

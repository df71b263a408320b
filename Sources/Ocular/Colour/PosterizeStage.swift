/// Few levels per channel: flat patches of colour, like a screen print or a poster.
public struct PosterizeStage: Stage {
    public static let name = "posterize"
    public static let title = "Posterize"
    public static let category = StageCategory.colourEffect
    public static let summary = "Keeps a few levels of red, green and blue: flat patches of colour, like a screen print; "
        + "use it for a poster look or to see a picture's large shapes."

    /// The “Levels” parameter: How many values each channel keeps, black and full brightness included.
    public static let levels = Key<Int>.integer("levels", title: "Levels", in: 2...64, default: 4,
                                                help: "How many values each channel keeps, black and full brightness included.")
    public static let parameters = declared(levels)

    /// Value → the nearest of the kept levels, evenly spaced from 0 to 255.
    public let table: [UInt8]

    public init(_ values: StageValues) {
        let steps = Double(values[Self.levels] - 1)
        table = (0...255).map { value in UInt8(((Double(value) * steps / 255).rounded() * 255 / steps).rounded()) }
    }

    public func process(_ frame: Frame) throws -> Frame {
        var frame = frame
        frame.image = try frame.image.mapped(red: table)
        return frame
    }
}

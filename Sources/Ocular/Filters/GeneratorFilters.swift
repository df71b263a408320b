/// Every pixel one colour: a backdrop to composite onto, or a test card.
public struct ConstantColourGeneratorFilter: FilterStage {
    public static let name = "constantColorGenerator"
    public static let title = "Constant colour"
    public static let category = StageCategory.generator
    public static let summary = "Fills the frame with one colour, the size of the frame: a backdrop for what follows."
    /// The “Colour” parameter: The colour every pixel takes.
    public static let colour = Key<Colour>.colour("color", title: "Colour", default: Colour(red: 128, green: 128, blue: 128),
                                                 help: "The colour every pixel takes.")
    public static let parameters = declared(colour)

    /// The value of the `color` parameter this stage was built with.
    public let colour: Colour

    public init(_ values: StageValues) {
        colour = values[Self.colour]
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let format = frame.image.format.rgbOffsets == nil ? PixelFormat.bgr8 : frame.image.format
        guard let order = format.rgbOffsets else { return frame }
        var pixel = [UInt8](repeating: 255, count: format.channels)
        (pixel[order.red], pixel[order.green], pixel[order.blue]) = (colour.red, colour.green, colour.blue)
        frame.image = try Image(width: frame.image.width, height: frame.image.height, format: format, filledWith: pixel)
        return frame
    }
}

/// The luma of each frame as a single-channel image (the Y plane of YUV input).
public struct GrayStage: Stage {
    public static let name = "gray"
    public static let title = "Gray"
    public static let category = StageCategory.colourEffect
    public static let summary = "Keeps only the luma: an 8-bit gray frame."
    public static let parameters: [ParameterDescriptor] = []

    public init(_ values: StageValues) {}

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        frame.image = try frame.image.converted(to: .gray8)
        return frame
    }
}

/// Gray-world automatic white balance as a stage.
public struct WhiteBalanceStage: Stage {
    public static let name = "whiteBalance"
    public static let title = "White balance"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Removes a colour cast by the gray-world assumption, keeping the picture's brightness."

    /// The “Saturation threshold” parameter: Pixels more saturated than this are left out of the averages; 1 counts every pixel.
    public static let saturationThreshold = Key<Double>.number(
        "saturationThreshold", title: "Saturation threshold", in: 0...1, step: 0.01, default: WhiteBalance.textbook.saturationThreshold,
        help: "Pixels more saturated than this are left out of the averages; 1 counts every pixel.")
    /// The “Keep brightness” parameter: Scale the gains so the mean luma is kept; off, the largest gain is 1, as OpenCV's balancer does.
    public static let keepBrightness = Key<Bool>.flag(
        "keepBrightness", title: "Keep brightness", default: true,
        help: "Scale the gains so the mean luma is kept; off, the largest gain is 1, as OpenCV's balancer does.")
    public static let parameters = declared(saturationThreshold, keepBrightness)

    /// The white balance the stage applies.
    public let balance: WhiteBalance

    public init(_ values: StageValues) {
        balance = WhiteBalance(saturationThreshold: values[Self.saturationThreshold], keepsBrightness: values[Self.keepBrightness])
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        frame.image = try balance.apply(to: frame.image)
        return frame
    }
}

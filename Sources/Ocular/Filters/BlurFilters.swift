/// A Gaussian blur of standard deviation `radius` pixels (cv::GaussianBlur), edges repeated.
public struct GaussianBlurFilter: FilterStage {
    public static let name = "gaussianBlur"
    public static let title = "Gaussian blur"
    public static let category = StageCategory.blur
    public static let summary = "Softens the picture evenly; radius is the blur's standard deviation in pixels."
    /// The “Radius” parameter: Standard deviation in pixels; 0 leaves the picture sharp.
    public static let radius = Key<Double>.number("radius", title: "Radius", in: 0...100, step: 0.5, default: 10,
                                                  help: "Standard deviation in pixels; 0 leaves the picture sharp.")
    public static let parameters = declared(radius)

    /// The value of the `radius` parameter this stage was built with.
    public let radius: Double

    public init(_ values: StageValues) {
        radius = values[Self.radius]
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        guard radius > 0 else { return frame }
        var frame = frame
        frame.image = try frame.image.gaussianBlurred(sigma: radius)
        return frame
    }
}

/// Harris corners, drawn as circles and listed as annotations.
public struct CornersStage: Stage {
    public static let name = "corners"
    public static let title = "Corners"
    public static let category = StageCategory.sample
    public static let annotationKinds: [any FrameAnnotation.Type] = [Corner.self]
    public static let summary = "Circles the Harris corners, where edges meet: the points a tracker or a stitcher can find again; "
        + "use it to see what in a scene is distinctive."

    /// The “Block size” parameter: The neighbourhood a corner is judged over, pixels: larger finds coarser corners.
    public static let blockSize = Key<Int>.integer("blockSize", title: "Block size", in: 2...10, default: 3,
                                                   help: "The neighbourhood a corner is judged over, pixels: larger finds coarser corners.")
    /// The “Aperture” parameter: The Sobel kernel that measures the gradients.
    public static let aperture = Key<Int>.integer("aperture", title: "Aperture", in: 3...7, step: 2, default: 3,
                                                  help: "The Sobel kernel that measures the gradients.")
    /// The “k” parameter: Harris's free parameter: larger refuses more edges that are not corners.
    public static let k = Key<Double>.number("k", title: "k", in: 0.02...0.2, step: 0.01, default: 0.04,
                                             help: "Harris's free parameter: larger refuses more edges that are not corners.")
    /// The “Threshold” parameter: A corner's response as a fraction of the frame's strongest: lower finds weaker corners.
    public static let threshold = Key<Double>.number("threshold", title: "Threshold", in: 0.001...1, step: 0.001, default: 0.01,
                                                     help: "A corner's response as a fraction of the frame's strongest: lower finds weaker corners.")
    /// The “Most corners” parameter: The strongest this many are kept.
    public static let maximum = Key<Int>.integer("maximum", title: "Most corners", in: 1...2000, default: 300,
                                                 help: "The strongest this many are kept.")
    /// The “Colour” parameter: The circles' colour.
    public static let colour = Key<Colour>.colour("colour", title: "Colour", default: Colour(red: 255, green: 0, blue: 0),
                                                  help: "The circles' colour.")
    public static let parameters = declared(blockSize, aperture, k, threshold, maximum, colour)

    /// The values of the parameters this stage was built with.
    public let values: (blockSize: Int, aperture: Int, k: Double, threshold: Double, maximum: Int, colour: Colour)

    public init(_ values: StageValues) {
        self.values = (values[Self.blockSize], values[Self.aperture], values[Self.k], values[Self.threshold], values[Self.maximum], values[Self.colour])
    }

    /// The Harris corners of a picture with this stage's settings.
    /// - Parameter image: The picture, in any format.
    /// - Returns: The corners, strongest first.
    /// - Throws: ``OcularError`` when OpenCV fails.
    public func corners(in image: Image) throws(OcularError) -> [Corner] {
        try image.converted(to: .gray8).harrisCorners(blockSize: values.blockSize, aperture: values.aperture, k: values.k,
                                                      threshold: values.threshold, maximum: values.maximum)
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let corners = try corners(in: frame.image)
        var image = try frame.image.packed
        let radius = max(4, min(image.width, image.height) / 120)
        for corner in corners {
            try image.drawCircle(at: Point(x: corner.x, y: corner.y), radius: radius, colour: values.colour, thickness: 2)
        }
        frame.image = image
        frame.annotations += corners as [any FrameAnnotation]
        return frame
    }
}

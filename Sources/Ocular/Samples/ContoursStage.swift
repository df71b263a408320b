internal import OpenCVSamples

/// The shapes' outlines: the frame made black and white (a threshold, Otsu's, or Canny's
/// edges), then the contour tree drawn; annotations give each contour's area, box and depth.
public struct ContoursStage: Stage {
    public static let name = "contours"
    public static let title = "Contours"
    public static let category = StageCategory.sample
    public static let annotationKinds: [any FrameAnnotation.Type] = [Contour.self]
    public static let summary = "Outlines the shapes that stand out from the background and counts them, with their areas; "
        + "use it to count and measure objects on a plain background, or to see a picture's shapes."

    /// How the picture is made black and white before contours are traced.
    public enum Method: String, ParameterChoice {
        /// Otsu's threshold, an adaptive (local) threshold, a fixed threshold, or Canny's edges.
        case otsu, adaptive, threshold, canny
        public var title: String {
            switch self {
            case .otsu: "Otsu's threshold (automatic)"
            case .adaptive: "Adaptive (uneven light)"
            case .threshold: "Fixed threshold"
            case .canny: "Canny edges"
            }
        }

        var bridged: OCVBinarization {
            switch self {
            case .otsu: OCV_BINARIZE_OTSU
            case .adaptive: OCV_BINARIZE_ADAPTIVE
            case .threshold: OCV_BINARIZE_THRESHOLD
            case .canny: OCV_BINARIZE_CANNY
            }
        }
    }

    /// Which contours are drawn.
    public enum Mode: String, ParameterChoice {
        /// Every contour, or only the outermost ones.
        case all, outer
        public var title: String {
            switch self {
            case .all: "All (the tree, holes too)"
            case .outer: "Outer only"
            }
        }
    }

    /// The “Shapes by” parameter: How the frame is split into shapes and background.
    public static let method = Key<Method>.choice("method", title: "Shapes by", default: .otsu,
                                                  help: "How the frame is split into shapes and background.")
    /// The “Threshold” parameter: Fixed threshold: the gray level between shape and background; Canny: the high threshold (Otsu's and adaptive find their own).
    public static let threshold = Key<Double>.number("threshold", title: "Threshold", in: 0...255, step: 1, default: 128,
                                                     help: "Fixed threshold: the gray level between shape and background; Canny: the high threshold (Otsu's and adaptive find their own).")
    /// The “Contours” parameter: Every contour, holes included, or the outermost only.
    public static let mode = Key<Mode>.choice("mode", title: "Contours", default: .all, help: "Every contour, holes included, or the outermost only.")
    /// The “Smallest area” parameter: Contours enclosing fewer pixels are left out: specks of noise.
    public static let minimumArea = Key<Double>.number("minimumArea", title: "Smallest area", in: 0...100_000, step: 1, default: 16,
                                                       help: "Contours enclosing fewer pixels are left out: specks of noise.")
    /// The “Thickness” parameter: The lines' width in pixels.
    public static let thickness = Key<Int>.integer("thickness", title: "Thickness", in: 1...10, default: 2, help: "The lines' width in pixels.")
    /// The “Colour” parameter: The lines' colour.
    public static let colour = Key<Colour>.colour("colour", title: "Colour", default: Colour(red: 0, green: 255, blue: 0), help: "The lines' colour.")
    public static let parameters = declared(method, threshold, mode, minimumArea, thickness, colour)

    /// The values of the parameters this stage was built with.
    public let values: (method: Method, threshold: Double, mode: Mode, minimumArea: Double, thickness: Int, colour: Colour)

    public init(_ values: StageValues) {
        self.values = (values[Self.method], values[Self.threshold], values[Self.mode], values[Self.minimumArea], values[Self.thickness],
                       values[Self.colour])
    }

    /// The contours of a picture with this stage's settings.
    /// - Parameter image: The picture, in any format.
    /// - Returns: The contours found, and a way to draw them.
    /// - Throws: ``OcularError`` when OpenCV fails.
    public func contours(in image: Image) throws(OcularError) -> Contours {
        try image.converted(to: .gray8).contours(values.method.bridged, threshold: values.threshold, outerOnly: values.mode == .outer,
                                                 minimumArea: values.minimumArea)
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let contours = try contours(in: frame.image)
        var image = try frame.image.packed
        try contours.draw(on: &image, colour: values.colour, thickness: values.thickness)
        frame.image = image
        frame.annotations += contours.described as [any FrameAnnotation]
        return frame
    }
}

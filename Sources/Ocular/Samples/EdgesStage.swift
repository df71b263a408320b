internal import OpenCVSamples

/// Edges by Canny, Sobel or Scharr, shown alone or drawn over the frame.
public struct EdgesStage: Stage {
    public static let name = "edges"
    public static let title = "Edges"
    public static let category = StageCategory.sample
    public static let summary = "Finds edges: Canny's thin, connected lines, or the gradient's strength by Sobel or Scharr; "
        + "use it to see outlines and texture, to check focus (sharp edges are bright), or as the first step of shape finding."

    /// Which edge detector runs.
    public enum Method: String, ParameterChoice {
        /// Canny's hysteresis edges, or the Sobel or Scharr gradient's magnitude.
        case canny, sobel, scharr
        public var title: String {
            switch self {
            case .canny: "Canny (thin lines)"
            case .sobel: "Sobel (gradient strength)"
            case .scharr: "Scharr (3×3, more exact)"
            }
        }
    }

    /// Which way the gradient is taken.
    public enum Direction: String, ParameterChoice {
        /// Across columns (x), across rows (y), or the magnitude of both.
        case x, y, both
        public var title: String {
            switch self {
            case .x: "Across x (vertical edges)"
            case .y: "Across y (horizontal edges)"
            case .both: "Both (magnitude)"
            }
        }

        var bridged: OCVGradientDirection {
            switch self {
            case .x: OCV_GRADIENT_X
            case .y: OCV_GRADIENT_Y
            case .both: OCV_GRADIENT_BOTH
            }
        }
    }

    /// The “Method” parameter: How edges are found.
    public static let method = Key<Method>.choice("method", title: "Method", default: .canny, help: "How edges are found.")
    /// The “Low threshold” parameter: Canny: a weaker gradient continues an edge already found.
    public static let low = Key<Double>.number("low", title: "Low threshold", in: 0...500, step: 1, default: 50,
                                               help: "Canny: a weaker gradient continues an edge already found.")
    /// The “High threshold” parameter: Canny: a gradient this strong starts an edge.
    public static let high = Key<Double>.number("high", title: "High threshold", in: 0...500, step: 1, default: 150,
                                                help: "Canny: a gradient this strong starts an edge.")
    /// The “Aperture” parameter: Sobel's kernel size (Canny's too); larger sees coarser edges. Scharr's is always 3.
    public static let aperture = Key<Int>.integer("aperture", title: "Aperture", in: 3...7, step: 2, default: 3,
                                                  help: "Sobel's kernel size (Canny's too); larger sees coarser edges. Scharr's is always 3.")
    /// The “Direction” parameter: Sobel and Scharr: the derivative across x, across y, or the magnitude of both.
    public static let direction = Key<Direction>.choice("direction", title: "Direction", default: .both,
                                                        help: "Sobel and Scharr: the derivative across x, across y, or the magnitude of both.")
    /// The “Edges only” parameter: White edges on black; off draws them over the frame.
    public static let edgesOnly = Key<Bool>.flag("edgesOnly", title: "Edges only", default: true,
                                                 help: "White edges on black; off draws them over the frame.")
    /// The “Colour” parameter: The edges' colour over the frame.
    public static let colour = Key<Colour>.colour("colour", title: "Colour", default: Colour(red: 0, green: 255, blue: 0),
                                                  help: "The edges' colour over the frame.")
    public static let parameters = declared(method, low, high, aperture, direction, edgesOnly, colour)

    /// The values of the parameters this stage was built with.
    public let values: (method: Method, low: Double, high: Double, aperture: Int, direction: Direction, edgesOnly: Bool, colour: Colour)

    public init(_ values: StageValues) {
        self.values = (values[Self.method], values[Self.low], values[Self.high], values[Self.aperture], values[Self.direction],
                       values[Self.edgesOnly], values[Self.colour])
    }

    /// What a step edge's strength is divided by so that it reads the same at every aperture: the
    /// kernel's gain over the 3×3 Sobel's (4). Scharr's [3 10 3] smoothing gains 16; Sobel's 5×5 48, 7×7 640.
    /// - Parameters:
    ///   - method: The gradient operator.
    ///   - aperture: Its kernel size.
    /// - Returns: The divisor.
    public static func strengthScale(method: Method, aperture: Int) -> Double {
        switch (method, aperture) {
        case (.scharr, _): 4.0 / 16
        case (_, 5): 4.0 / 48
        case (_, 7): 4.0 / 640
        default: 1
        }
    }

    /// The edge image: gray, 255 (or the gradient's strength) on edges.
    /// - Parameter image: The picture, in any format.
    /// - Returns: The edges.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func edges(of image: Image) throws(OcularError) -> Image {
        let gray = try image.converted(to: .gray8)
        switch values.method {
        case .canny:
            return try gray.cannyEdges(low: values.low, high: values.high, aperture: values.aperture)
        case .sobel, .scharr:
            return try gray.gradientStrength(values.method == .sobel ? OCV_GRADIENT_SOBEL : OCV_GRADIENT_SCHARR, values.direction.bridged,
                                             aperture: values.aperture, scale: Self.strengthScale(method: values.method, aperture: values.aperture))
        }
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let edges = try edges(of: frame.image)
        if values.edgesOnly {
            frame.image = edges
        } else {
            var image = try frame.image.packed
            try image.paint(values.colour, where: edges)
            frame.image = image
        }
        return frame
    }
}

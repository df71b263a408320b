internal import OpenCVSamples

/// Keypoints by ORB, FAST or AKAZE, drawn with their size and orientation.
public struct FeaturesStage: Stage {
    public static let name = "features"
    public static let title = "Features"
    public static let category = StageCategory.sample
    public static let annotationKinds: [any FrameAnnotation.Type] = [Keypoint.self]
    public static let summary = "Circles the keypoints ORB, FAST or AKAZE find, each as large as the detail it describes, "
        + "with its orientation; use it to see what matching, stitching or recognition would latch on to."

    /// Which keypoint detector runs.
    public enum Detector: String, ParameterChoice {
        /// ORB, FAST or AKAZE.
        case orb, fast, akaze
        public var title: String {
            switch self {
            case .orb: "ORB (oriented, multi-scale)"
            case .fast: "FAST (corners, quickest)"
            case .akaze: "AKAZE (nonlinear scale space)"
            }
        }

        var bridged: OCVKeypointDetector {
            switch self {
            case .orb: OCV_KEYPOINTS_ORB
            case .fast: OCV_KEYPOINTS_FAST
            case .akaze: OCV_KEYPOINTS_AKAZE
            }
        }
    }

    /// The “Detector” parameter: Which keypoints are found.
    public static let detector = Key<Detector>.choice("detector", title: "Detector", default: .orb, help: "Which keypoints are found.")
    /// The “Most keypoints” parameter: The strongest this many are kept.
    public static let maximum = Key<Int>.integer("maximum", title: "Most keypoints", in: 1...5000, default: 500,
                                                 help: "The strongest this many are kept.")
    /// The “Threshold” parameter: ORB and FAST: how much brighter or darker a corner's ring must be; AKAZE: its response × 10000.
    public static let threshold = Key<Double>.number("threshold", title: "Threshold", in: 1...100, step: 1, default: 20,
                                                     help: "ORB and FAST: how much brighter or darker a corner's ring must be; AKAZE: its response × 10000.")
    /// The “Colour” parameter: The circles' colour.
    public static let colour = Key<Colour>.colour("colour", title: "Colour", default: Colour(red: 255, green: 220, blue: 0), help: "The circles' colour.")
    public static let parameters = declared(detector, maximum, threshold, colour)

    /// The values of the parameters this stage was built with.
    public let values: (detector: Detector, maximum: Int, threshold: Double, colour: Colour)

    public init(_ values: StageValues) {
        self.values = (values[Self.detector], values[Self.maximum], values[Self.threshold], values[Self.colour])
    }

    func keypoints(in image: Image) throws(OcularError) -> [OCVKeypoint] {
        try image.converted(to: .gray8).keypoints(values.detector.bridged, maximum: values.maximum, threshold: values.threshold)
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let found = try keypoints(in: frame.image)
        var image = try frame.image.packed
        try image.drawKeypoints(found, colour: values.colour)
        frame.image = image
        frame.annotations += found.map {
            Keypoint(x: Double($0.x), y: Double($0.y), size: Double($0.size), angle: $0.angle >= 0 ? Double($0.angle) : nil, response: Double($0.response))
        } as [any FrameAnnotation]
        return frame
    }
}

internal import OcularAlgorithms
internal import OpenCVBridge

/// One object found on a plain background: its own copy of the frame's pixels inside its
/// rectangle, and a label once classified (0: unclassified, or "unidentified" when nothing matched).
public struct Blob: Sendable, FrameAnnotation {
    public static let kind = "blob"
    public static let group = "blobs"

    /// The frame's pixels inside ``bounds`` (in the frame's format; YUV frames give BGR).
    public let image: Image
    /// Where the blob is in the frame.
    public let bounds: PixelRectangle
    /// 255 on the object's own pixels inside ``bounds``, 0 on the table and on neighbours; nil when
    /// the detection does not say (the textbook's detection boxes only).
    public let mask: Image?
    /// The table's brightness under the blob (0–255), by which its light is divided out before it is
    /// described; nil when the detection does not know it.
    public let tableBrightness: Double?
    /// The classifier's answer, nil until classified.
    public var classification: BlobClassification?

    /// Creates a blob.
    /// - Parameters:
    ///   - image: The blob's picture, cut from the frame at `bounds`.
    ///   - bounds: Where it lies in the frame.
    ///   - mask: Which of its pixels belong to it (gray, the size of `image`), when known.
    ///   - tableBrightness: The table's mean brightness around it, when known.
    ///   - classification: Its label, once classified.
    public init(image: Image, bounds: PixelRectangle, mask: Image? = nil, tableBrightness: Double? = nil,
                classification: BlobClassification? = nil) {
        self.image = image
        self.bounds = bounds
        self.mask = mask
        self.tableBrightness = tableBrightness
        self.classification = classification
    }

    /// The label: 0 until classified, and 0 ("unidentified") when no reference was near enough.
    public var label: Int { classification?.label ?? 0 }

    /// The colour of its box, outline and tag: green when not named, gray when "unidentified", and
    /// Okabe and Ito's colour-blind-safe palette for the labels in turn, so neighbours differ for
    /// everyone.
    public var boxColour: Colour {
        guard let classification else { return Self.unnamed }
        guard classification.label > 0 else { return Self.unidentified }
        return Self.labelPalette[(classification.label - 1) % Self.labelPalette.count]
    }

    public var markColour: Colour? { boxColour }

    /// Green, as the textbook draws blobs not named.
    static let unnamed = Colour(red: 0, green: 255, blue: 0)
    static let unidentified = Colour(red: 170, green: 170, blue: 170)
    static let labelPalette = [
        Colour(red: 230, green: 159, blue: 0), Colour(red: 86, green: 180, blue: 233), Colour(red: 0, green: 158, blue: 115),
        Colour(red: 240, green: 228, blue: 66), Colour(red: 0, green: 114, blue: 178), Colour(red: 213, green: 94, blue: 0),
        Colour(red: 204, green: 121, blue: 167), Colour.white,
    ]

    /// The blob with the biggest area, the first of equals; nil for none.
    /// - Parameter blobs: The blobs.
    /// - Returns: The biggest, or nil when there are none.
    public static func biggest(of blobs: [Blob]) -> Blob? {
        blobs.enumerated().max { a, b in
            a.element.bounds.area != b.element.bounds.area ? a.element.bounds.area < b.element.bounds.area : a.offset > b.offset
        }?.element
    }

    /// How the one object of a training picture is cut from its backdrop: GrabCut, seeded by what
    /// looks like the backdrop or the object's shadow. Brightnesses are relative to the backdrop's
    /// (the border's median), leans are how far a colour's chromaticity is from the backdrop's.
    public struct Cutout: Sendable, Hashable {
        /// GrabCut runs on a copy at most this many pixels across: the size blobs are described at
        /// is smaller, and GrabCut's cost grows with the pixels.
        public var workingSide = 200
        /// This many pixels along every edge are backdrop for certain (a training picture is framed
        /// around its object), and their median is the backdrop's colour.
        public var border = 2
        /// A pixel between these brightnesses whose colour leans by less than ``backdropLean`` is
        /// probably backdrop: the paper's own unevenness, ±15 %.
        public var backdropDarkest = 0.85
        /// See ``backdropDarkest``.
        public var backdropLightest = 1.15
        /// See ``backdropDarkest``.
        public var backdropLean = 0.08
        /// A pixel between these brightnesses whose colour leans by less than ``shadowLean`` is
        /// probably the object's shadow, so backdrop too: the training photos' shadows are deep
        /// (0.4–0.8 of the paper) and warmer than it. GrabCut's colour models then take in a pale
        /// pinto bean's body, which a threshold on the difference from the backdrop left out while it
        /// took the shadow in.
        public var shadowDarkest = 0.38
        /// See ``shadowDarkest``.
        public var shadowLightest = 0.8
        /// See ``shadowDarkest``.
        public var shadowLean = 0.23
        /// With fewer probable object pixels than this, the picture holds no object (its mask stays
        /// empty): GrabCut's colour model of the object needs pixels to start from.
        public var leastObjectSeeds = 16
        /// GrabCut's iterations: OpenCV's samples use five.
        public var grabCutIterations = 5
        /// A circle round the picture's centre (OpenCV's HOUGH_GRADIENT_ALT at this roundness, as the
        /// finding's coin search) with a radius from ``coinSmallest`` to ``coinLargest`` of the short
        /// side is the object when GrabCut kept less than ``coinKept`` of its disc. A silver coin
        /// photographed on white paper is 0.4–0.53 of the paper's brightness and of nearly its colour,
        /// which the shadow seeds take for shadow: GrabCut kept 18 pixels across of a 180-pixel
        /// nickel, a toonie's gold centre without its ring, of a shiny dime a sliver. Every one of
        /// the 23 real coins of the shared tables' training pictures had its circle found; the beans'
        /// cuts keep most of any circle drawn round them.
        public var coinRoundness = 0.85
        /// See ``coinRoundness``.
        public var coinSmallest = 0.2
        /// See ``coinRoundness``.
        public var coinLargest = 0.5
        /// See ``coinRoundness``; 0 never takes a circle.
        public var coinKept = 0.5

        /// The defaults, chosen on the training pictures.
        public init() {}

        /// Every constant with the range in which it means what its documentation says.
        var constants: [RangedConstant] {
            [("workingSide", Double(workingSide), 8...8192), ("border", Double(border), 1...64),
             ("backdropDarkest", backdropDarkest, 0...backdropLightest.clampedForRange), ("backdropLightest", backdropLightest, 0...100),
             ("backdropLean", backdropLean, 0...10),
             ("shadowDarkest", shadowDarkest, 0...shadowLightest.clampedForRange), ("shadowLightest", shadowLightest, 0...100),
             ("shadowLean", shadowLean, 0...10), ("leastObjectSeeds", Double(leastObjectSeeds), 1...1_000_000),
             ("grabCutIterations", Double(grabCutIterations), 1...100), ("coinRoundness", coinRoundness, 0.01...1),
             ("coinSmallest", coinSmallest, 0.01...coinLargest.clampedForRange), ("coinLargest", coinLargest, 0.01...1), ("coinKept", coinKept, 0...1)]
        }
    }

    /// The one object of a picture that shows one object on a plain backdrop (a training picture):
    /// the picture, with a mask of the object cut out by GrabCut (seeded by the border's colour; a
    /// shadow of the backdrop's colour stays backdrop; holes filled), and the backdrop's brightness.
    /// - Parameters:
    ///   - picture: The training picture, in any format.
    ///   - cutout: How the object is cut from its backdrop.
    /// - Returns: The object as a blob.
    /// - Throws: ``OcularError`` naming what failed and why, ``OcularError/invalidArgument(_:)`` when
    ///   a constant of `cutout` is out of its range.
    public static func alone(in picture: Image, cutout: Cutout = Cutout()) throws(OcularError) -> Blob {
        try refuseOutOfRange(cutout.constants, of: "the cutout")
        let image = picture.format == .bgr8 ? picture : try picture.converted(to: .bgr8)
        let bounds = PixelRectangle(x: 0, y: 0, width: image.width, height: image.height)
        guard image.width >= 8, image.height >= 8 else { return Blob(image: image, bounds: bounds) }
        var backdrop = 0.0
        var settings = OcularCutoutSettings(
            workingSide: Int32(cutout.workingSide), border: Int32(cutout.border), backdropDarkest: cutout.backdropDarkest,
            backdropLightest: cutout.backdropLightest, backdropLean: cutout.backdropLean, shadowDarkest: cutout.shadowDarkest,
            shadowLightest: cutout.shadowLightest, shadowLean: cutout.shadowLean, leastObjectSeeds: Int32(cutout.leastObjectSeeds),
            grabCutIterations: Int32(cutout.grabCutIterations), coinRoundness: cutout.coinRoundness, coinSmallest: cutout.coinSmallest,
            coinLargest: cutout.coinLargest, coinKept: cutout.coinKept)
        let mask = try Image.filledByOpenCV(width: image.width, height: image.height, format: .gray8) { (output) throws(OcularError) in
            try image.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("the object of \(image)") { ocular_object_alpha(input, &settings, output, &backdrop, $0) }
            }
        }
        return Blob(image: image, bounds: bounds, mask: mask, tableBrightness: backdrop)
    }

    private enum CodingKeys: String, CodingKey {
        case bounds, label, description, distance
    }

    /// The JSON of `ocular blobs … --json` and the studio's messages:
    /// `{"bounds":[x,y,w,h],"label":N,"description":"…","distance":D}`, the last two only once classified.
    /// Encodes the blob as the JSON of `ocular blobs --json`.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([bounds.x, bounds.y, bounds.width, bounds.height], forKey: .bounds)
        try container.encode(label, forKey: .label)
        if let classification {
            try container.encode(classification.description, forKey: .description)
            try container.encode(classification.roundedDistance, forKey: .distance)
        }
    }
}

extension PixelRectangle {
    /// Whether `other` lies wholly inside this rectangle.
    func contains(_ other: PixelRectangle) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}

extension Blob {
    /// The object's outline in frame pixels, traced round its mask and simplified to within a hundredth
    /// of its box's diagonal (the mask comes from a smaller working copy, so it steps); empty when the
    /// blob has no mask (the textbook's detection).
    /// - Returns: The outline's corners in order round the object, in frame pixels.
    /// - Throws: ``OcularError`` when OpenCV cannot trace it.
    public func outline() throws(OcularError) -> [Point] {
        guard let mask else { return [] }
        let tolerance = max(1, 0.01 * Double(bounds.width * bounds.width + bounds.height * bounds.height).squareRoot())
        var points = [Double](repeating: 0, count: 2 * 512)
        var count: Int32 = 0
        try mask.withMatrix { (matrix) throws(OcularError) in
            try OpenCV.call("outline of a blob") { error in
                points.withUnsafeMutableBufferPointer { ocv_mask_outline(matrix, tolerance, $0.baseAddress!, 512, &count, error) }
            }
        }
        return (0..<min(Int(count), 512)).map { Point(x: Double(bounds.x) + points[2 * $0], y: Double(bounds.y) + points[2 * $0 + 1]) }
    }
}

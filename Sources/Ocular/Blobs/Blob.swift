/// One object found on a plain background (SPEC §5): its own copy of the frame's pixels inside its
/// rectangle, and a label once classified (0: unclassified, or "unidentified" when nothing matched).
public struct Blob: Sendable, FrameAnnotation {
    public static let kind = "blob"

    /// The frame's pixels inside ``bounds`` (in the frame's format; YUV frames give BGR).
    public let image: Image
    /// Where the blob is in the frame.
    public let bounds: PixelRectangle
    /// The classifier's answer, nil until classified.
    public var classification: BlobClassification?

    public init(image: Image, bounds: PixelRectangle, classification: BlobClassification? = nil) {
        self.image = image
        self.bounds = bounds
        self.classification = classification
    }

    /// The label: 0 until classified, and 0 ("unidentified") when no reference was near enough.
    public var label: Int { classification?.label ?? 0 }

    /// The blob with the biggest area, the first of equals; nil for none.
    public static func biggest(of blobs: [Blob]) -> Blob? {
        blobs.enumerated().max { a, b in
            a.element.bounds.area != b.element.bounds.area ? a.element.bounds.area < b.element.bounds.area : a.offset > b.offset
        }?.element
    }

    private enum CodingKeys: String, CodingKey {
        case bounds, label, description, distance
    }

    /// The JSON of `ocular blobs … --json` and the studio's messages:
    /// `{"bounds":[x,y,w,h],"label":N,"description":"…","distance":D}`, the last two only once classified.
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

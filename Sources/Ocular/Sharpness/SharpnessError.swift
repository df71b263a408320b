/// Why a picture cannot be measured by the slanted-edge method, each case saying what to change.
public enum SharpnessError: CodedError, Equatable, Sendable {
    /// The region to measure is too small to hold an edge and the flat on either side.
    case regionTooSmall(PixelRectangle, minimum: Int)
    /// The region to measure is larger than a slanted-edge region needs (a whole photograph).
    case regionTooLarge(PixelRectangle, maximum: Int)
    /// The region to measure lies (partly) outside the picture.
    case regionOutside(PixelRectangle, pictureWidth: Int, pictureHeight: Int)
    /// The region is about one level: no edge to measure.
    case noContrast(levels: Double)
    /// The region's light changes, but not across one straight edge (texture, noise, several edges).
    case noStraightEdge(scatter: Double)
    /// The edge runs along the pixel grid: its rows all sample it at one phase, so nothing can be
    /// learnt between the pixels.
    case edgeAlongPixelGrid(degrees: Double, shift: Double)
    /// The edge runs out of the region at its top or bottom.
    case edgeLeavesRegion

    /// What is wrong with the picture or region, and how to take a better one.
    public var description: String {
        switch self {
        case .regionTooSmall(let region, let minimum):
            "the region \(region) is too small to measure: it needs at least \(minimum) × \(minimum) pixels, with the edge across its middle"
        case .regionTooLarge(let region, let maximum):
            "the region \(region) is larger than the \(maximum / 1_000_000) megapixels a slanted-edge measurement uses: give --roi around one edge, a few hundred pixels across"
        case .regionOutside(let region, let width, let height):
            "the region \(region) is not inside the \(width)×\(height) picture"
        case .noContrast(let levels):
            "no edge to measure: the region's light varies by only \(Self.decimal(levels)) levels (at least 10 are needed between its dark and light sides)"
        case .noStraightEdge(let scatter):
            "no straight edge found: the light changes across the region, but not along one line (the edge points scatter by \(Self.decimal(scatter)) pixels); choose a region with one dark-to-light edge crossing it"
        case .edgeAlongPixelGrid(let degrees, let shift):
            "the edge is \(Self.decimal(degrees))° from the pixel grid and moves only \(Self.decimal(shift)) pixels across the region; the slanted-edge method needs it to cross at least one whole pixel: tilt the target 2–10° (5° is usual) or measure more rows"
        case .edgeLeavesRegion:
            "the edge runs out of the region: choose one the edge crosses from top to bottom (or side to side), away from its ends"
        }
    }

    /// The stable code of the error, for programs and HTTP statuses.
    public var code: ErrorCode {
        switch self {
        case .regionTooSmall: ErrorCode("sharpness.regionTooSmall", .badInput)
        case .regionTooLarge: ErrorCode("sharpness.regionTooLarge", .badInput)
        case .regionOutside: ErrorCode("sharpness.regionOutside", .badInput)
        case .noContrast: ErrorCode("sharpness.noContrast", .badInput)
        case .noStraightEdge: ErrorCode("sharpness.noStraightEdge", .badInput)
        case .edgeAlongPixelGrid: ErrorCode("sharpness.edgeAlongPixelGrid", .badInput)
        case .edgeLeavesRegion: ErrorCode("sharpness.edgeLeavesRegion", .badInput)
        }
    }

    private static func decimal(_ value: Double) -> String { String((value * 10).rounded() / 10) }
}

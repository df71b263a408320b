/// How an ``Image`` lays out its pixels.
///
/// OpenCV works in BGR order, browsers and PNG in RGB: the format travels with the pixels so the two
/// are never confused. The YUV formats are what cameras deliver; their luma (Y) is the gray image.
public enum PixelFormat: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// 8-bit gray, one byte per pixel.
    case gray8
    /// 8-bit red, green, blue.
    case rgb8
    /// 8-bit blue, green, red: OpenCV's native order.
    case bgr8
    /// 8-bit red, green, blue, alpha.
    case rgba8
    /// 8-bit blue, green, red, alpha.
    case bgra8
    /// Planar YUV 4:2:0: a full Y plane, then a quarter-size U plane, then V.
    case i420
    /// Semi-planar YUV 4:2:0: a full Y plane, then one plane of interleaved U, V pairs.
    case nv12
    /// Packed YUV 4:2:2: Y0 U Y1 V for every two pixels.
    case yuyv

    /// The format's name, as recipes and the CLI spell it.
    public var description: String { rawValue }

    /// Whether the format is one of the YUV camera formats.
    public var isYUV: Bool {
        switch self {
        case .i420, .nv12, .yuyv: true
        default: false
        }
    }

    /// Planar formats keep their rows tightly packed (OpenCV derives the chroma planes from the width).
    public var isPlanar: Bool { self == .i420 || self == .nv12 }

    /// Whether the format carries an alpha channel.
    public var hasAlpha: Bool { self == .rgba8 || self == .bgra8 }

    /// Interleaved channels per pixel (for planar YUV: 1, the Y plane's).
    public var channels: Int {
        switch self {
        case .gray8, .i420, .nv12: 1
        case .yuyv: 2
        case .rgb8, .bgr8: 3
        case .rgba8, .bgra8: 4
        }
    }

    /// The smallest row length in bytes for an image `width` pixels wide.
    /// - Parameter width: The width in pixels.
    /// - Returns: Bytes per row, tightly packed.
    public func minimumBytesPerRow(width: Int) -> Int { width * channels }

    /// How many rows of `bytesPerRow` bytes hold an image `height` pixels high.
    /// - Parameter height: The height in pixels.
    /// - Returns: The rows: the height, and half again for the planar YUV formats' chroma.
    public func rowCount(height: Int) -> Int { isPlanar ? height + height / 2 : height }

    /// The byte offsets of the red, green and blue samples inside one pixel, for RGB-family formats.
    var rgbOffsets: (red: Int, green: Int, blue: Int)? {
        switch self {
        case .rgb8, .rgba8: (0, 1, 2)
        case .bgr8, .bgra8: (2, 1, 0)
        default: nil
        }
    }
}

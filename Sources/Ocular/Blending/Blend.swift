internal import OcularAlgorithms
internal import OpenCVBridge
import Synchronization

/// Blends a source picture into frames (the textbook's "light work").
///
/// The source is prepared once for the frames' size and format and kept until they change: cropped
/// to the frame's aspect ratio around its centre, resized with Lanczos interpolation, converted to
/// the frame's format, and for HUD turned into its edges. Each frame then costs one pass over its
/// pixels, rows spread over the cores.
///
/// Per channel, with a the frame's byte, B the mode's result and α = round(opacity · 255), the output
/// is round(((255 − α)·a + α·B) / 255); alpha is the frame's. YUV frames are blended as BGR.
public struct Blend: Sendable {
    /// How the picture combines with the frame.
    public let mode: BlendMode
    /// How much of the blended result shows, from 0 (the frame) to 1 (the full blend).
    public let opacity: Double
    /// The picture blended in, as given.
    public let source: Image
    private let prepared = PreparedSource()

    /// Creates a blend.
    /// - Parameters:
    ///   - source: The picture to blend into frames.
    ///   - mode: How it combines with them.
    ///   - opacity: How much of the blend shows, 0…1.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for an opacity outside 0…1.
    public init(source: Image, mode: BlendMode, opacity: Double = 1) throws(OcularError) {
        guard opacity >= 0, opacity <= 1 else { throw .invalidArgument("blend opacity must be from 0 to 1, got \(opacity)") }
        self.source = source
        self.mode = mode
        self.opacity = opacity
    }

    /// The frame with the source blended in.
    /// - Parameter frame: The frame, the backdrop.
    /// - Returns: The blended frame, in its own size (and packed format).
    /// - Throws: ``OcularError`` naming what failed and why.
    public func apply(to frame: Image) throws(OcularError) -> Image {
        guard mode.pixelMode != nil, opacity > 0 else { return frame }
        let backdrop = try frame.packed
        return try Self.blend(backdrop, with: try preparedSource(for: backdrop), mode: mode, opacity: opacity)
    }

    /// One pass of `mode` over two packed images of the same size and format (`.none`: the backdrop).
    static func blend(_ backdrop: Image, with source: Image, mode: BlendMode, opacity: Double = 1) throws(OcularError) -> Image {
        guard let pixelMode = mode.pixelMode else { return backdrop }
        guard backdrop.width == source.width, backdrop.height == source.height, backdrop.format == source.format,
              !backdrop.format.isYUV else {
            throw .invalidArgument("cannot blend \(source) into \(backdrop): they need one size and one packed format")
        }
        let red = backdrop.format.rgbOffsets?.red ?? 0
        return try Image.filledByOpenCV(width: backdrop.width, height: backdrop.height, format: backdrop.format) { (output) throws(OcularError) in
            try backdrop.withMatrix { (backdropView) throws(OcularError) in
                try source.withMatrix { (sourceView) throws(OcularError) in
                    try OpenCV.call("blend \(mode.rawValue)") {
                        ocular_blend(backdropView, sourceView, output, pixelMode, opacity, Int32(red), $0)
                    }
                }
            }
        }
    }

    /// The source as blended into frames like `frame`: cropped, resized, in the frame's format, and
    /// for HUD its tinted edges. Made on the first frame of a size and format, then reused.
    /// - Parameter frame: A frame of the size and format to prepare for.
    /// - Returns: The prepared source.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func preparedSource(for frame: Image) throws(OcularError) -> Image {
        let key = PreparedSource.Key(width: frame.width, height: frame.height, format: frame.format)
        return try prepared.image(for: key) { () throws(OcularError) in
            let fitted = try Self.fit(source, width: frame.width, height: frame.height).converted(to: frame.format)
            return mode == .hud ? try Self.edges(of: fitted) : fitted
        }
    }

    /// `image` cropped around its centre to the aspect ratio of `width × height`, then resized to it
    /// with Lanczos interpolation; YUV pictures become BGR first.
    /// - Parameters:
    ///   - image: The picture.
    ///   - width: The width to fit.
    ///   - height: The height to fit.
    /// - Returns: The fitted picture.
    /// - Throws: ``OcularError`` naming what failed and why.
    public static func fit(_ image: Image, width: Int, height: Int) throws(OcularError) -> Image {
        let packed = try image.packed
        let crop = PixelRectangle.centred(inWidth: packed.width, height: packed.height, aspectWidth: width, aspectHeight: height)
        return try Image.filledByOpenCV(width: width, height: height, format: packed.format) { (output) throws(OcularError) in
            try packed.withMatrix(of: crop) { (input) throws(OcularError) in
                try OpenCV.call("resize \(crop) of \(packed) to \(width)×\(height)") { ocv_resize_lanczos(input, output, $0) }
            }
        }
    }

    /// HUD's edges: Laplacian (aperture 3) of the 5 × 5 Gaussian-blurred picture; in colour tinted
    /// yellow-green by multiplying blue, green, red by 0, 1, 0.5. (The textbook stores these inverted,
    /// 255 − edges, and Screens with the inverse; Screening with the edges themselves is the same.)
    /// - Parameter image: The picture.
    /// - Returns: Its edges, in its format.
    /// - Throws: ``OcularError`` naming what failed and why.
    public static func edges(of image: Image) throws(OcularError) -> Image {
        var factors = [Double](repeating: 1, count: image.format.channels)
        if let offsets = image.format.rgbOffsets {
            factors[offsets.blue] = 0
            factors[offsets.green] = 1
            factors[offsets.red] = 0.5
        }
        return try Image.filledByOpenCV(width: image.width, height: image.height, format: image.format) { (output) throws(OcularError) in
            try image.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("edges of \(image)") { error in
                    factors.withUnsafeBufferPointer { ocv_edge_image(input, output, $0.baseAddress!, error) }
                }
            }
        }
    }
}

/// The prepared source for the latest frame size and format. A class, so that every copy of a
/// ``Blend`` shares it; a mutex, as frames may arrive on any thread.
/// The latest picture prepared for frames of one size and format, kept until they change.
final class PreparedSource: Sendable {
    struct Key: Equatable {
        var width: Int
        var height: Int
        var format: PixelFormat
    }

    private let latest = Mutex<(key: Key, image: Image)?>(nil)

    func image(for key: Key, make: () throws(OcularError) -> Image) throws(OcularError) -> Image {
        if let hit = latest.withLock({ $0?.key == key ? $0?.image : nil }) { return hit }
        let image = try make()
        latest.withLock { $0 = (key, image) }
        return image
    }
}

extension Image {
    /// This image, as the backdrop, with `source` blended in by `mode` pixel for pixel (no cropping
    /// or resizing: ``Blend`` fits a picture to frames first).
    /// - Parameters:
    ///   - source: The picture blended in, the same size and packed format.
    ///   - mode: How the two combine.
    ///   - opacity: How much of the blend shows, 0…1.
    /// - Returns: The blended image.
    /// - Throws: ``OcularError/invalidArgument(_:)`` unless both have one size and one packed format.
    public func blended(with source: Image, mode: BlendMode, opacity: Double = 1) throws(OcularError) -> Image {
        try Blend.blend(self, with: source, mode: mode, opacity: opacity)
    }
}

internal import OpenCVBridge

/// Automatic white balance by the gray-world assumption: the average colour of a scene is gray, so
/// each channel is scaled until the channel means agree.
///
/// The gains' ratios are those of OpenCV xphoto's `GrayworldWB` (the inverse of each channel's mean
/// over the pixels that are not strongly saturated). OpenCV then scales them so the largest is 1,
/// which darkens: a warm-cast photo comes out at about half its brightness. Ocular scales them so
/// the mean luma (BT.601, as OpenCV's gray conversion) stays what it was, clipping at 255.
public struct WhiteBalance: Sendable, Equatable {
    /// Pixels more saturated than this (0 … 1) are left out of the averages: strongly coloured
    /// objects say little about the light.
    public var saturationThreshold: Double
    /// Whether the gains are scaled to keep the mean luma (Ocular) or so the largest is 1 (OpenCV).
    public var keepsBrightness: Bool

    /// The textbook's settings: OpenCV's threshold, 0.9; Ocular keeps the brightness.
    public static let textbook = WhiteBalance(saturationThreshold: 0.9)

    /// - Parameters:
    ///   - saturationThreshold: Most saturation (0 … 1) a pixel may have to count; 1 counts all.
    ///   - keepsBrightness: Scale the gains to keep the mean luma; `false` makes the largest gain 1.
    public init(saturationThreshold: Double = 0.9, keepsBrightness: Bool = true) {
        self.saturationThreshold = saturationThreshold
        self.keepsBrightness = keepsBrightness
    }

    /// The factors each colour channel is multiplied by, in the image's channel order; `nil` when
    /// some channel has no unsaturated light at all, so no gray world can be inferred.
    /// - Parameter image: A 3- or 4-channel 8-bit image.
    /// - Returns: One factor per channel, or nil.
    /// - Throws: ``OcularError`` for a format it cannot balance or when OpenCV fails.
    public func gains(for image: Image) throws(OcularError) -> [Double]? {
        guard (0...1).contains(saturationThreshold) else {
            throw .invalidArgument("the white-balance saturation threshold must be within 0 … 1, got \(saturationThreshold)")
        }
        guard let order = image.format.rgbOffsets else {
            throw .invalidArgument("white-balance gains need a colour image, got \(image.format)")
        }
        var sums = [0.0, 0.0, 0.0], means = [0.0, 0.0, 0.0]
        try image.withMatrix { (input) throws(OcularError) in
            try OpenCV.call("gray-world statistics") { error in
                sums.withUnsafeMutableBufferPointer { sums in
                    means.withUnsafeMutableBufferPointer { means in
                        ocv_gray_world_statistics(input, Float(saturationThreshold), sums.baseAddress!, means.baseAddress!, error)
                    }
                }
            }
        }
        guard sums.allSatisfy({ $0 > 0 }) else { return nil }
        let inverse = sums.map { 1 / $0 }
        let scale: Double
        if keepsBrightness {
            var weights = [0.0, 0.0, 0.0]
            weights[order.red] = 0.299
            weights[order.green] = 0.587
            weights[order.blue] = 0.114
            let luma = zip(weights, means).reduce(0) { $0 + $1.0 * $1.1 }
            let balancedLuma = (0..<3).reduce(0) { $0 + weights[$1] * inverse[$1] * means[$1] }
            guard balancedLuma > 0 else { return nil }
            scale = luma / balancedLuma
        } else {
            scale = 1 / (inverse.max() ?? 1)
        }
        return inverse.map { $0 * scale }
    }

    /// Balances an image. Colour formats keep their format (alpha is carried over); YUV is balanced
    /// as BGR. A gray image, or one with a channel that holds no unsaturated light, is returned as it is.
    /// - Parameter image: The image to balance.
    /// - Returns: The balanced image.
    /// - Throws: ``OcularError`` when the image cannot be converted or OpenCV fails.
    public func apply(to image: Image) throws(OcularError) -> Image {
        switch image.format {
        case .gray8:
            return image
        case .rgb8, .bgr8, .rgba8, .bgra8:
            guard let gains = try gains(for: image) else { return image }
            let factors = gains + [1]  // alpha unchanged
            return try Image.filledByOpenCV(width: image.width, height: image.height, format: image.format) { (output) throws(OcularError) in
                try image.withMatrix { (input) throws(OcularError) in
                    try OpenCV.call("multiply (white balance)") { error in
                        factors.withUnsafeBufferPointer { ocv_multiply_channels(input, output, $0.baseAddress!, error) }
                    }
                }
            }
        case .i420, .nv12, .yuyv:
            return try apply(to: image.converted(to: .bgr8))
        }
    }
}

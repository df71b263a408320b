import OpenCVBridge

/// Automatic white balance by the gray-world assumption: the average colour of a scene is gray, so
/// each channel is scaled until the channel means agree (OpenCV xphoto's `GrayworldWB`).
public struct WhiteBalance: Sendable, Equatable {
    /// Pixels more saturated than this (0 … 1) are left out of the averages: strongly coloured
    /// objects say little about the light. OpenCV's default, 0.9.
    public var saturationThreshold: Float

    /// - Parameter saturationThreshold: Most saturation (0 … 1) a pixel may have to count; 1 counts all.
    public init(saturationThreshold: Float = 0.9) {
        self.saturationThreshold = saturationThreshold
    }

    /// Balances an image. Colour formats keep their format (alpha is carried over); YUV is balanced
    /// as BGR. A gray image has nothing to balance and is returned as it is.
    /// - Parameter image: The image to balance.
    /// - Returns: The balanced image.
    public func apply(to image: Image) throws(OcularError) -> Image {
        guard (0...1).contains(saturationThreshold) else {
            throw .invalidArgument("the white-balance saturation threshold must be within 0 … 1, got \(saturationThreshold)")
        }
        switch image.format {
        case .gray8:
            return image
        case .rgb8, .bgr8, .rgba8, .bgra8:
            // Gray world treats the channels alike, so RGB order needs no swap.
            return try Image.filledByOpenCV(width: image.width, height: image.height, format: image.format) { (output) throws(OcularError) in
                try image.withMatrix { (input) throws(OcularError) in
                    try OpenCV.call("gray-world white balance") {
                        ocv_gray_world_white_balance(input, output, saturationThreshold, $0)
                    }
                }
            }
        case .i420, .nv12, .yuyv:
            return try apply(to: image.converted(to: .bgr8))
        }
    }
}

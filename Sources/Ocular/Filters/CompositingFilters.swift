internal import OpenCVBridge

/// A picture laid over the frame by its alpha (Porter–Duff source-over): where the picture is
/// opaque it covers the frame, where transparent the frame shows, in between they mix.
public struct SourceOverCompositingFilter: FilterStage {
    public static let name = "sourceOverCompositing"
    public static let title = "Source over"
    public static let category = StageCategory.composite
    public static let summary = "Lays a picture over the frame, its transparent parts letting the frame through (a logo, a frame, a sticker)."
    /// The “Picture” parameter: Laid over the frame: cropped to the frame's shape around its centre and resized to it; its alpha says how much covers.
    public static let image = Key<Image?>.image(
        "image", title: "Picture", help: "Laid over the frame: cropped to the frame's shape around its centre and resized to it; its alpha says how much covers.")
    public static let parameters = declared(image)

    /// nil while no picture is chosen: frames pass unchanged.
    public let picture: Image?
    private let prepared = PreparedSource()

    public init(_ values: StageValues) throws {
        picture = try values[Self.image]
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        guard let picture else { return frame }
        var frame = frame
        let backdrop = try frame.image.packed
        let key = PreparedSource.Key(width: backdrop.width, height: backdrop.height, format: .bgra8)
        let over = try prepared.image(for: key) { () throws(OcularError) in
            try Blend.fit(picture.format.hasAlpha ? picture : picture.converted(to: .bgra8), width: backdrop.width, height: backdrop.height)
                .converted(to: .bgra8)
        }
        frame.image = try backdrop.composited(under: over)
        return frame
    }
}

extension Image {
    /// This image with `over` (BGRA, the same size) laid on it by its alpha a:
    /// out = (over·a + self·(255 − a)) / 255, rounded; this image's own alpha is kept.
    func composited(under over: Image) throws(OcularError) -> Image {
        guard over.format == .bgra8, over.width == width, over.height == height, let order = format.rgbOffsets else {
            throw .invalidArgument("cannot lay \(over) over \(self): it needs a BGRA picture of the same size over a colour one")
        }
        let channels = format.channels, stride = bytesPerRow, overStride = over.bytesPerRow
        let outputStride = format.minimumBytesPerRow(width: width)
        let (width, height) = (width, height)
        return try Image(width: width, height: height, format: format) { (output) throws(OcularError) in
            bytes.withUnsafeBufferPointer { below in
                over.bytes.withUnsafeBufferPointer { above in
                    let out = output.bindMemory(to: UInt8.self)
                    for row in 0..<height {
                        for column in 0..<width {
                            let under = row * stride + column * channels, top = row * overStride + column * 4
                            let to = row * outputStride + column * channels
                            let alpha = UInt32(above[top + 3])
                            // BGRA's blue, green, red, to this format's order.
                            func mix(_ overChannel: Int, _ channel: Int) {
                                let mixed = UInt32(above[top + overChannel]) * alpha + UInt32(below[under + channel]) * (255 - alpha)
                                out[to + channel] = UInt8((mixed + 127) / 255)
                            }
                            mix(2, order.red)
                            mix(1, order.green)
                            mix(0, order.blue)
                            if channels == 4 { out[to + 3] = below[under + 3] }
                        }
                    }
                }
            }
        }
    }
}

extension Image {
    /// The image blurred by a Gaussian of standard deviation `sigma` pixels (cv::GaussianBlur, kernel
    /// sized by OpenCV, edges repeated). YUV images come back as BGR.
    /// - Parameter sigma: The standard deviation in pixels.
    /// - Returns: The blurred image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func gaussianBlurred(sigma: Double) throws(OcularError) -> Image {
        let packed = try self.packed
        return try Image.filledByOpenCV(width: width, height: height, format: packed.format) { (output) throws(OcularError) in
            try packed.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("GaussianBlur of \(packed) by σ \(sigma)") { ocv_gaussian_blur(input, output, sigma, $0) }
            }
        }
    }
}

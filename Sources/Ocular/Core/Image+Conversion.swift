internal import OpenCVBridge

extension Image {
    /// Converts the image to another pixel format.
    ///
    /// RGB-family conversions and YUV decoding are single OpenCV calls (BT.601, video range for YUV).
    /// Gray from a YUV image is its Y plane; a gray image becomes the Y plane of a YUV one, with neutral
    /// chroma, so gray → YUV → gray is lossless. Repacking between the YUV layouts is done here.
    /// - Parameter target: The format to convert to; converting to the image's own format returns it.
    /// - Returns: A tightly packed image in `target`.
    /// - Throws: ``OcularError/invalidImage(reason:)`` when the size does not suit `target`
    ///   (YUV needs even sizes), or ``OcularError/openCV(operation:message:)``.
    public func converted(to target: PixelFormat) throws(OcularError) -> Image {
        if target == format { return self }
        if let code = Self.colorConversion(from: format, to: target) {
            return try convertedByOpenCV(to: target, code: code)
        }
        switch (format, target) {
        case (.gray8, _):
            return try YUVLayout.fromLuma(self).converted(to: target)
        case (let source, _) where !source.isYUV:
            return try converted(to: .i420).converted(to: target)
        case (.i420, .nv12):
            return try YUVLayout.nv12(fromI420: self)
        case (.i420, .yuyv):
            return try YUVLayout.yuyv(fromI420: self)
        case (.nv12, .i420):
            return try YUVLayout.i420(fromNV12: self)
        case (.yuyv, .i420):
            return try YUVLayout.i420(fromYUYV: self)
        default:  // nv12 ↔ yuyv
            return try converted(to: .i420).converted(to: target)
        }
    }

    /// The image in a packed format, for work on pixels in rows: YUV becomes BGR, the others stay as they are.
    package var packed: Image {
        get throws(OcularError) { format.isYUV ? try converted(to: .bgr8) : self }
    }

    private func convertedByOpenCV(to target: PixelFormat, code: OCVColorConversion) throws(OcularError) -> Image {
        if target.isPlanar, !width.isMultiple(of: 2) || !height.isMultiple(of: 2) {
            throw .invalidImage(reason: "\(target) needs an even width and height, got \(width)×\(height)")
        }
        return try Image.filledByOpenCV(width: width, height: height, format: target) { (destination) throws(OcularError) in
            try withMatrix { (source) throws(OcularError) in
                try OpenCV.call("cvtColor(\(format) → \(target))") { ocv_convert_color(source, destination, code, $0) }
            }
        }
    }

    /// The one OpenCV colour conversion from `source` to `target`, where one exists.
    static func colorConversion(from source: PixelFormat, to target: PixelFormat) -> OCVColorConversion? {
        switch (source, target) {
        case (.gray8, .rgb8), (.gray8, .bgr8): return OCV_COLOR_GRAY2BGR
        case (.gray8, .rgba8), (.gray8, .bgra8): return OCV_COLOR_GRAY2BGRA
        case (.rgb8, .gray8): return OCV_COLOR_RGB2GRAY
        case (.bgr8, .gray8): return OCV_COLOR_BGR2GRAY
        case (.rgba8, .gray8): return OCV_COLOR_RGBA2GRAY
        case (.bgra8, .gray8): return OCV_COLOR_BGRA2GRAY
        case (.i420, .gray8), (.nv12, .gray8): return OCV_COLOR_YUV2GRAY_420
        case (.yuyv, .gray8): return OCV_COLOR_YUV2GRAY_YUYV
        case (.i420, .rgb8): return OCV_COLOR_YUV2RGB_I420
        case (.i420, .bgr8): return OCV_COLOR_YUV2BGR_I420
        case (.i420, .rgba8): return OCV_COLOR_YUV2RGBA_I420
        case (.i420, .bgra8): return OCV_COLOR_YUV2BGRA_I420
        case (.nv12, .rgb8): return OCV_COLOR_YUV2RGB_NV12
        case (.nv12, .bgr8): return OCV_COLOR_YUV2BGR_NV12
        case (.nv12, .rgba8): return OCV_COLOR_YUV2RGBA_NV12
        case (.nv12, .bgra8): return OCV_COLOR_YUV2BGRA_NV12
        case (.yuyv, .rgb8): return OCV_COLOR_YUV2RGB_YUYV
        case (.yuyv, .bgr8): return OCV_COLOR_YUV2BGR_YUYV
        case (.yuyv, .rgba8): return OCV_COLOR_YUV2RGBA_YUYV
        case (.yuyv, .bgra8): return OCV_COLOR_YUV2BGRA_YUYV
        case (.rgb8, .i420): return OCV_COLOR_RGB2YUV_I420
        case (.bgr8, .i420): return OCV_COLOR_BGR2YUV_I420
        case (.rgba8, .i420): return OCV_COLOR_RGBA2YUV_I420
        case (.bgra8, .i420): return OCV_COLOR_BGRA2YUV_I420
        default: break
        }
        // Between two colour formats: add or drop alpha, and swap red and blue when the orders differ.
        guard let sourceOrder = source.rgbOffsets, let targetOrder = target.rgbOffsets else { return nil }
        let swapsRedAndBlue = sourceOrder.red != targetOrder.red
        switch (source.hasAlpha, target.hasAlpha, swapsRedAndBlue) {
        case (false, true, false): return OCV_COLOR_BGR2BGRA
        case (true, false, false): return OCV_COLOR_BGRA2BGR
        case (false, false, true): return OCV_COLOR_BGR2RGB
        case (true, true, true): return OCV_COLOR_BGRA2RGBA
        case (false, true, true): return OCV_COLOR_BGR2RGBA
        case (true, false, true): return OCV_COLOR_RGBA2BGR
        default: return nil
        }
    }
}

extension Image {
    /// The factors (BGR, then alpha) by which a camera whose white balance is `kelvinOff` from the
    /// light's records colours (positive: bluer, as under a warmer light than it assumed): about 1 % of
    /// red and blue per 100 K, the slope of daylight's colour along the black-body curve.
    /// - Parameter kelvinOff: How far the white balance is off, in kelvin.
    /// - Returns: Four factors for ``multiplyingChannels(by:)`` on a BGR picture.
    public static func whiteBalanceFactors(kelvinOff: Double) -> [Double] {
        let shift = kelvinOff / 100 * 0.01
        return [1 + shift, 1, 1 - shift, 1]
    }

    /// Each channel multiplied by its factor (cv::multiply, saturating): `factors` holds four values in
    /// the image's channel order, the ones past its channels unused. Packed formats only.
    /// - Parameter factors: Four factors, in the image's channel order.
    /// - Returns: The image with its channels scaled.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for YUV images, or anything but four finite factors.
    public func multiplyingChannels(by factors: [Double]) throws(OcularError) -> Image {
        guard !format.isYUV, factors.count == 4, factors.allSatisfy(\.isFinite) else {
            throw .invalidArgument("multiplying channels needs a packed image and four finite factors, got \(self) and \(factors)")
        }
        return try Image.filledByOpenCV(width: width, height: height, format: format) { (output) throws(OcularError) in
            try withMatrix { (input) throws(OcularError) in
                try OpenCV.call("multiply channels of \(self)") { error in
                    factors.withUnsafeBufferPointer { ocv_multiply_channels(input, output, $0.baseAddress!, error) }
                }
            }
        }
    }
}

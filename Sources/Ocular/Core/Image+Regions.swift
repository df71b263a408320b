internal import OpenCVBridge

extension Image {
    /// A copy of the pixels inside `rectangle`, clipped to the image (YUV images come back as BGR).
    /// - Parameter rectangle: The region, in pixels; the part outside the image is left out.
    /// - Returns: The region's pixels.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when the rectangle misses the image.
    public func cropped(to rectangle: PixelRectangle) throws(OcularError) -> Image {
        let packed = try self.packed
        guard let inside = rectangle.clipped(toWidth: packed.width, height: packed.height) else {
            throw .invalidArgument("the region \(rectangle) lies outside the \(packed.width)×\(packed.height) image")
        }
        // All of it: the image is a value, so it is its own copy.
        if inside == PixelRectangle(x: 0, y: 0, width: packed.width, height: packed.height) { return packed }
        return try packed.withMatrix(of: inside) { (view) throws(OcularError) in try Image(copying: view.pointee, format: packed.format) }
    }

    /// The image resized to `width × height` with bilinear interpolation (OpenCV's default, cheap
    /// when shrinking by half), or averaging the pixels each output pixel covers (no aliasing when
    /// shrinking a lot). YUV images come back as BGR.
    /// - Parameters:
    ///   - width: The new width in pixels.
    ///   - height: The new height in pixels.
    ///   - averaging: Whether to average the pixels each output pixel covers (INTER_AREA).
    /// - Returns: The resized image.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a size below one pixel.
    public func resized(width: Int, height: Int, averaging: Bool = false) throws(OcularError) -> Image {
        guard width >= 1, height >= 1 else { throw .invalidArgument("cannot resize \(self) to \(width)×\(height)") }
        let packed = try self.packed
        if packed.width == width, packed.height == height { return packed }
        return try Image.filledByOpenCV(width: width, height: height, format: packed.format) { (output) throws(OcularError) in
            try packed.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("resize \(packed) to \(width)×\(height)") {
                    averaging ? ocv_resize_area(input, output, $0) : ocv_resize_linear(input, output, $0)
                }
            }
        }
    }

    /// The image scaled by `factor`, each side rounded and at least one pixel.
    /// - Parameters:
    ///   - factor: How many times larger (below 1: smaller).
    ///   - averaging: Whether to average the pixels each output pixel covers.
    /// - Returns: The scaled image.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a factor that is not positive.
    public func scaled(by factor: Double, averaging: Bool = false) throws(OcularError) -> Image {
        guard factor.isFinite, factor > 0 else { throw .invalidArgument("cannot scale \(self) by \(factor)") }
        return try resized(width: max(1, Int((Double(width) * factor).rounded())),
                           height: max(1, Int((Double(height) * factor).rounded())), averaging: averaging)
    }

    /// The image inside a border of `value` in every channel (`left`/`right` columns, `top`/`bottom`
    /// rows). Packed formats only.
    /// - Parameters:
    ///   - left: Columns added on the left.
    ///   - top: Rows added on top.
    ///   - right: Columns added on the right.
    ///   - bottom: Rows added below.
    ///   - value: The border's value in every channel.
    /// - Returns: The padded image.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for YUV images or a negative border.
    public func padded(left: Int, top: Int, right: Int, bottom: Int, value: UInt8) throws(OcularError) -> Image {
        guard !format.isYUV, [left, top, right, bottom].allSatisfy({ (0...Int(Int32.max / 4)).contains($0) }) else {
            throw .invalidArgument("cannot pad \(self) by \(left), \(top), \(right), \(bottom)")
        }
        return try Image.filledByOpenCV(width: width + left + right, height: height + top + bottom, format: format) { (output) throws(OcularError) in
            try withMatrix { (input) throws(OcularError) in
                try OpenCV.call("copyMakeBorder(\(self))") { ocv_pad_constant(input, output, Int32(left), Int32(top), value, $0) }
            }
        }
    }
}

extension PixelRectangle {
    /// The part inside a `width × height` image, or nil when nothing of it is.
    /// - Parameters:
    ///   - width: The image's width.
    ///   - height: The image's height.
    /// - Returns: The clipped rectangle, or nil.
    public func clipped(toWidth width: Int, height: Int) -> PixelRectangle? {
        let left = max(x, 0), top = max(y, 0)
        let right = min(x.addingReportingOverflow(self.width).partialValue, width)
        let bottom = min(y.addingReportingOverflow(self.height).partialValue, height)
        guard right > left, bottom > top else { return nil }
        return PixelRectangle(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Each coordinate and side multiplied by `factor` and rounded: from one image's pixels to those of
    /// a copy `factor` times its size.
    /// - Parameter factor: The scale between the two images.
    /// - Returns: The rectangle in the other image's pixels.
    public func scaled(by factor: Double) -> PixelRectangle {
        func scale(_ value: Int) -> Int { Int((Double(value) * factor).rounded()) }
        return PixelRectangle(x: scale(x), y: scale(y), width: scale(width), height: scale(height))
    }

    /// The same rectangle moved by (`dx`, `dy`).
    /// - Parameters:
    ///   - dx: Pixels to the right.
    ///   - dy: Pixels down.
    /// - Returns: The moved rectangle.
    public func offsetBy(dx: Int, dy: Int) -> PixelRectangle {
        PixelRectangle(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The area in pixels.
    public var area: Int { width * height }

    /// Whether the two rectangles share any pixel.
    /// - Parameter other: The other rectangle.
    /// - Returns: Whether they overlap.
    public func intersects(_ other: PixelRectangle) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    /// How much of this rectangle's area lies inside `other` (0…1; 0 for an empty rectangle).
    /// - Parameter other: The other rectangle.
    /// - Returns: The fraction of this one inside it.
    public func fractionInside(_ other: PixelRectangle) -> Double {
        let width = min(x + self.width, other.x + other.width) - max(x, other.x)
        let height = min(y + self.height, other.y + other.height) - max(y, other.y)
        guard width > 0, height > 0, self.width > 0, self.height > 0 else { return 0 }
        return Double(width * height) / Double(self.width * self.height)
    }

    /// Intersection over union, 0 when apart.
    /// - Parameter other: The other rectangle.
    /// - Returns: Their intersection's area over their union's, 0…1.
    public func intersectionOverUnion(_ other: PixelRectangle) -> Double {
        let overlapWidth = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let overlapHeight = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        let overlap = overlapWidth * overlapHeight
        let union = area + other.area - overlap
        return union > 0 ? Double(overlap) / Double(union) : 0
    }
}

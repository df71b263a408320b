internal import OpenCVBridge
internal import OpenCVSamples

/// The OpenCV calls behind the tutorial's samples, each a thin wrapper that checks its
/// arguments' formats and names the operation in its errors. The stages compose them.
extension Image {
    /// A new image of this one's size and `format` (gray by default) that one bridge call fills from this one.
    private func filtered(into format: PixelFormat = .gray8, _ operation: @autoclosure () -> String,
                          _ call: (UnsafePointer<OCVImage>, UnsafePointer<OCVImage>, UnsafeMutablePointer<OCVError>) -> OCVStatus)
        throws(OcularError) -> Image {
        try Image.filledByOpenCV(width: width, height: height, format: format) { (output) throws(OcularError) in
            try withMatrix { (input) throws(OcularError) in
                try OpenCV.call(operation()) { call(input, output, $0) }
            }
        }
    }

    private func requireGray(_ what: String) throws(OcularError) {
        guard format == .gray8 else { throw .invalidArgument("\(what) works on gray images, not \(format)") }
    }

    /// Canny's edges of a gray image: 255 on edges, 0 elsewhere.
    /// - Parameters:
    ///   - low: The hysteresis's low threshold.
    ///   - high: Its high threshold.
    ///   - aperture: The Sobel aperture (3, 5 or 7).
    ///   - l2Gradient: Whether the gradient's magnitude is the L2 norm.
    /// - Returns: The edges.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func cannyEdges(low: Double, high: Double, aperture: Int, l2Gradient: Bool = false) throws(OcularError) -> Image {
        try requireGray("Canny")
        return try filtered("Canny(\(low), \(high), aperture \(aperture)) of \(self)") {
            ocv_canny($0, $1, low, high, Int32(aperture), l2Gradient, $2)
        }
    }

    /// The gradient's strength of a gray image by Sobel or Scharr, in one direction or both (magnitude),
    /// scaled and saturated to 8 bits.
    func gradientStrength(_ method: OCVGradientOperator, _ direction: OCVGradientDirection, aperture: Int,
                                 scale: Double) throws(OcularError) -> Image {
        try requireGray("a gradient")
        return try filtered("gradient of \(self)") { ocv_gradient($0, $1, method, direction, Int32(aperture), scale, $2) }
    }

    /// Paints `colour` over the image where `mask` (gray, the same size) is on, in proportion to it.
    /// - Parameters:
    ///   - colour: The paint.
    ///   - mask: Where and how strongly to paint.
    /// - Throws: ``OcularError`` naming what failed and why.
    public mutating func paint(_ colour: Colour, where mask: Image) throws(OcularError) {
        guard mask.format == .gray8, mask.width == width, mask.height == height, !format.isYUV else {
            throw .invalidArgument("a \(mask.width)×\(mask.height) \(mask.format) mask cannot paint a \(width)×\(height) \(format) image")
        }
        let values = channels(of: colour)
        let described = "\(self)"
        try withMutableMatrix { (canvas) throws(OcularError) in
            try mask.withMatrix { (weights) throws(OcularError) in
                try OpenCV.call("paint over \(described)") { error in
                    values.withUnsafeBufferPointer { ocv_paint_mask(canvas, weights, $0.baseAddress!, error) }
                }
            }
        }
    }

    /// Each pixel the maximum of a `size` × `size` square around it: lines thickened.
    /// - Parameter size: The square's side.
    /// - Returns: The dilated image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func dilated(by size: Int) throws(OcularError) -> Image {
        try filtered(into: format, "dilate(\(size)) of \(self)") { ocv_dilate_square($0, $1, Int32(clamping: size), $2) }
    }

    /// Each pixel `matrix` (output channels × this image's channels, row-major) times the pixel.
    /// - Parameters:
    ///   - matrix: The matrix, row-major.
    ///   - target: The output's format.
    /// - Returns: The transformed image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func transformed(by matrix: [Float], into target: PixelFormat) throws(OcularError) -> Image {
        guard matrix.count == target.channels * format.channels, !format.isYUV, !target.isYUV else {
            throw .invalidArgument("a colour transform from \(format) to \(target) takes a \(target.channels)×\(format.channels) matrix")
        }
        return try filtered(into: target, "transform of \(self)") { input, output, error in
            matrix.withUnsafeBufferPointer { ocv_transform_colour(input, output, $0.baseAddress!, error) }
        }
    }

    /// Every colour value v becomes 255 − v; alpha is kept. YUV becomes BGR.
    /// - Returns: The negative.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func inverted() throws(OcularError) -> Image {
        let source = try packed
        return try source.filtered(into: source.format, "invert \(source)") { ocv_invert_colours($0, $1, $2) }
    }

    /// Every colour value v becomes contrast × v + brightness, rounded (half to even) and kept within
    /// 0…255, as cv::Mat::convertTo does; alpha is kept. YUV becomes BGR.
    /// - Parameters:
    ///   - contrast: The factor.
    ///   - brightness: The offset.
    /// - Returns: The scaled image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func scaledValues(contrast: Double, brightness: Double) throws(OcularError) -> Image {
        let source = try packed
        guard !source.format.hasAlpha else {
            // convertTo would scale alpha too: a table of the colour values instead.
            let table = (0...255).map { UInt8(Swift.min(255, Swift.max(0, (contrast * Double($0) + brightness).rounded(.toNearestOrEven)))) }
            return try source.mapped(red: table)
        }
        return try source.filtered(into: source.format, "scale \(source)") { ocv_scale_values($0, $1, contrast, brightness, $2) }
    }

    /// Mean-shift filtering of a BGR image: colours flattened into patches.
    /// - Parameters:
    ///   - spatialRadius: The spatial window's radius.
    ///   - colourRadius: The colour window's radius.
    ///   - levels: The pyramid's levels.
    /// - Returns: The filtered image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func meanShiftFiltered(spatialRadius: Double, colourRadius: Double, levels: Int) throws(OcularError) -> Image {
        guard format == .bgr8 else { throw .invalidArgument("mean shift works on BGR images, not \(format)") }
        return try filtered(into: .bgr8, "mean shift of \(self)") {
            ocv_mean_shift($0, $1, spatialRadius, colourRadius, Int32(levels), $2)
        }
    }

    /// The bilateral filter: smooth, with edges kept.
    /// - Parameters:
    ///   - diameter: The neighbourhood's diameter.
    ///   - sigmaColour: How different colours may be and still mix.
    ///   - sigmaSpace: How far pixels may be and still mix.
    /// - Returns: The filtered image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func bilateralFiltered(diameter: Int, sigmaColour: Double, sigmaSpace: Double) throws(OcularError) -> Image {
        try filtered(into: format, "bilateral filter of \(self)") {
            ocv_bilateral($0, $1, Int32(diameter), sigmaColour, sigmaSpace, $2)
        }
    }

    /// A gray image's adaptive threshold: 255 where a pixel is brighter than its neighbourhood's mean less `offset`.
    /// - Parameters:
    ///   - blockSize: The neighbourhood's side, odd.
    ///   - offset: Subtracted from the neighbourhood's mean.
    ///   - gaussian: Whether the mean is Gaussian-weighted.
    /// - Returns: The black-and-white image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func adaptiveThreshold(blockSize: Int, offset: Double, gaussian: Bool) throws(OcularError) -> Image {
        try requireGray("an adaptive threshold")
        return try filtered("adaptive threshold of \(self)") { ocv_adaptive_threshold($0, $1, Int32(blockSize), offset, gaussian, $2) }
    }

    /// A gray image denoised by total variation (OpenCV's denoise_TVL1).
    /// - Parameters:
    ///   - lambda: The fidelity weight: smaller smooths more.
    ///   - iterations: The solver's iterations.
    /// - Returns: The denoised image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func totalVariationDenoised(lambda: Double, iterations: Int) throws(OcularError) -> Image {
        try requireGray("total-variation denoising")
        return try filtered("denoise_TVL1 of \(self)") { ocv_denoise_tv($0, $1, lambda, Int32(iterations), $2) }
    }

    /// The image's channels as gray images, in the format's order (cv::extractChannel).
    func splitChannels() throws(OcularError) -> [Image] {
        guard !format.isYUV, format.channels > 1 else { return [self] }
        return try (0..<format.channels).map { (channel) throws(OcularError) in
            try filtered("channel \(channel) of \(self)") { ocv_extract_channel($0, $1, Int32(channel), $2) }
        }
    }

    /// Gray images of one size merged as the channels of a `format` image (cv::merge).
    static func merged(_ planes: [Image], as format: PixelFormat) throws(OcularError) -> Image {
        guard let first = planes.first, planes.count == format.channels, !format.isYUV,
              planes.allSatisfy({ $0.format == .gray8 && $0.width == first.width && $0.height == first.height })
        else { throw .invalidArgument("\(planes.count) planes cannot make a \(format) image") }
        if planes.count == 1 { return first }
        return try Image.filledByOpenCV(width: first.width, height: first.height, format: format) { (output) throws(OcularError) in
            try withMatrices(of: planes[...]) { (views) throws(OcularError) in
                try OpenCV.call("merge \(planes.count) planes") { error in
                    views.withUnsafeBufferPointer { ocv_merge_channels($0.baseAddress!, Int32($0.count), output, error) }
                }
            }
        }
    }

    /// Lends every image of `images` to the bridge at once, as matrix views valid only inside `body`.
    private static func withMatrices<R>(of images: ArraySlice<Image>, _ views: [UnsafePointer<OCVImage>] = [],
                                        _ body: ([UnsafePointer<OCVImage>]) throws(OcularError) -> R) throws(OcularError) -> R {
        guard let image = images.first else { return try body(views) }
        return try image.withMatrix { (view) throws(OcularError) in
            try withMatrices(of: images.dropFirst(), views + [view], body)
        }
    }
}

// MARK: - What the samples find

extension Image {
    /// Harris corners of a gray image, strongest first: local maxima at least `threshold` times the
    /// strongest response, at most `maximum` of them.
    /// - Parameters:
    ///   - blockSize: The neighbourhood's side.
    ///   - aperture: The Sobel aperture.
    ///   - k: Harris's k.
    ///   - threshold: The weakest kept, as a fraction of the strongest response.
    ///   - maximum: The most corners.
    /// - Returns: The corners.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func harrisCorners(blockSize: Int, aperture: Int, k: Double, threshold: Double, maximum: Int) throws(OcularError) -> [Corner] {
        try requireGray("Harris")
        let capacity = max(0, min(maximum, width * height))
        var values = [Float](repeating: 0, count: 3 * max(capacity, 1))
        var count: Int32 = 0
        try withMatrix { (gray) throws(OcularError) in
            try values.withUnsafeMutableBufferPointer { (corners) throws(OcularError) in
                try OpenCV.call("Harris corners of \(self)") {
                    ocv_harris_corners(gray, Int32(blockSize), Int32(aperture), k, threshold, Int32(clamping: capacity), corners.baseAddress!, &count, $0)
                }
            }
        }
        return (0..<Int(count)).map { Corner(x: Double(values[3 * $0]), y: Double(values[3 * $0 + 1]), response: Double(values[3 * $0 + 2])) }
    }

    /// The contours of a gray image's shapes, and a way to draw them.
    func contours(_ binarization: OCVBinarization, threshold: Double, outerOnly: Bool, minimumArea: Double) throws(OcularError) -> Contours {
        try requireGray("finding contours")
        var found: OpaquePointer?
        try withMatrix { (gray) throws(OcularError) in
            try OpenCV.call("contours of \(self)") { ocv_contours_find(gray, binarization, threshold, outerOnly, minimumArea, &found, $0) }
        }
        guard let found else { throw .openCV(operation: "contours of \(self)", message: "no contours were returned") }
        return Contours(found)
    }

    /// Pictures with a side shorter than this have no keypoints.
    static let smallestKeypointSide = 7

    /// Keypoints of a gray image, strongest first.
    func keypoints(_ detector: OCVKeypointDetector, maximum: Int, threshold: Double) throws(OcularError) -> [OCVKeypoint] {
        try requireGray("keypoint detection")
        // FAST's test circle is 7 pixels across, and ORB's and AKAZE's pyramids fail in OpenCV on a
        // one-pixel side: a picture smaller than a keypoint's neighbourhood has none.
        guard width >= Self.smallestKeypointSide, height >= Self.smallestKeypointSide else { return [] }
        var keypoints = [OCVKeypoint](repeating: OCVKeypoint(), count: max(1, maximum))
        var count: Int32 = 0
        try withMatrix { (gray) throws(OcularError) in
            try keypoints.withUnsafeMutableBufferPointer { (points) throws(OcularError) in
                try OpenCV.call("keypoints of \(self)") {
                    ocv_keypoints(gray, detector, Int32(clamping: maximum), threshold, points.baseAddress!, &count, $0)
                }
            }
        }
        return Array(keypoints.prefix(Int(count)))
    }

    /// Draws keypoints as circles of their size with a radius along their orientation.
    mutating func drawKeypoints(_ keypoints: [OCVKeypoint], colour: Colour) throws(OcularError) {
        guard !keypoints.isEmpty else { return }
        let values = channels(of: colour)
        try withMutableMatrix { (canvas) throws(OcularError) in
            try OpenCV.call("draw keypoints") { error in
                keypoints.withUnsafeBufferPointer { points in
                    values.withUnsafeBufferPointer { ocv_draw_keypoints(canvas, points.baseAddress!, Int32(points.count), $0.baseAddress!, error) }
                }
            }
        }
    }

    /// Draws each track (its points oldest first) as a line that fades behind a dot of `radius`.
    /// - Parameters:
    ///   - tracks: The tracks, each oldest point first.
    ///   - colour: Their colour.
    ///   - radius: The dot's radius.
    /// - Throws: ``OcularError`` naming what failed and why.
    public mutating func drawTracks(_ tracks: [[Point]], colour: Colour, radius: Int) throws(OcularError) {
        let drawn = tracks.filter { !$0.isEmpty }
        guard !drawn.isEmpty else { return }
        // One flat array of coordinates (a small array per point would cost an allocation each).
        var points = [Float]()
        points.reserveCapacity(2 * drawn.reduce(0) { $0 + $1.count })
        for track in drawn {
            for point in track {
                points.append(Float(point.x))
                points.append(Float(point.y))
            }
        }
        let lengths = drawn.map { Int32(clamping: $0.count) }
        let values = channels(of: colour)
        try withMutableMatrix { (canvas) throws(OcularError) in
            try OpenCV.call("draw tracks") { error in
                points.withUnsafeBufferPointer { points in
                    lengths.withUnsafeBufferPointer { lengths in
                        values.withUnsafeBufferPointer {
                            ocv_draw_tracks(canvas, points.baseAddress!, lengths.baseAddress!, Int32(lengths.count), $0.baseAddress!, Int32(radius), error)
                        }
                    }
                }
            }
        }
    }
}

/// The contours OpenCV found in an image, kept on its side until this is released.
public final class Contours {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        ocv_contours_free(handle)
    }

    /// Each contour's area, bounding box and depth, in OpenCV's order.
    public var described: [Contour] {
        (0..<ocv_contours_count(handle)).map { index in
            var area = 0.0, bounds = OCVRectangle(), depth: Int32 = 0
            ocv_contours_describe(handle, index, &area, &bounds, &depth)
            return Contour(area: area, bounds: PixelRectangle(x: Int(bounds.x), y: Int(bounds.y), width: Int(bounds.width), height: Int(bounds.height)),
                           depth: Int(depth))
        }
    }

    /// Draws every contour on `image` (packed formats).
    /// - Parameters:
    ///   - image: The picture to draw on.
    ///   - colour: The lines' colour.
    ///   - thickness: Their thickness; −1 fills the contours.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func draw(on image: inout Image, colour: Colour, thickness: Int) throws(OcularError) {
        let values = image.channels(of: colour)
        let handle = handle
        try image.withMutableMatrix { (canvas) throws(OcularError) in
            try OpenCV.call("draw contours") { error in
                values.withUnsafeBufferPointer { ocv_contours_draw(handle, canvas, $0.baseAddress!, Int32(thickness), error) }
            }
        }
    }
}

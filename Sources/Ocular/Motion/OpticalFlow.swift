internal import OpenCVBridge
internal import OpenCVMotion

/// Motion between two frames: corners worth following, and where they went (pyramidal Lucas–Kanade,
/// checked by following each point back).
public enum OpticalFlow {
    /// Up to `maximum` corners of a gray image (Shi–Tomasi), strongest first, inside `region` (the
    /// whole image when nil): those at least `quality` times as strong as the strongest, and
    /// `minimumDistance` pixels apart.
    /// - Parameters:
    ///   - gray: The image.
    ///   - region: Where to look; nil for everywhere.
    ///   - maximum: The most corners.
    ///   - quality: The weakest kept, as a fraction of the strongest.
    ///   - minimumDistance: The least distance between corners.
    /// - Returns: The corners.
    /// - Throws: ``OcularError`` naming what failed and why.
    public static func corners(in gray: Image, within region: PixelRectangle? = nil, maximum: Int, quality: Double = 0.01,
                               minimumDistance: Double = 3) throws(OcularError) -> [Point] {
        guard gray.format == .gray8 else { throw .invalidArgument("corners are sought in gray images, not \(gray.format)") }
        let area = region ?? PixelRectangle(x: 0, y: 0, width: gray.width, height: gray.height)
        // No more corners than pixels: a huge `maximum` must not become a huge buffer.
        let (pixels, overflow) = max(0, area.width).multipliedReportingOverflow(by: max(0, area.height))
        let capacity = min(maximum, overflow ? Int.max : pixels, gray.width * gray.height)
        guard capacity > 0 else { return [] }
        var coordinates = [Float](repeating: 0, count: 2 * capacity)
        var count: Int32 = 0
        try gray.withMatrix { (view) throws(OcularError) in
            try coordinates.withUnsafeMutableBufferPointer { (points) throws(OcularError) in
                try OpenCV.call("corners(\(gray))") {
                    ocv_good_features(view, Int32(clamping: area.x), Int32(clamping: area.y), Int32(clamping: area.width),
                                      Int32(clamping: area.height), Int32(clamping: capacity), quality, minimumDistance,
                                      points.baseAddress!, &count, $0)
                }
            }
        }
        return (0..<Int(count)).map { Point(x: Double(coordinates[2 * $0]), y: Double(coordinates[2 * $0 + 1])) }
    }

    /// Where each of `points` in `previous` went in `next` (gray images of one size), or nil for a
    /// point that was lost: one not followed both ways, or whose way back ends more than
    /// `maximumRoundTrip` pixels from where it started.
    /// - Parameters:
    ///   - points: The points in `previous`.
    ///   - previous: The earlier frame, gray.
    ///   - next: The later frame, gray, the same size.
    ///   - window: The side of the square window each point is matched by.
    ///   - levels: Pyramid levels above the image (each halves it): motions up to about
    ///     `window / 2 × 2^levels` pixels are followed.
    ///   - maximumRoundTrip: How far, in pixels, a point's way back may end from where it started.
    /// - Returns: One position or nil per point.
    /// - Throws: ``OcularError`` naming what failed and why.
    public static func follow(_ points: [Point], from previous: Image, to next: Image, window: Int = 11, levels: Int = 2,
                              maximumRoundTrip: Double = 1) throws(OcularError) -> [Point?] {
        guard previous.format == .gray8, next.format == .gray8 else {
            throw .invalidArgument("optical flow follows points between gray images, not \(previous.format) and \(next.format)")
        }
        guard !points.isEmpty else { return [] }
        var start = [Float]()
        start.reserveCapacity(2 * points.count)
        for point in points {
            start.append(Float(point.x))
            start.append(Float(point.y))
        }
        var moved = [Float](repeating: 0, count: start.count)
        var found = [UInt8](repeating: 0, count: points.count)
        try previous.withMatrix { (before) throws(OcularError) in
            try next.withMatrix { (after) throws(OcularError) in
                try start.withUnsafeBufferPointer { (start) throws(OcularError) in
                    try moved.withUnsafeMutableBufferPointer { (moved) throws(OcularError) in
                        try found.withUnsafeMutableBufferPointer { (found) throws(OcularError) in
                            try OpenCV.call("optical flow(\(previous) → \(next))") {
                                ocv_follow_points(before, after, start.baseAddress!, Int32(clamping: points.count), Int32(clamping: window),
                                                  Int32(clamping: levels), maximumRoundTrip, moved.baseAddress!, found.baseAddress!, $0)
                            }
                        }
                    }
                }
            }
        }
        return points.indices.map { found[$0] == 1 ? Point(x: Double(moved[2 * $0]), y: Double(moved[2 * $0 + 1])) : nil }
    }
}

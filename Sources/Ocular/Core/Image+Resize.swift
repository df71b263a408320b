internal import OpenCVBridge

extension Image {
    /// The image shrunk so that its longer side is at most `longSide` pixels, aspect ratio kept
    /// (area interpolation, so fine detail averages instead of shimmering). An image already that
    /// small is returned as it is; YUV images come back as BGR.
    /// - Parameter longSide: The most pixels the longer side may have, at least 1.
    /// - Returns: The shrunk image, or this one when it fits already.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a side below 1.
    public func shrunk(toFit longSide: Int) throws(OcularError) -> Image {
        guard longSide >= 1 else { throw .invalidArgument("a thumbnail's long side must be at least 1 pixel, got \(longSide)") }
        let packed = try self.packed
        let longest = max(packed.width, packed.height)
        guard longest > longSide else { return packed }
        // Rounded, never below one pixel: a 10000 × 3 panorama still has a row.
        let width = max(1, (packed.width * longSide + longest / 2) / longest)
        let height = max(1, (packed.height * longSide + longest / 2) / longest)
        return try Image.filledByOpenCV(width: width, height: height, format: packed.format) { (output) throws(OcularError) in
            try packed.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("resize \(packed) to \(width)×\(height)") { ocv_resize_area(input, output, $0) }
            }
        }
    }

    /// The first frame of a video file, in BGR.
    /// - Parameter path: The video.
    /// - Throws: ``OcularError/unreadableMedia(path:reason:)`` when no backend opens the file or it
    ///   has no decodable frame.
    public init(firstFrameOfVideo path: String) throws(OcularError) {
        _ = try FileAccess.regularFileSize(path)
        var frame: OpaquePointer?
        defer { ocv_matrix_release(frame) }
        do throws(OcularError) {
            try OpenCV.call("VideoCapture(\(path))") { ocv_video_first_frame(path, &frame, $0) }
        } catch {
            throw .unreadableMedia(path: path, reason: "no frame of it can be decoded")
        }
        guard let frame else { throw .unreadableMedia(path: path, reason: "no frame of it can be decoded") }
        self = try Image(copying: ocv_matrix_view(frame))
    }
}

internal import OpenCVBridge

/// The frames of a video file, in order, each with its presentation time; then nil.
public final class VideoFileSource: CaptureSource {
    /// The video file's path.
    public let path: String

    /// Opens a video file.
    /// - Parameters:
    ///   - path: The file: anything the system's FFmpeg reads (MP4, AVI, MKV, WebM…).
    ///   - colour: Colour, or gray from the luma.
    /// - Throws: ``OcularError`` naming the file: missing, empty, unreadable, or not a video.
    public init(path: String, colour: FrameColour = .colour) throws(OcularError) {
        // Missing, a folder, unreadable, empty: the same clear errors as for images.
        let start = try FileAccess.read(path, upTo: 64)
        guard !start.isEmpty else { throw .emptyFile(path: path) }
        // FFmpeg would play a photograph as a video of one frame; to a person it is a picture.
        if let header = start.withUnsafeBytes({ ImageHeader($0) }) {
            throw .unreadableMedia(path: path, reason: "it is a \(header.container.rawValue) image, not a video")
        }
        self.path = path
        let notAVideo = OcularError.unreadableMedia(path: path, reason: "not a video any backend can open")
        try super.init(name: "video \(path)", colour: colour, fallbackFrameRate: 30) { (capture, properties) throws(OcularError) in
            do throws(OcularError) {
                try OpenCV.call("VideoCapture(\(path))") { ocv_capture_open_file(path, capture, properties, $0) }
            } catch {
                throw notAVideo
            }
            // FFmpeg opens any text as "tty" art of no size; that is not a video to the user.
            guard properties.pointee.width > 0, properties.pointee.height > 0 else {
                ocv_capture_release(capture.pointee)
                capture.pointee = nil
                throw notAVideo
            }
        }
    }

    /// A video whose frames stop before the count its container announced is damaged or cut short.
    /// One frame of slack: some containers count a frame the decoder never delivers.
    override func checkEnd() throws(OcularError) {
        if let frameCount, framesRead + 1 < frameCount {
            throw .damagedVideo(path: path, frame: framesRead, frameCount: frameCount)
        }
    }
}

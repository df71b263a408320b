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
        // FFmpeg counts a WebM's, Matroska's or MP4's frames as its duration times a nominal rate: a
        // browser recorder's WebM (25.08 frames/s) was written at 30, and a variable-rate one of 60 frames
        // was said to have 466 and refused as cut short at frame 61. Where the two counts differ, the
        // frames the walk found, over the span of the video track's own timestamps (not the clip's
        // duration, which a longer sound track stretches: a fragmented MP4's 15 frames/s read as 13.2).
        let probe = try? ClipProbe(contentsOfFile: path)
        try super.init(name: "video \(path)", colour: colour, fallbackFrameRate: 30, timing: { properties in
            guard let probe, let rate = probe.videoFrameRate, abs(Int(properties.frameCount) - probe.videoFrames) > 1 else { return nil }
            return (rate, probe.videoFrames)
        }) { (capture, properties) throws(OcularError) in
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

import Foundation
internal import OpenCVBridge

/// Writes frames to a video file through OpenCV's videoio, or Ocular's own Motion-JPEG writer.
///
/// The container follows the extension: `.mp4` holds H.264 where the system's FFmpeg can encode it
/// (MPEG-4 Part 2 otherwise), `.avi` holds Motion-JPEG: each frame compressed by libjpeg-turbo at
/// quality 80 and put in the container by FFmpeg's libavformat, where both are linked (Linux), else by
/// OpenCV's writer. Frames are written to a temporary file that
/// replaces `path` only when ``finish()`` succeeds, so a failure never leaves a half-written video.
public final class VideoWriter {
    /// Where the video ends up (it is written beside it until finished).
    public let path: String
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// The size in the file: an MP4's frames are made even in both sides, as its 4:2:0 chroma halves them,
    /// by repeating the last column or row (FFmpeg otherwise dropped it: 321×241 became 320×240, and 1×1
    /// could not be written at all); an AVI's are the frames' own.
    public let writtenWidth: Int
    /// The height in the file, made even for an MP4 as ``writtenWidth`` is.
    public let writtenHeight: Int
    /// The frame rate written into the file.
    public let framesPerSecond: Double
    /// The codec chosen, such as "avc1" or "MJPG".
    public let codec: String
    private let temporaryPath: String
    private var writer: OpaquePointer?
    /// How many frames were written so far.
    public private(set) var framesWritten = 0
    /// Whether closing wrote the container's index (false: the file is not whole).
    private var closedWhole = true

    /// Opens a video for frames of one size.
    /// - Parameters:
    ///   - path: The file to create: `.mp4` or `.avi`.
    ///   - width: Frame width in pixels.
    ///   - height: Frame height in pixels.
    ///   - framesPerSecond: Playback rate.
    /// - Throws: ``OcularError/unsupportedFileType(path:)`` for another extension,
    ///   ``OcularError/writeFailed(path:reason:)`` when no codec can write it.
    public init(path: String, width: Int, height: Int, framesPerSecond: Double) throws(OcularError) {
        let fileExtension = (path as NSString).pathExtension.lowercased()
        let codecs: [String]
        switch fileExtension {
        case "mp4": codecs = ["avc1", "mp4v"]
        case "avi": codecs = ["MJPG"]
        default: throw .unsupportedFileType(path: path)
        }
        guard width > 0, height > 0, framesPerSecond > 0 else {
            throw .invalidArgument("a video needs a positive size and frame rate, got \(width)×\(height) at \(framesPerSecond) fps")
        }
        try FileAccess.checkWritable(path)
        PartialFiles.sweepStale(besides: path)
        let temporaryPath = PartialFiles.make(for: path)
        self.temporaryPath = temporaryPath
        self.path = path
        self.width = width
        self.height = height
        let even = fileExtension == "mp4"
        let (writtenWidth, writtenHeight) = even ? (width + width % 2, height + height % 2) : (width, height)
        self.writtenWidth = writtenWidth
        self.writtenHeight = writtenHeight
        self.framesPerSecond = framesPerSecond
        var lastError = "no codec available"
        for codec in codecs {
            var opened: OpaquePointer?
            do throws(OcularError) {
                try OpenCV.call("VideoWriter(\(codec))") {
                    ocv_video_writer_open(temporaryPath, codec, framesPerSecond, Int32(writtenWidth), Int32(writtenHeight), true, &opened, $0)
                }
                self.writer = opened
                self.codec = codec
                return
            } catch {
                lastError = error.description
            }
        }
        try? FileManager.default.removeItem(atPath: temporaryPath)
        PartialFiles.finished(temporaryPath)
        throw .writeFailed(path: path, reason: lastError)
    }

    deinit {
        if let writer {
            _ = ocv_video_writer_release(writer)
            try? FileManager.default.removeItem(atPath: temporaryPath)
            PartialFiles.finished(temporaryPath)
        }
    }

    /// Appends a frame; it is converted to BGR and must have the video's size.
    /// - Parameter frame: The frame.
    /// - Throws: ``OcularError`` for a frame of another size or a failed write.
    public func write(_ frame: Image) throws(OcularError) {
        guard let writer else { throw .writeFailed(path: path, reason: "the video is already finished") }
        guard frame.width == width, frame.height == height else {
            throw .invalidArgument("a \(frame.width)×\(frame.height) frame does not fit a \(width)×\(height) video")
        }
        var bgr = try frame.converted(to: .bgr8)
        if writtenWidth != width || writtenHeight != height {
            bgr = try bgr.warped(by: try AffineMatrix(coefficients: [1, 0, 0, 0, 1, 0]), width: writtenWidth, height: writtenHeight,
                                 interpolation: .nearest, replicatingEdges: true)
        }
        try bgr.withMatrix { (matrix) throws(OcularError) in
            try OpenCV.call("VideoWriter.write") { ocv_video_writer_write(writer, matrix, $0) }
        }
        framesWritten += 1
    }

    /// Closes the file and moves it into place, replacing what was at ``path``.
    /// - Throws: ``OcularError`` when the file cannot be finished or moved.
    public func finish() throws(OcularError) {
        guard writer != nil else { return }
        let partial = close()
        defer { PartialFiles.finished(partial) }
        guard closedWhole else {
            try? FileManager.default.removeItem(atPath: partial)
            throw .writeFailed(path: path, reason: "the video's index could not be written")
        }
        do {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw .writeFailed(path: path, reason: FileAccess.reason(for: error))
        }
    }

    /// Closes the file and leaves it complete under its hidden partial name, for a caller that
    /// places it by a rule of its own (the gallery's numbered recordings). The caller removes the
    /// partial name and calls `PartialFiles.finished` with it.
    /// - Returns: The partial file's path.
    package func close() -> String {
        if let writer {
            closedWhole = ocv_video_writer_release(writer)  // writes the container's index: the file is whole now
            self.writer = nil
        }
        return temporaryPath
    }

    /// How long the frames written so far play.
    public var duration: Double { Double(framesWritten) / framesPerSecond }
}

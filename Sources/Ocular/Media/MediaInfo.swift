import Foundation
internal import OpenCVBridge

/// What `ocular info` reports about an image file.
public struct ImageFileInfo: Sendable, Equatable, Codable {
    /// The container, such as "PNG" or "JPEG".
    public var container: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Channels in the file (1 gray, 3 colour, 4 with alpha).
    public var channels: Int
    /// The pixel format Ocular reads the file as.
    public var pixelFormat: PixelFormat
    /// The file's size in bytes.
    public var fileSize: Int
}

/// What `ocular info` reports about a video file.
public struct VideoFileInfo: Sendable, Equatable, Codable {
    /// The codec's four-character code, such as "h264" or "MJPG".
    public var codec: String
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// Frames per second, as the container says.
    public var framesPerSecond: Double
    /// Frames, as the container says.
    public var frameCount: Int
    /// Seconds: frame count ÷ frame rate.
    public var duration: Double
    /// The OpenCV videoio backend that read it, such as "FFMPEG".
    public var backend: String
    /// The file's size in bytes.
    public var fileSize: Int
    /// Whether it has a sound track: known for the WebM and MP4 files whose container Ocular walks
    /// (``ClipProbe``), nil for other containers.
    public var hasAudio: Bool? = nil
    /// The sound track's codec, such as "opus" or "mp4a", when ``hasAudio`` is true.
    public var audioCodec: String? = nil
    /// The sound track's sample rate in hertz, when ``hasAudio`` is true.
    public var audioSampleRate: Double? = nil
}

/// An image or a video, as `ocular info` describes it.
public enum MediaInfo: Sendable, Equatable {
    /// A still picture.
    case image(ImageFileInfo)
    /// A video.
    case video(VideoFileInfo)

    /// Describes a media file: decoded as an image when its bytes are one, else opened as a video.
    /// - Parameters:
    ///   - path: The file.
    ///   - options: Limits for reading images.
    /// - Throws: ``OcularError`` when the file is missing, empty, or neither an image nor a readable video.
    public init(contentsOfFile path: String, options: ImageReadOptions = ImageReadOptions()) throws(OcularError) {
        self = try Self.examine(path, options: options).info
    }

    /// What ``init(contentsOfFile:options:)`` finds, with the decoded picture when the file is an
    /// image, for callers that need its pixels too (the gallery's thumbnail) without decoding twice.
    package static func examine(_ path: String, options: ImageReadOptions = ImageReadOptions()) throws(OcularError) -> (info: MediaInfo, image: Image?) {
        // The first bytes tell an image from a video; a video is never read whole.
        let start = try FileAccess.read(path, upTo: 64 << 10)
        guard !start.isEmpty else { throw .emptyFile(path: path) }
        if let header = start.withUnsafeBytes({ ImageHeader($0) }) {
            let data = try FileAccess.read(path)
            let image = try Image(decoding: data, name: path, options: options)
            let info = MediaInfo.image(ImageFileInfo(
                container: header.container.rawValue, width: image.width, height: image.height,
                channels: image.format.channels, pixelFormat: image.format, fileSize: data.count))
            return (info, image)
        }
        let fileSize = try FileAccess.regularFileSize(path)
        // A file that says it is a WebM or an MP4 is walked first, and its walk has the last word: FFmpeg
        // reads a clip cut to a fifth as whole from its header's figures (60 frames, 2 s, where 9
        // frames remain), which the studio refuses as cut short. Other EBML files (Matroska) and
        // every other container are FFmpeg's alone.
        var clip: ClipProbe?
        if ClipProbe.claimsToBeAClip(start) {
            do {
                clip = try ClipProbe(contentsOfFile: path)
            } catch .unreadableMedia(_, let reason) {
                throw .unreadableMedia(path: path, reason: "it is not a whole WebM or MP4: \(reason)")
            }
        }
        var properties = OCVVideoProperties()
        // Whether no backend opens the file or one opens it and finds no picture (FFmpeg reads any
        // text file as "tty" art), the file is the same to the user: not media Ocular reads.
        let notMedia = OcularError.unreadableMedia(path: path, reason: Self.notMediaReason)
        do throws(OcularError) {
            try OpenCV.call("VideoCapture(\(path))") { ocv_video_probe(path, &properties, $0) }
        } catch {
            throw notMedia
        }
        guard properties.width > 0, properties.height > 0 else { throw notMedia }
        let codec = OpenCV.string(fromCharacters: properties.fourcc)
        let backend = OpenCV.string(fromCharacters: properties.backend)
        let fps = properties.framesPerSecond
        let frames = Int(max(properties.frameCount, 0))
        var video = VideoFileInfo(
            codec: codec, width: Int(properties.width), height: Int(properties.height),
            framesPerSecond: fps, frameCount: frames, duration: fps > 0 ? Double(frames) / fps : 0,
            backend: backend, fileSize: fileSize)
        if let clip = clip ?? (try? ClipProbe(contentsOfFile: path)) { video.adopt(clip) }
        return (.video(video), nil)
    }

    package static let notMediaReason = "not an image or video (the contents match no image format, and no video backend finds a picture in them)"
}

extension VideoFileInfo {
    /// What the container says, where the backend's figures fall short: a recorder's WebM has no
    /// duration, so FFmpeg reports 0 frames and its millisecond timebase as the frame rate; a
    /// variable-rate one's count is its duration times a nominal rate (466 for 60 frames). The frame
    /// count, rate and duration then come from the frames' timestamps; the codec's name and the sound
    /// track always come from the container.
    mutating func adopt(_ clip: ClipProbe) {
        codec = clip.videoCodec
        hasAudio = clip.hasAudio
        audioCodec = clip.audioCodec
        audioSampleRate = clip.audioSampleRate
        let backendIsUnsure = frameCount == 0 || duration <= 0 || framesPerSecond > 240
        let countsDiffer = abs(frameCount - clip.videoFrames) > 1
        if backendIsUnsure || countsDiffer, let rate = clip.videoFrameRate, clip.duration > 0 {
            frameCount = clip.videoFrames
            duration = clip.duration
            framesPerSecond = rate
        }
    }
}

import Foundation

/// What a recorded clip's container says about it, read by walking its structure: a WebM (EBML,
/// as browsers' MediaRecorder writes it) or an MP4 (ISO base media boxes, plain or fragmented).
///
/// The walk checks that every element or box lies inside its parent and the file: a clip cut short
/// by a failed upload, or bytes that only begin like a clip, are refused with where and why. A
/// recorder's WebM leaves the segment's and clusters' sizes unknown and writes no duration; the
/// duration then comes from the blocks' timestamps.
public struct ClipProbe: Sendable, Equatable, Codable {
    /// The container formats a clip may come in.
    public enum Container: String, Sendable, Codable, CaseIterable {
        /// WebM: Matroska's subset that browsers record (VP8, VP9 or AV1 with Opus or Vorbis).
        case webm
        /// MP4: the ISO base media file format (H.264 with AAC, or what Safari records).
        case mp4
        /// Matroska beyond WebM's subset (`.mkv`: any codec FFmpeg writes there). Read like a WebM;
        /// never a recorded clip's container, so an upload that is one is refused.
        case matroska

        /// The file extension clips of this container take.
        public var fileExtension: String { self == .matroska ? "mkv" : rawValue }

        /// Its name as people write it: "WebM", "MP4", "Matroska".
        public var name: String {
            switch self {
            case .webm: "WebM"
            case .mp4: "MP4"
            case .matroska: "Matroska"
            }
        }
    }

    /// The container.
    public var container: Container
    /// The video track's codec in lower case, such as "vp8", "vp9", "av1" or "avc1".
    public var videoCodec: String
    /// The first audio track's codec in lower case ("opus", "vorbis", "mp4a"), nil when the clip is silent.
    public var audioCodec: String?
    /// Frame width in pixels, as the video track declares it.
    public var width: Int
    /// Frame height in pixels, as the video track declares it.
    public var height: Int
    /// The audio track's sample rate in hertz, nil when the clip is silent.
    public var audioSampleRate: Double?
    /// The audio track's channel count as the container declares it, nil when the clip is silent (an
    /// MP4's sample entry often says 2 whatever its AAC configuration holds).
    public var audioChannels: Int?
    /// Seconds, from the container's duration or, when it has none, from the frames' timestamps.
    public var duration: Double
    /// The video frames found (WebM blocks of the video track; MP4 samples), 0 when an MP4 does not say.
    public var videoFrames: Int
    /// Seconds the video track's own frames span (their timestamps, with the last frame's interval),
    /// 0 when not known. Not ``duration``, which a longer sound track may stretch: the frame rate is
    /// `videoFrames / videoDuration`.
    public var videoDuration: Double

    /// Whether the clip has a sound track.
    public var hasAudio: Bool { audioCodec != nil }

    /// The largest clip probed: its structure is walked in memory.
    public static let largestFile = 4 << 30

    /// Probes a file.
    /// - Parameter path: The clip.
    /// - Throws: ``OcularError/fileNotFound(path:)`` or ``OcularError/unreadableFile(path:reason:)``
    ///   when it cannot be read, ``OcularError/emptyFile(path:)``, and
    ///   ``OcularError/unreadableMedia(path:reason:)`` when it is not a whole WebM or MP4 with a video track.
    public init(contentsOfFile path: String) throws(OcularError) {
        let size = try FileAccess.regularFileSize(path)
        guard size > 0 else { throw .emptyFile(path: path) }
        guard size <= Self.largestFile else {
            throw .unreadableMedia(path: path, reason: "it holds \(size) bytes, more than the \(Self.largestFile) a clip may")
        }
        let data: Data
        do {
            // Mapped, not read: a clip is walked, never copied.
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw .unreadableFile(path: path, reason: FileAccess.reason(for: error))
        }
        try self.init(bytes: data, name: path)
    }

    /// Probes a clip's bytes.
    /// - Parameters:
    ///   - bytes: The whole clip.
    ///   - name: How errors name it.
    /// - Throws: ``OcularError/emptyFile(path:)`` and ``OcularError/unreadableMedia(path:reason:)``
    ///   when the bytes are not a whole WebM or MP4 with a video track.
    public init(bytes: Data, name: String) throws(OcularError) {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        let result: Result<ClipProbe, ClipStructureError> = bytes.withUnsafeBytes { buffer in
            switch Self.container(startingWith: buffer) {
            case .webm, .matroska: return Result { () throws(ClipStructureError) in try WebMWalk(buffer).probe() }
            case .mp4: return Result { () throws(ClipStructureError) in try MP4Walk(buffer).probe() }
            case nil: return .failure(ClipStructureError("it is neither a WebM or Matroska (EBML) nor an MP4 (ftyp) file"))
            }
        }
        switch result {
        case .success(let probe): self = probe
        case .failure(let error): throw .unreadableMedia(path: name, reason: error.reason)
        }
    }

    /// Whether a file's first bytes say it is a WebM or Matroska (EBML naming its document type) or an
    /// ISO media file (an 'ftyp' box first): its walk then decides whether it is whole.
    package static func claimsToBeAClip(_ start: Data) -> Bool {
        let bytes = [UInt8](start.prefix(64))
        switch container(startingWith: bytes) {
        case .webm, .matroska:
            return ["webm", "matroska"].contains { name in
                let type = Array(name.utf8)
                return bytes.count >= type.count && (0...(bytes.count - type.count)).contains { Array(bytes[$0..<$0 + type.count]) == type }
            }
        case .mp4: return true
        case nil: return false
        }
    }

    /// The container whose magic `bytes` begin with: EBML's (a WebM, or another Matroska: the walk
    /// tells them apart by the document type) or an 'ftyp' box.
    static func container(startingWith bytes: some Collection<UInt8>) -> Container? {
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .webm }
        if bytes.count >= 8, Array(bytes.dropFirst(4).prefix(4)) == Array("ftyp".utf8) { return .mp4 }
        return nil
    }

    init(container: Container, videoCodec: String, audioCodec: String?, width: Int, height: Int, audioSampleRate: Double?,
         audioChannels: Int?, duration: Double, videoFrames: Int, videoDuration: Double) {
        self.container = container
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.width = width
        self.height = height
        self.audioSampleRate = audioSampleRate
        self.audioChannels = audioChannels
        self.duration = duration
        self.videoFrames = videoFrames
        self.videoDuration = videoDuration
    }

    /// The video's frames a second by its own frames' timestamps; nil when the walk found neither.
    public var videoFrameRate: Double? {
        videoFrames > 0 && videoDuration > 0 ? Double(videoFrames) / videoDuration : nil
    }
}

/// Why a clip's structure is refused, in words.
struct ClipStructureError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

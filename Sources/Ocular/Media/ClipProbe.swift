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

        /// The file extension clips of this container take.
        public var fileExtension: String { rawValue }
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
            case .webm: return Result { () throws(ClipStructureError) in try WebMWalk(buffer).probe() }
            case .mp4: return Result { () throws(ClipStructureError) in try MP4Walk(buffer).probe() }
            case nil: return .failure(ClipStructureError("it is neither a WebM (EBML) nor an MP4 (ftyp) file"))
            }
        }
        switch result {
        case .success(let probe): self = probe
        case .failure(let error): throw .unreadableMedia(path: name, reason: error.reason)
        }
    }

    /// Whether a file's first bytes say it is a WebM (EBML naming the "webm" document type) or an
    /// ISO media file (an 'ftyp' box first): its walk then decides whether it is whole.
    package static func claimsToBeAClip(_ start: Data) -> Bool {
        let bytes = [UInt8](start.prefix(64))
        switch container(startingWith: bytes) {
        case .webm:
            let type = Array("webm".utf8)
            return bytes.count >= type.count && (0...(bytes.count - type.count)).contains { Array(bytes[$0..<$0 + type.count]) == type }
        case .mp4: return true
        case nil: return false
        }
    }

    /// The container whose magic `bytes` begin with: EBML's (a WebM, or another Matroska) or an 'ftyp' box.
    static func container(startingWith bytes: some Collection<UInt8>) -> Container? {
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .webm }
        if bytes.count >= 8, Array(bytes.dropFirst(4).prefix(4)) == Array("ftyp".utf8) { return .mp4 }
        return nil
    }

    init(container: Container, videoCodec: String, audioCodec: String?, width: Int, height: Int, audioSampleRate: Double?,
         audioChannels: Int?, duration: Double, videoFrames: Int) {
        self.container = container
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.width = width
        self.height = height
        self.audioSampleRate = audioSampleRate
        self.audioChannels = audioChannels
        self.duration = duration
        self.videoFrames = videoFrames
    }
}

/// Why a clip's structure is refused, in words.
struct ClipStructureError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

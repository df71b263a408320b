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

// MARK: - WebM

/// A walk over a WebM's EBML elements (RFC 8794, RFC 9559): the header, the segment's info and
/// tracks, and every cluster's blocks.
private struct WebMWalk {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    enum ID {
        static let ebml: UInt32 = 0x1A45DFA3, docType: UInt32 = 0x4282
        static let segment: UInt32 = 0x18538067, info: UInt32 = 0x1549A966, tracks: UInt32 = 0x1654AE6B, cluster: UInt32 = 0x1F43B675
        static let timestampScale: UInt32 = 0x2AD7B1, duration: UInt32 = 0x4489
        static let trackEntry: UInt32 = 0xAE, trackNumber: UInt32 = 0xD7, trackType: UInt32 = 0x83, codecID: UInt32 = 0x86
        static let video: UInt32 = 0xE0, pixelWidth: UInt32 = 0xB0, pixelHeight: UInt32 = 0xBA
        static let audio: UInt32 = 0xE1, samplingFrequency: UInt32 = 0xB5, channels: UInt32 = 0x9F
        static let timestamp: UInt32 = 0xE7, simpleBlock: UInt32 = 0xA3, blockGroup: UInt32 = 0xA0, block: UInt32 = 0xA1
        /// What a cluster of unknown size may hold: another ID ends it.
        static let clusterChildren: Set<UInt32> = [timestamp, simpleBlock, blockGroup, 0xA7, 0xAB, 0xAF, 0x5854, 0xEC, 0xBF]
    }

    /// An element's ID, where its data starts, and where it ends (nil: unknown size).
    struct Element {
        let id: UInt32
        let start: Int
        let end: Int?
    }

    struct Track {
        var number: UInt64 = 0
        var type: UInt64 = 0
        var codec = ""
        var width = 0
        var height = 0
        var sampleRate = 8000.0
        var channels = 1
    }

    /// A variable-length integer at `offset`: its length and value (the marker bit kept for IDs).
    func vint(at offset: Int, keepMarker: Bool, maxLength: Int, what: String) throws(ClipStructureError) -> (length: Int, value: UInt64, allOnes: Bool) {
        guard offset < bytes.count else { throw ClipStructureError("it ends at byte \(offset) where \(what) should begin: the file was cut short") }
        let first = bytes[offset]
        guard first != 0 else { throw ClipStructureError("byte \(offset) begins no valid \(what)") }
        let length = first.leadingZeroBitCount + 1
        guard length <= maxLength else { throw ClipStructureError("byte \(offset) begins a \(what) longer than \(maxLength) bytes") }
        guard offset + length <= bytes.count else { throw ClipStructureError("it ends inside the \(what) at byte \(offset): the file was cut short") }
        var value = UInt64(keepMarker ? first : first & (0xFF >> length))
        var allOnes = (first & (0xFF >> length)) == (0xFF >> length)
        for index in 1..<length {
            let byte = bytes[offset + index]
            value = value << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        return (length, value, allOnes)
    }

    /// The element at `offset`, inside a parent ending at `limit`.
    func element(at offset: Int, limit: Int) throws(ClipStructureError) -> Element {
        let id = try vint(at: offset, keepMarker: true, maxLength: 4, what: "element ID")
        let size = try vint(at: offset + id.length, keepMarker: false, maxLength: 8, what: "element size")
        let start = offset + id.length + size.length
        guard start <= limit else { throw ClipStructureError("the element at byte \(offset) runs past its parent: the file was cut short") }
        if size.allOnes { return Element(id: UInt32(id.value), start: start, end: nil) }
        // Sizes come from the file: checked before any sum.
        guard size.value <= UInt64(limit - start) else {
            let name = String(id.value, radix: 16, uppercase: true)
            throw ClipStructureError("element 0x\(name) at byte \(offset) declares \(size.value) bytes, but only \(limit - start) remain "
                + "\(limit == bytes.count ? "in the file: the file was cut short" : "in its parent")")
        }
        return Element(id: UInt32(id.value), start: start, end: start + Int(size.value))
    }

    /// The children of the known-size range, each passed to `body`.
    func children(from start: Int, to end: Int, _ body: (Element) throws(ClipStructureError) -> Void) throws(ClipStructureError) {
        var offset = start
        while offset < end {
            let child = try element(at: offset, limit: end)
            guard let childEnd = child.end else { throw ClipStructureError("element at byte \(offset) has an unknown size where none is allowed") }
            try body(child)
            offset = childEnd
        }
    }

    func unsigned(_ element: Element) throws(ClipStructureError) -> UInt64 {
        guard let end = element.end, end - element.start <= 8 else { throw ClipStructureError("an integer element at byte \(element.start) is longer than 8 bytes") }
        var value: UInt64 = 0
        for index in element.start..<end { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    func float(_ element: Element) throws(ClipStructureError) -> Double {
        let bits = try unsigned(element)
        switch (element.end ?? element.start) - element.start {
        case 0: return 0
        case 4: return Double(Float(bitPattern: UInt32(bits)))
        case 8: return Double(bitPattern: bits)
        default: throw ClipStructureError("a float element at byte \(element.start) is neither 4 nor 8 bytes")
        }
    }

    func string(_ element: Element) -> String {
        let raw = bytes[element.start..<(element.end ?? element.start)]
        return String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }

    func probe() throws(ClipStructureError) -> ClipProbe {
        let header = try element(at: 0, limit: bytes.count)
        guard let headerEnd = header.end else { throw ClipStructureError("its EBML header has an unknown size") }
        var docType = ""
        try children(from: header.start, to: headerEnd) { (child) throws(ClipStructureError) in
            if child.id == ID.docType { docType = string(child) }
        }
        guard docType == "webm" else {
            throw ClipStructureError(docType.isEmpty ? "its EBML header names no document type" : "it is a '\(docType.prefix(20))' file, not a WebM")
        }
        var offset = headerEnd
        while offset < bytes.count, bytes[offset] == 0xEC || bytes[offset] == 0xBF {  // Void or CRC-32 at the top
            let skipped = try element(at: offset, limit: bytes.count)
            offset = skipped.end ?? bytes.count
        }
        let segment = try element(at: offset, limit: bytes.count)
        guard segment.id == ID.segment else { throw ClipStructureError("no Segment follows the EBML header") }
        // An unknown size (a recorder's) lasts to the end of the file.
        let segmentEnd = segment.end ?? bytes.count

        var scale: UInt64 = 1_000_000
        var declaredDuration: Double?
        var tracks: [Track] = []
        var blocks: [UInt64: (count: Int, first: Int64, last: Int64)] = [:]

        offset = segment.start
        while offset < segmentEnd {
            let child = try element(at: offset, limit: segmentEnd)
            if child.id == ID.cluster {
                offset = try cluster(child, limit: segmentEnd, into: &blocks)
                continue
            }
            guard let childEnd = child.end else { throw ClipStructureError("a segment element at byte \(offset) has an unknown size") }
            switch child.id {
            case ID.info:
                try children(from: child.start, to: childEnd) { (field) throws(ClipStructureError) in
                    if field.id == ID.timestampScale { scale = try unsigned(field) }
                    if field.id == ID.duration { declaredDuration = try float(field) }
                }
            case ID.tracks:
                try children(from: child.start, to: childEnd) { (entry) throws(ClipStructureError) in
                    if entry.id == ID.trackEntry { tracks.append(try track(entry)) }
                }
            default:
                break  // SeekHead, Cues, Tags, Void…: not needed
            }
            offset = childEnd
        }

        guard scale > 0, scale <= 1_000_000_000 else { throw ClipStructureError("its timestamp scale \(scale) ns is not usable") }
        guard let video = tracks.first(where: { $0.type == 1 }) else { throw ClipStructureError("it has no video track") }
        guard let videoBlocks = blocks[video.number], videoBlocks.count > 0 else { throw ClipStructureError("its video track has no frames") }
        let audio = tracks.first { $0.type == 2 }
        let tick = Double(scale) / 1e9
        // The frames' span, plus one frame's interval: a recorder's WebM writes no duration, and a
        // written one is only a claim (a 900 s clip may say 1 s to pass a length limit), so the
        // timestamps win whenever they reach further.
        let span = (Double(videoBlocks.last) - Double(videoBlocks.first)) * tick
        let interval = videoBlocks.count > 1 ? span / Double(videoBlocks.count - 1) : 0
        let audioSpan = audio.flatMap { blocks[$0.number] }.map { (Double($0.last) - Double($0.first)) * tick } ?? 0
        let measured = max(span + interval, audioSpan)
        let duration: Double
        if let declaredDuration, declaredDuration > 0, (declaredDuration * tick).isFinite {
            duration = max(declaredDuration * tick, measured)
        } else {
            duration = measured
        }
        return ClipProbe(container: .webm, videoCodec: Self.codecName(video.codec), audioCodec: audio.map { Self.codecName($0.codec) },
                         width: video.width, height: video.height, audioSampleRate: audio?.sampleRate, audioChannels: audio?.channels,
                         duration: duration, videoFrames: videoBlocks.count)
    }

    func track(_ entry: Element) throws(ClipStructureError) -> Track {
        var track = Track()
        try children(from: entry.start, to: entry.end ?? entry.start) { (field) throws(ClipStructureError) in
            switch field.id {
            case ID.trackNumber: track.number = try unsigned(field)
            case ID.trackType: track.type = try unsigned(field)
            case ID.codecID: track.codec = string(field)
            case ID.video:
                try children(from: field.start, to: field.end ?? field.start) { (size) throws(ClipStructureError) in
                    if size.id == ID.pixelWidth { track.width = Int(clamping: try unsigned(size)) }
                    if size.id == ID.pixelHeight { track.height = Int(clamping: try unsigned(size)) }
                }
            case ID.audio:
                try children(from: field.start, to: field.end ?? field.start) { (sound) throws(ClipStructureError) in
                    if sound.id == ID.samplingFrequency { track.sampleRate = try float(sound) }
                    if sound.id == ID.channels { track.channels = Int(clamping: try unsigned(sound)) }
                }
            default: break
            }
        }
        return track
    }

    /// Walks a cluster, recording each block's track and time; returns where the cluster ends.
    func cluster(_ cluster: Element, limit: Int, into blocks: inout [UInt64: (count: Int, first: Int64, last: Int64)]) throws(ClipStructureError) -> Int {
        var base: Int64 = 0
        var offset = cluster.start
        let end = cluster.end ?? limit
        func record(_ block: Element) throws(ClipStructureError) {
            let track = try vint(at: block.start, keepMarker: false, maxLength: 8, what: "block's track number")
            let timeOffset = block.start + track.length
            guard let blockEnd = block.end, timeOffset + 3 <= blockEnd else { throw ClipStructureError("the block at byte \(block.start) is too short") }
            let relative = Int64(Int16(bitPattern: UInt16(bytes[timeOffset]) << 8 | UInt16(bytes[timeOffset + 1])))
            let time = base &+ relative
            if let seen = blocks[track.value] {
                blocks[track.value] = (seen.count + 1, min(seen.first, time), max(seen.last, time))
            } else {
                blocks[track.value] = (1, time, time)
            }
        }
        while offset < end {
            if cluster.end == nil {
                // An unknown-size cluster ends where an element that is not a cluster's child begins.
                let id = try vint(at: offset, keepMarker: true, maxLength: 4, what: "element ID")
                if !ID.clusterChildren.contains(UInt32(id.value)) { return offset }
            }
            let child = try element(at: offset, limit: end)
            guard let childEnd = child.end else { throw ClipStructureError("a cluster element at byte \(offset) has an unknown size") }
            switch child.id {
            case ID.timestamp: base = Int64(clamping: try unsigned(child))
            case ID.simpleBlock: try record(child)
            case ID.blockGroup:
                try children(from: child.start, to: childEnd) { (part) throws(ClipStructureError) in
                    if part.id == ID.block { try record(part) }
                }
            default: break
            }
            offset = childEnd
        }
        return end
    }

    /// "V_VP8" → "vp8", "A_OPUS" → "opus", "V_MPEG4/ISO/AVC" → "avc".
    static func codecName(_ id: String) -> String {
        let known = ["V_VP8": "vp8", "V_VP9": "vp9", "V_AV1": "av1", "V_MPEG4/ISO/AVC": "avc1", "A_OPUS": "opus", "A_VORBIS": "vorbis", "A_AAC": "mp4a"]
        return known[id] ?? id.lowercased()
    }
}

// MARK: - MP4

/// A walk over an MP4's boxes (ISO/IEC 14496-12): the movie's header and tracks, and for a
/// fragmented file (what Safari records) its fragments' sample durations.
private struct MP4Walk {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    struct Box {
        let type: String
        let start: Int
        let end: Int
    }

    struct Track {
        var id: UInt32 = 0
        var handler = ""
        var codec = ""
        var width = 0
        var height = 0
        var timescale: UInt32 = 0
        var duration: UInt64 = 0
        /// The sum of the sample table's durations ('stts'): what the frames really span, whatever the headers say.
        var sampleDuration: UInt64 = 0
        var samples = 0
        var sampleRate: Double?
        var channels: Int?
        var defaultSampleDuration: UInt32 = 0
        var fragmentEnd: UInt64 = 0
    }

    func u32(_ offset: Int, in box: Box) throws(ClipStructureError) -> UInt32 {
        guard offset >= box.start, offset + 4 <= box.end else { throw ClipStructureError("the '\(box.type)' box at byte \(box.start - 8) is too short") }
        return (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    /// A full box's version, its first byte.
    func version(of box: Box) throws(ClipStructureError) -> UInt8 {
        guard box.start < box.end else { throw ClipStructureError("the '\(box.type)' box at byte \(box.start - 8) is empty") }
        return bytes[box.start]
    }

    func u64(_ offset: Int, in box: Box) throws(ClipStructureError) -> UInt64 {
        UInt64(try u32(offset, in: box)) << 32 | UInt64(try u32(offset + 4, in: box))
    }

    func u16(_ offset: Int, in box: Box) throws(ClipStructureError) -> Int {
        guard offset >= box.start, offset + 2 <= box.end else { throw ClipStructureError("the '\(box.type)' box at byte \(box.start - 8) is too short") }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    func fourCC(_ offset: Int) -> String {
        String(decoding: (0..<4).map { bytes[offset + $0] }, as: UTF8.self)
    }

    /// The boxes tiling `start..<end`: each must fit, and together they must fill it.
    func boxes(from start: Int, to end: Int) throws(ClipStructureError) -> [Box] {
        var found: [Box] = []
        var offset = start
        while offset < end {
            guard end - offset >= 8 else { throw ClipStructureError("\(end - offset) stray bytes at byte \(offset): the file was cut short") }
            let declared = (0..<4).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
            let type = fourCC(offset + 4)
            var headerLength = 8
            var size = declared
            if declared == 1 {
                guard end - offset >= 16 else { throw ClipStructureError("the '\(type)' box at byte \(offset) is cut short") }
                size = (8..<16).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
                headerLength = 16
            } else if declared == 0 {
                size = UInt64(end - offset)  // to the end
            }
            guard size >= UInt64(headerLength) else { throw ClipStructureError("the '\(type)' box at byte \(offset) declares an impossible size of \(size) bytes") }
            guard size <= UInt64(end - offset) else {
                throw ClipStructureError("the '\(type)' box at byte \(offset) declares \(size) bytes, but only \(end - offset) remain"
                    + (end == bytes.count ? ": the file was cut short" : " in its parent"))
            }
            found.append(Box(type: type, start: offset + headerLength, end: offset + Int(size)))
            offset += Int(size)
        }
        return found
    }

    func child(_ type: String, of box: Box) throws(ClipStructureError) -> Box? {
        try boxes(from: box.start, to: box.end).first { $0.type == type }
    }

    func probe() throws(ClipStructureError) -> ClipProbe {
        let top = try boxes(from: 0, to: bytes.count)
        guard top.first?.type == "ftyp" else { throw ClipStructureError("it does not begin with an 'ftyp' box") }
        guard let movie = top.first(where: { $0.type == "moov" }) else { throw ClipStructureError("it has no 'moov' box: the recording was not finished") }
        guard top.contains(where: { $0.type == "mdat" }) else { throw ClipStructureError("it has no 'mdat' box: no frames") }
        var movieTimescale: UInt32 = 0
        var movieDuration: UInt64 = 0
        var tracks: [Track] = []
        for box in try boxes(from: movie.start, to: movie.end) {
            switch box.type {
            case "mvhd":
                let version = try version(of: box)
                movieTimescale = try u32(box.start + (version == 1 ? 20 : 12), in: box)
                movieDuration = version == 1 ? try u64(box.start + 24, in: box) : UInt64(try u32(box.start + 16, in: box))
            case "trak": tracks.append(try track(box))
            case "mvex":
                for extended in try boxes(from: box.start, to: box.end) where extended.type == "trex" {
                    let id = try u32(extended.start + 4, in: extended)
                    if let index = tracks.firstIndex(where: { $0.id == id }) { tracks[index].defaultSampleDuration = try u32(extended.start + 12, in: extended) }
                }
            default: break
            }
        }
        // Fragments: each track's last decode time plus its samples' durations.
        for fragment in top where fragment.type == "moof" {
            for part in try boxes(from: fragment.start, to: fragment.end) where part.type == "traf" {
                try trackFragment(part, tracks: &tracks)
            }
        }
        guard let video = tracks.first(where: { $0.handler == "vide" }) else { throw ClipStructureError("it has no video track") }
        let audio = tracks.first { $0.handler == "soun" }
        var duration = movieTimescale > 0 ? Double(movieDuration) / Double(movieTimescale) : 0
        for track in tracks where track.timescale > 0 {
            duration = max(duration, Double(max(track.duration, track.fragmentEnd, track.sampleDuration)) / Double(track.timescale))
        }
        return ClipProbe(container: .mp4, videoCodec: video.codec.lowercased(), audioCodec: audio.map { $0.codec.lowercased() },
                         width: video.width, height: video.height, audioSampleRate: audio?.sampleRate, audioChannels: audio?.channels,
                         duration: duration, videoFrames: video.samples)
    }

    func track(_ trak: Box) throws(ClipStructureError) -> Track {
        var track = Track()
        if let header = try child("tkhd", of: trak) {
            let version = try version(of: header)
            track.id = try u32(header.start + (version == 1 ? 20 : 12), in: header)
            track.width = Int(try u32(header.start + (version == 1 ? 88 : 76), in: header) >> 16)
            track.height = Int(try u32(header.start + (version == 1 ? 92 : 80), in: header) >> 16)
        }
        guard let media = try child("mdia", of: trak) else { return track }
        if let mediaHeader = try child("mdhd", of: media) {
            let version = try version(of: mediaHeader)
            track.timescale = try u32(mediaHeader.start + (version == 1 ? 20 : 12), in: mediaHeader)
            track.duration = version == 1 ? try u64(mediaHeader.start + 24, in: mediaHeader) : UInt64(try u32(mediaHeader.start + 16, in: mediaHeader))
        }
        if let handler = try child("hdlr", of: media) {
            _ = try u32(handler.start + 8, in: handler)
            track.handler = fourCC(handler.start + 8)
        }
        guard let information = try child("minf", of: media), let table = try child("stbl", of: information) else { return track }
        if let descriptions = try child("stsd", of: table) {
            let entries = try boxes(from: descriptions.start + 8, to: descriptions.end)
            if let entry = entries.first {
                track.codec = entry.type
                if track.handler == "vide", track.width == 0 {
                    track.width = try u16(entry.start + 24, in: entry)
                    track.height = try u16(entry.start + 26, in: entry)
                }
                if track.handler == "soun" {
                    track.channels = try u16(entry.start + 16, in: entry)
                    track.sampleRate = Double(try u32(entry.start + 24, in: entry) >> 16)
                }
            }
        }
        if let sizes = try child("stsz", of: table) { track.samples = Int(try u32(sizes.start + 8, in: sizes)) }
        if let times = try child("stts", of: table) { track.sampleDuration = try sampleDuration(times) }
        return track
    }

    /// The total of a time-to-sample table: entries of (sample count, sample duration).
    func sampleDuration(_ stts: Box) throws(ClipStructureError) -> UInt64 {
        let entries = Int(try u32(stts.start + 4, in: stts))
        guard entries <= (stts.end - stts.start - 8) / 8 else {
            throw ClipStructureError("the 'stts' box at byte \(stts.start - 8) lists \(entries) entries, more than it holds")
        }
        var total: UInt64 = 0
        for entry in 0..<entries {
            let offset = stts.start + 8 + entry * 8
            let (span, overflow) = UInt64(try u32(offset, in: stts)).multipliedReportingOverflow(by: UInt64(try u32(offset + 4, in: stts)))
            let (sum, overflowed) = total.addingReportingOverflow(span)
            guard !overflow, !overflowed else { throw ClipStructureError("the 'stts' box at byte \(stts.start - 8) adds up to more time than can be counted") }
            total = sum
        }
        return total
    }

    func trackFragment(_ traf: Box, tracks: inout [Track]) throws(ClipStructureError) {
        var index: Int?
        var defaultDuration: UInt32?
        var decodeTime: UInt64 = 0
        for part in try boxes(from: traf.start, to: traf.end) {
            switch part.type {
            case "tfhd":
                let flags = try u32(part.start, in: part) & 0xFFFFFF
                let id = try u32(part.start + 4, in: part)
                index = tracks.firstIndex { $0.id == id }
                var offset = part.start + 8
                if flags & 0x01 != 0 { offset += 8 }
                if flags & 0x02 != 0 { offset += 4 }
                if flags & 0x08 != 0 { defaultDuration = try u32(offset, in: part) }
            case "tfdt":
                decodeTime = try version(of: part) == 1 ? try u64(part.start + 4, in: part) : UInt64(try u32(part.start + 4, in: part))
            case "trun":
                guard let index else { continue }
                let flags = try u32(part.start, in: part) & 0xFFFFFF
                let count = Int(try u32(part.start + 4, in: part))
                var offset = part.start + 8
                if flags & 0x01 != 0 { offset += 4 }
                if flags & 0x04 != 0 { offset += 4 }
                let fieldCount = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count
                let total: UInt64
                if fieldCount == 0 {
                    // Every sample takes the default duration: no per-sample fields to walk.
                    let (product, overflow) = UInt64(count).multipliedReportingOverflow(by: UInt64(defaultDuration ?? tracks[index].defaultSampleDuration))
                    guard !overflow else { throw ClipStructureError("a 'trun' box's samples last longer than any clip") }
                    total = product
                } else {
                    guard count <= (part.end - offset) / (fieldCount * 4) else {
                        throw ClipStructureError("a 'trun' box declares \(count) samples, more than it holds")
                    }
                    var sum: UInt64 = 0
                    let fallback = UInt64(defaultDuration ?? tracks[index].defaultSampleDuration)
                    for _ in 0..<count {
                        sum += flags & 0x100 != 0 ? UInt64(try u32(offset, in: part)) : fallback
                        offset += fieldCount * 4
                    }
                    total = sum
                }
                let (end, overflow) = decodeTime.addingReportingOverflow(total)
                guard !overflow else { throw ClipStructureError("a fragment's decode time is beyond any clip") }
                decodeTime = end
                tracks[index].samples += count
                tracks[index].fragmentEnd = max(tracks[index].fragmentEnd, decodeTime)
            default: break
            }
        }
    }
}

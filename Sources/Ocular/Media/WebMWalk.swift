import Foundation

/// A walk over a WebM's or another Matroska file's EBML elements (RFC 8794, RFC 9559): the header,
/// the segment's info and tracks, and every cluster's blocks.
struct WebMWalk {
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
        let container: ClipProbe.Container
        switch docType {
        case "webm": container = .webm
        case "matroska": container = .matroska
        case "": throw ClipStructureError("its EBML header names no document type")
        default: throw ClipStructureError("it is a '\(docType.prefix(20))' file, not a WebM or Matroska")
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
        return ClipProbe(container: container, videoCodec: Self.codecName(video.codec), audioCodec: audio.map { Self.codecName($0.codec) },
                         width: video.width, height: video.height, audioSampleRate: audio?.sampleRate, audioChannels: audio?.channels,
                         duration: duration, videoFrames: videoBlocks.count, videoDuration: span + interval)
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

import Foundation

/// A walk over an MP4's boxes (ISO/IEC 14496-12): the movie's header and tracks, and for a
/// fragmented file (what Safari records) its fragments' sample durations.
struct MP4Walk {
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
        // The video's own span: its samples' durations (the sample table's, or its fragments'), else its
        // track header's; the movie's duration may be the longer sound track's.
        let sampled = max(video.sampleDuration, video.fragmentEnd)
        let videoTicks = sampled > 0 ? sampled : video.duration
        let videoDuration = video.timescale > 0 ? Double(videoTicks) / Double(video.timescale) : 0
        return ClipProbe(container: .mp4, videoCodec: video.codec.lowercased(), audioCodec: audio.map { $0.codec.lowercased() },
                         width: video.width, height: video.height, audioSampleRate: audio?.sampleRate, audioChannels: audio?.channels,
                         duration: duration, videoFrames: video.samples, videoDuration: videoDuration)
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

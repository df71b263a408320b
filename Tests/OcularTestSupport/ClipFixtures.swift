import Foundation

/// Short clips in `Tests/Fixtures/clips` (see its README): a WebM as Chromium's MediaRecorder writes
/// it (sizes unknown, no duration), WebM and MP4 files FFmpeg wrote, and a fragmented MP4 as Safari
/// records.
public enum ClipFixtures {
    public static let folder: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/clips").path

    /// The path of one fixture, such as `chrome-vp8-opus.webm`.
    public static func path(_ name: String) -> String { folder + "/" + name }

    /// The bytes of one fixture.
    public static func bytes(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(name)))
    }

    /// Every clip's name, sorted.
    public static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".md") }.sorted()
    }

    /// Where a WebM's 8-byte Duration float (element 0x4489, size 0x88) begins.
    public static func durationOffset(_ bytes: [UInt8]) -> Int? {
        (0..<(bytes.count - 11)).first { bytes[$0] == 0x44 && bytes[$0 + 1] == 0x89 && bytes[$0 + 2] == 0x88 }.map { $0 + 3 }
    }

    /// A WebM whose Duration element says `ticks` (milliseconds at the default scale), whatever its frames span.
    public static func webM(_ bytes: [UInt8], declaring ticks: Double) -> [UInt8]? {
        guard let offset = durationOffset(bytes) else { return nil }
        var forged = bytes
        let bits = ticks.bitPattern
        for index in 0..<8 { forged[offset + index] = UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64(index))) }
        return forged
    }

    /// An MP4 whose movie header and every track's media header (version 0) say `ticks` long.
    public static func mp4(_ bytes: [UInt8], declaring ticks: UInt32) -> [UInt8] {
        var forged = bytes
        for box in ["mvhd", "mdhd"].map({ Array($0.utf8) }) {
            for offset in 4..<(bytes.count - 24) where Array(bytes[offset..<offset + 4]) == box && bytes[offset + 4] == 0 {
                // version and flags (4), creation and modification times (8), timescale (4), then the duration
                for index in 0..<4 { forged[offset + 4 + 16 + index] = UInt8(truncatingIfNeeded: ticks >> (24 - 8 * UInt32(index))) }
            }
        }
        return forged
    }

    /// A WebM of `seconds` one-frame-a-second gray frames, 64×48, made by FFmpeg in `folder`.
    public static func longWebM(seconds: Int, in folder: String) throws -> String {
        let path = folder + "/long-\(seconds).webm"
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=64x48:r=1", "-t", String(seconds),
                            "-c:v", "libvpx", "-b:v", "20k", path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        guard ffmpeg.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        return path
    }
}

/// Videos that are not recorded clips (`Tests/Fixtures/videos`): odd files the video commands must refuse by name.
public enum VideoFixtures {
    public static let folder: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/videos").path

    /// The path of one fixture, such as `ffmpeg-sound-only.avi`.
    public static func path(_ name: String) -> String { folder + "/" + name }
}

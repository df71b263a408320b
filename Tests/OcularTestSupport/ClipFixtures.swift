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
}

import Foundation
import OcularTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The studio's FFmpeg ends with it: stopped (SIGTERM, SIGINT) or killed (SIGKILL) while an MP4 is
/// being made, no FFmpeg goes on encoding; started again, the studio removes what was left half
/// written and makes the MP4 the clip never got. (FFmpeg used to run on for 30–45 s after the
/// studio, and the clip never got its MP4.)
@Suite("The studio's children end with it")
struct StudioChildrenCLITests {
    @Test("stopped or killed mid-conversion, the studio leaves no FFmpeg running; restarted, it makes the missing MP4s", arguments: [SIGTERM, SIGINT, SIGKILL])
    func conversionEndsWithTheStudio(signal: Int32) async throws {
        let folder = try Folder()
        let gallery = folder.file("gallery")
        let standIn = try StandInFFmpeg(in: folder.file("bin"))
        let path = standIn.folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let studio = try RunningStudio(gallery: gallery, environment: ["PATH": path])
        let id = try studio.uploadClip(ClipFixtures.path("chrome-vp8-opus.webm"), type: "video/webm")
        let pid = try #require(try await standIn.waitForStart().first, "the conversion never started")
        studio.end(with: signal)
        #expect(try await StandInFFmpeg.waitForEnd(pid), "FFmpeg outlived the studio (signal \(signal))")

        // Started again with the real FFmpeg: the clip gets its MP4, and nothing half-written remains.
        let restarted = try RunningStudio(gallery: gallery)
        var alternate: String?
        for _ in 0..<400 where alternate == nil {
            try await Task.sleep(for: .milliseconds(50))
            let answer = try restarted.request([try restarted.address + "/api/gallery/\(id)/alternate", "-o", "/dev/null"])
            if answer.status == 200 { alternate = "served" }
        }
        restarted.end(with: SIGTERM)
        #expect(alternate != nil, "the clip left unconverted got no MP4 after the restart")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: gallery + "/videos").filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "partial files left: \(hidden)")
        let check = try ocular("gallery", "check", "--gallery", gallery)
        #expect(check.status == 0, "\(check.output) \(check.errors)")
    }
}

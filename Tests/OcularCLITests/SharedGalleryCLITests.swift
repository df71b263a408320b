import Foundation
import OcularTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two Ocular programs on one gallery, its most ordinary use: the studio running and the CLI beside
/// it, each saving, listing, deleting and checking, then the studio killed (SIGKILL) or stopped
/// (SIGINT). Every item either side was told about must be there, for both, and `gallery check`
/// must find nothing wrong, after every step.
///
/// The studio once dropped SQLite's locks by reading its database's header with a descriptor of its
/// own: the CLI then took the database for unused and deleted its write-ahead log on exit, and the
/// studio's later saves went, acknowledged, into a log nobody else could read.
@Suite("Two programs on one gallery")
struct SharedGalleryCLITests {
    struct Listed: Decodable { var id: Int64 }

    static func cliIDs(_ gallery: String) throws -> Set<Int64> {
        Set(try GalleryCLITests.list(gallery).map(\.id))
    }

    static func expectClean(_ gallery: String, _ moment: String) throws {
        let check = try ocular("gallery", "check", "--gallery", gallery)
        #expect(check.status == 0 && check.output.hasSuffix("no problems\n"), "\(moment): \(check.output) \(check.errors)")
    }

    @Test("studio and CLI save, list, delete and check on one gallery; studio killed, then stopped: nothing acknowledged is lost")
    func studioAndCommandLineTogether() throws {
        let folder = try Folder()
        let gallery = folder.file("gallery")
        var acknowledged: Set<Int64> = []
        let clips = [(ClipFixtures.path("ffmpeg-h264-aac.mp4"), "video/mp4"), (ClipFixtures.path("ffmpeg-vp8-silent.webm"), "video/webm")]
        for ending in [SIGKILL, SIGINT] {
            let studio = try RunningStudio(gallery: gallery)
            for round in 0..<3 {
                let moment = "signal \(ending), round \(round)"
                let clip = clips[round % clips.count]
                let fromStudio = try studio.uploadClip(clip.0, type: clip.1)
                #expect(!acknowledged.contains(fromStudio), "\(moment): id \(fromStudio) given twice")
                acknowledged.insert(fromStudio)

                let added = try ocular("gallery", "add", dataRoot + "/images/coffee.png", "--gallery", gallery)
                let fromCLI = try #require(added.output.firstMatch(of: /added item ([0-9]+):/).flatMap { Int64($0.1) }, "\(added.errors)")
                #expect(!acknowledged.contains(fromCLI), "\(moment): id \(fromCLI) given twice")
                acknowledged.insert(fromCLI)

                #expect(try Self.cliIDs(gallery) == acknowledged, "\(moment)")
                #expect(try studio.ids() == acknowledged, "\(moment)")
                #expect(FileManager.default.fileExists(atPath: gallery + "/gallery.sqlite-wal"), "\(moment): the studio's log was removed under it")

                if round == 1 {
                    // Each side deletes what the other saved.
                    #expect(try ocular("gallery", "delete", String(fromStudio), "--gallery", gallery).status == 0)
                    try studio.delete(fromCLI)
                    acknowledged.subtract([fromStudio, fromCLI])
                    #expect(try studio.ids() == acknowledged, "\(moment)")
                    #expect(try Self.cliIDs(gallery) == acknowledged, "\(moment)")
                }
                try Self.expectClean(gallery, moment)
            }
            studio.end(with: ending)
            #expect(try Self.cliIDs(gallery) == acknowledged, "after signal \(ending)")
            try Self.expectClean(gallery, "after signal \(ending)")
        }
        #expect(acknowledged.count == 8)
    }
}

/// The gallery's HTTP API, as the test drives it with curl.
extension RunningStudio {
    /// Uploads a clip as a recording; returns the id the studio acknowledged.
    func uploadClip(_ path: String, type: String) throws -> Int64 {
        let answer = try request(["-X", "POST", "-H", "Content-Type: \(type)", "--data-binary", "@" + path,
                                  try address + "/api/gallery/clips?page=lightWork"])
        #expect(answer.status == 201, "\(answer.body)")
        let item = try JSONDecoder().decode(SharedGalleryCLITests.Listed.self, from: Data(answer.body.utf8))
        return item.id
    }

    /// The ids the studio's API lists.
    func ids() throws -> Set<Int64> {
        let answer = try request([try address + "/api/gallery?limit=200"])
        #expect(answer.status == 200, "\(answer.body)")
        struct Page: Decodable { var items: [SharedGalleryCLITests.Listed]; var total: Int }
        let page = try JSONDecoder().decode(Page.self, from: Data(answer.body.utf8))
        #expect(page.total == page.items.count)
        return Set(page.items.map(\.id))
    }

    func delete(_ id: Int64) throws {
        let answer = try request(["-X", "DELETE", try address + "/api/gallery/\(id)"])
        #expect(answer.status == 200, "\(answer.body)")
    }
}

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
    /// A studio serving `gallery` on a free loopback port until `end(with:)`.
    final class RunningStudio {
        let process = Process()
        let address: String

        init(gallery: String, environment: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: ocularExecutable)
            if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            process.arguments = ["studio", "--port", "0", "--gallery", gallery]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var printed = ""
            while !printed.contains("running at"), process.isRunning {
                printed += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            }
            let found = try #require(printed.firstMatch(of: /running at (http:\/\/127\.0\.0\.1:[0-9]+)\//), "\(printed)")
            address = String(found.1)
        }

        /// Sends `signal` and waits for the process to end.
        func end(with signal: Int32) {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
        }

        deinit {
            if process.isRunning { end(with: SIGKILL) }
        }

        /// curl's answer: the status, then the body.
        func request(_ arguments: [String]) throws -> (status: Int, body: String) {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = ["-s", "-H", "Expect:", "-w", "\n%{http_code}"] + arguments
            let output = Pipe()
            curl.standardOutput = output
            try curl.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            curl.waitUntilExit()
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }

        /// Uploads a clip as a recording; returns the id the studio acknowledged.
        func uploadClip(_ path: String, type: String) throws -> Int64 {
            let answer = try request(["-X", "POST", "-H", "Content-Type: \(type)", "--data-binary", "@" + path,
                                      address + "/api/gallery/clips?page=lightwork"])
            #expect(answer.status == 201, "\(answer.body)")
            let item = try JSONDecoder().decode(Listed.self, from: Data(answer.body.utf8))
            return item.id
        }

        /// The ids the studio's API lists.
        func ids() throws -> Set<Int64> {
            let answer = try request([address + "/api/gallery?limit=200"])
            #expect(answer.status == 200, "\(answer.body)")
            struct Page: Decodable { var items: [Listed]; var total: Int }
            let page = try JSONDecoder().decode(Page.self, from: Data(answer.body.utf8))
            #expect(page.total == page.items.count)
            return Set(page.items.map(\.id))
        }

        func delete(_ id: Int64) throws {
            let answer = try request(["-X", "DELETE", address + "/api/gallery/\(id)"])
            #expect(answer.status == 200, "\(answer.body)")
        }
    }

    struct Listed: Decodable { var id: Int64 }

    static func cliIDs(_ gallery: String) throws -> Set<Int64> {
        Set(try GalleryCLITests.list(gallery).map(\.id))
    }

    static func expectClean(_ gallery: String, _ moment: String) throws {
        let check = try ocular("gallery", "check", "--gallery", gallery)
        #expect(check.status == 0 && check.output.hasSuffix("no problems\n"), "\(moment): \(check.output) \(check.errors)")
    }

    @Test("studio and CLI save, list, delete and check on one gallery; studio killed, then stopped: nothing acknowledged is lost")
    func studioAndCommandLineTogether() async throws {
        try await HeavyWork.runWaiting { try together() }
    }

    func together() throws {
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

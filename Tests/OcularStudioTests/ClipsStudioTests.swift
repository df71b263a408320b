import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Ocular
import OcularGallery
import OcularTestSupport
import Testing
@testable import OcularStudio

/// `POST /api/gallery/clips`: recorded clips become video items only when they are whole; every
/// refusal leaves the gallery as it was (no row, no file, no thumbnail, no partial file).
@Suite("Ocular Studio's recorded clips", .timeLimit(.minutes(1)), .serialized)
struct ClipsStudioTests {
    final class Folder: Sendable {
        let path = NSTemporaryDirectory() + "ocular-clips-" + UUID().uuidString
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// Every file under the folder but the database's, hidden ones included.
        var files: [String] {
            let found = FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
            return found.filter { !$0.hasPrefix("gallery.sqlite") && !["photos", "videos", "thumbnails"].contains($0) }.sorted()
        }
    }

    static let gray = #"{"stages":[{"stage":"gray"}]}"#

    static func application(_ folder: Folder, _ change: (inout StudioConfiguration) -> Void = { _ in }) throws -> some ApplicationProtocol {
        var configuration = StudioConfiguration(port: 0, galleryFolder: folder.path)
        configuration.ffmpegPath = ""  // conversions are tried in their own test
        change(&configuration)
        return try Studio.makeApplication(configuration: configuration, gallery: try Gallery(folder: folder.path))
    }

    static func uri(recipe: String = gray) -> String {
        "/api/gallery/clips?page=lightWork&recipe=" + (recipe.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    @Test("a browser's WebM becomes video item 0.webm with its recipe, 1.5 s, sound, a thumbnail of its first frame; it is served")
    func upload() async throws {
        let folder = Folder()
        let clip = try ClipFixtures.bytes("chrome-vp8-opus.webm")
        try await Self.application(folder).test(.router) { client in
            let created = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm;codecs=vp8,opus"],
                                                   body: ByteBuffer(bytes: clip))
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let item = try JSON(parsing: created.body)
            #expect(item["kind"] == "video")
            #expect(item["fileName"] == "0.webm")
            #expect(item["hasAudio"] == true)
            #expect(abs((item["duration"].double ?? 0) - 1.5) < 0.1)
            #expect(item["width"] == 320 && item["height"] == 240)
            #expect(item["source"] == "studio lightWork recording")
            #expect(item["recipe"]["stages"][0]["stage"] == "gray")
            #expect(item["byteCount"].int == clip.count)
            let served = try await client.execute(uri: "/api/gallery/\(item["id"].int ?? 0)", method: .get)
            #expect(served.headers[.contentType] == "video/webm")
            #expect(Data(buffer: served.body) == clip)
            let thumbnail = try await client.execute(uri: "/api/gallery/\(item["id"].int ?? 0)/thumbnail", method: .get)
            let picture = try Image(decoding: Data(buffer: thumbnail.body))
            #expect(picture.width == 256 && picture.height == 192)
            let missing = try await client.execute(uri: "/api/gallery/\(item["id"].int ?? 0)/alternate", method: .get)
            #expect(missing.status == .notFound)
        }
        let gallery = try Gallery(folder: folder.path)
        #expect(try gallery.count() == 1)
        #expect(folder.files == ["thumbnails/0.jpg", "videos/0.webm"])
        // The next clip takes the next number, whatever its container.
        try await Self.application(folder).test(.router) { client in
            let second = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/mp4"],
                                                  body: ByteBuffer(bytes: try ClipFixtures.bytes("fragmented-h264-aac.mp4")))
            #expect(second.status == .created, "\(String(buffer: second.body))")
            #expect(try JSON(parsing: second.body)["fileName"] == "1.mp4")
        }
    }

    @Test("damaged and foreign clips are answered 4xx with the reason, and leave nothing behind")
    func refusals() async throws {
        let folder = Folder()
        let clip = try ClipFixtures.bytes("chrome-vp8-opus.webm")
        let cases: [(String, HTTPFields, Data, HTTPResponse.Status, String)] = [
            ("cut short", [.contentType: "video/webm"], clip.prefix(clip.count - 700), .unprocessableContent, "cut short"),
            ("text", [.contentType: "video/webm"], Data("not a video at all".utf8), .unprocessableContent, "neither a WebM"),
            ("a picture typed as a clip", [.contentType: "video/webm"], try Data(contentsOf: URL(fileURLWithPath: dataRoot + "/images/coffee.png")),
             .unprocessableContent, "neither a WebM"),
            ("an MP4 sent as WebM", [.contentType: "video/webm"], try ClipFixtures.bytes("ffmpeg-h264-aac.mp4"), .unprocessableContent, "is an MP4"),
            ("a form's type", [.contentType: "text/plain"], clip, .unsupportedMediaType, "video/webm or video/mp4"),
            ("no type", [:], clip, .unsupportedMediaType, "video/webm or video/mp4"),
            ("empty", [.contentType: "video/webm"], Data(), .badRequest, "no body"),
        ]
        try await Self.application(folder).test(.router) { client in
            for (name, headers, body, status, reason) in cases {
                let answer = try await client.execute(uri: Self.uri(), method: .post, headers: headers, body: ByteBuffer(bytes: body))
                #expect(answer.status == status, "\(name): \(answer.status) \(String(buffer: answer.body))")
                #expect((try JSON(parsing: answer.body)["error"].text ?? "").contains(reason), "\(name): \(String(buffer: answer.body))")
            }
            // A whole container whose first frame is damaged: its VP8 key frame's start code wiped.
            var damaged = [UInt8](clip)
            let startCode = try #require((0..<(damaged.count - 3)).first { damaged[$0] == 0x9D && damaged[$0 + 1] == 0x01 && damaged[$0 + 2] == 0x2A })
            damaged.replaceSubrange(startCode..<(startCode + 3), with: [0, 0, 0])
            let answer = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"], body: ByteBuffer(bytes: damaged))
            #expect(answer.status == .unprocessableContent && String(buffer: answer.body).contains("first frame does not decode"),
                    "\(String(buffer: answer.body))")
            let recipe = try await client.execute(uri: Self.uri(recipe: #"{"stages":[{"stage":"noSuchStage"}]}"#), method: .post,
                                                  headers: [.contentType: "video/webm"], body: ByteBuffer(bytes: clip))
            #expect(recipe.status == .badRequest && String(buffer: recipe.body).contains("noSuchStage"), "\(String(buffer: recipe.body))")
        }
        #expect(try Gallery(folder: folder.path).count() == 0)
        #expect(folder.files.isEmpty, "left behind: \(folder.files)")
    }

    @Test("the size limit: a body crossing it is refused as it streams; a clip longer than the length limit and its slack is refused")
    func limits() async throws {
        let folder = Folder()
        let clip = try ClipFixtures.bytes("chrome-vp8-opus.webm")
        try await Self.application(folder, { $0.maxClipBytes = 20_000; $0.maxRecordingSeconds = 1 }).test(.router) { client in
            let crossing = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"], body: ByteBuffer(bytes: clip))
            #expect(crossing.status == .contentTooLarge && String(buffer: crossing.body).contains("limit of 20000 bytes"), "\(String(buffer: crossing.body))")
        }
        try await Self.application(folder, { $0.maxRecordingSeconds = 0.5 }).test(.router) { client in
            // ffmpeg's 1 s clip is within 0.5 s and the slack; make the slack matter with a stricter look:
            let fine = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"],
                                                body: ByteBuffer(bytes: try ClipFixtures.bytes("ffmpeg-vp8-silent.webm")))
            #expect(fine.status == .created, "within the limit and its slack: \(String(buffer: fine.body))")
            #expect(try JSON(parsing: fine.body)["hasAudio"] == false)
        }
        #expect(try Gallery(folder: folder.path).count() == 1)
        #expect(folder.files == ["thumbnails/0.jpg", "videos/0.webm"], "\(folder.files)")
        // Longer than the limit by more than the slack: a forged Duration of 12 s in FFmpeg's clip.
        var long = [UInt8](try ClipFixtures.bytes("ffmpeg-vp8-silent.webm"))
        let duration = try #require(Self.durationOffset(long))
        let bits = Double(12_000).bitPattern  // ms, at the default 1 ms scale
        for index in 0..<8 { long[duration + index] = UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64(index))) }
        let forged = long
        try await Self.application(folder, { $0.maxRecordingSeconds = 1 }).test(.router) { client in
            let answer = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"], body: ByteBuffer(bytes: forged))
            #expect(answer.status == .contentTooLarge && String(buffer: answer.body).contains("lasts 12.0 s"), "\(String(buffer: answer.body))")
        }
        #expect(try Gallery(folder: folder.path).count() == 1)
    }

    static func durationOffset(_ bytes: [UInt8]) -> Int? { ClipFixtures.durationOffset(bytes) }

    @Test("a 30 s clip whose Duration claims 1 s is measured by its frames' timestamps and refused over the limit")
    func lyingDuration() async throws {
        let folder = Folder()
        let scratch = NSTemporaryDirectory() + "ocular-long-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let long = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try ClipFixtures.longWebM(seconds: 30, in: scratch))))
        let forged = try #require(ClipFixtures.webM(long, declaring: 1_000))
        try await Self.application(folder, { $0.maxRecordingSeconds = 1 }).test(.router) { client in
            let answer = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"], body: ByteBuffer(bytes: forged))
            #expect(answer.status == .contentTooLarge && String(buffer: answer.body).contains("lasts 30.0 s"), "\(String(buffer: answer.body))")
        }
        #expect(folder.files.isEmpty, "\(folder.files)")
    }

    @Test("an upload under way holds its announced size against the quota: a second one that would cross it is refused before a byte is written")
    func uploadsReserveTheirSize() async throws {
        let folder = Folder()
        let clip = [UInt8](try ClipFixtures.bytes("chrome-vp8-opus.webm"))
        let head = "POST \(Self.uri()) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: video/webm\r\nContent-Length: \(clip.count)\r\nConnection: close\r\n\r\n"
        // Room for one clip and a half: two fit only if one of them is not counted.
        try await Self.application(folder, { $0.galleryQuotaBytes = Int64(clip.count * 3 / 2) }).test(.live) { client in
            let port = try #require(client.port)
            let first = try RawConnection.Held(port: port, sending: Array(head.utf8) + clip.prefix(clip.count / 2))
            // The first upload is being written once its partial file is there.
            for _ in 0..<500 where !folder.files.contains(where: { $0.contains(".partial.") }) { try await Task.sleep(for: .milliseconds(10)) }
            #expect(folder.files.contains { $0.contains(".partial.") }, "\(folder.files)")
            let second = try await RawConnection.exchange(port: port, sending: Array(head.utf8) + clip, waitingAtMost: 10)
            #expect(second.response.hasPrefix("HTTP/1.1 507") && second.response.contains("the gallery is full"), "\(second.response.prefix(300))")
            #expect(folder.files.filter { $0.contains(".partial.") }.count == 1, "\(folder.files)")
            let finished = try await first.finish(sending: Array(clip.suffix(from: clip.count / 2)), waitingAtMost: 10)
            #expect(finished.response.hasPrefix("HTTP/1.1 201"), "\(finished.response.prefix(300))")
        }
        #expect(try Gallery(folder: folder.path).count() == 1)
        #expect(folder.files == ["thumbnails/0.jpg", "videos/0.webm"], "\(folder.files)")
    }

    @Test("a clip over the gallery's quota is answered 507; nothing is left")
    func quota() async throws {
        let folder = Folder()
        try await Self.application(folder, { $0.galleryQuotaBytes = 20_000 }).test(.router) { client in
            let answer = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"],
                                                  body: ByteBuffer(bytes: try ClipFixtures.bytes("chrome-vp8-opus.webm")))
            #expect(answer.status.code == 507, "\(String(buffer: answer.body))")
            #expect(String(buffer: answer.body).contains("the gallery is full"), "\(String(buffer: answer.body))")
        }
        #expect(folder.files.isEmpty, "\(folder.files)")
    }

    @Test("another site's page cannot post a clip (403); nor can a request with a foreign Host")
    func crossSite() async throws {
        let folder = Folder()
        try await Self.application(folder).test(.router) { client in
            let clip = ByteBuffer(bytes: try ClipFixtures.bytes("chrome-vp8-opus.webm"))
            let foreign = try await client.execute(uri: Self.uri(), method: .post,
                                                   headers: [.contentType: "video/webm", .origin: "https://evil.example"], body: clip)
            #expect(foreign.status == .forbidden)
        }
        #expect(folder.files.isEmpty)
    }

    @Test("with FFmpeg, a WebM gets an MP4 beside it (H.264 and AAC, the same length), served at alternateURL; deleting removes both")
    func conversion() async throws {
        let folder = Folder()
        let ffmpeg = try #require(["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "FFmpeg is installed by scripts/setup.sh test")
        try await Self.application(folder, { $0.ffmpegPath = ffmpeg }).test(.router) { client in
            let created = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"],
                                                   body: ByteBuffer(bytes: try ClipFixtures.bytes("chrome-vp8-opus.webm")))
            let id = try #require(try JSON(parsing: created.body)["id"].int)
            var item: JSON = [:]
            for _ in 0..<200 where item["alternateURL"] == .null {
                try await Task.sleep(for: .milliseconds(50))
                let listed = try await client.execute(uri: "/api/gallery", method: .get)
                item = try JSON(parsing: listed.body)["items"][0]
            }
            #expect(item["alternateURL"] == .text("/api/gallery/\(id)/alternate"))
            #expect(item["alternateFileName"] == "0.mp4")
            let alternate = try await client.execute(uri: "/api/gallery/\(id)/alternate", method: .get)
            #expect(alternate.headers[.contentType] == "video/mp4")
            let probe = try ClipProbe(bytes: Data(buffer: alternate.body), name: "alternate")
            #expect(probe.videoCodec == "avc1" && probe.audioCodec == "mp4a")
            #expect(abs(probe.duration - 1.5) < 0.15, "\(probe.duration)")
            let deleted = try await client.execute(uri: "/api/gallery/\(id)", method: .delete)
            #expect(deleted.status == .ok)
        }
        #expect(folder.files.isEmpty, "\(folder.files)")
    }

    @Test("deleting a clip while its MP4 is being made stops FFmpeg at once and leaves nothing")
    func deleteStopsConversion() async throws {
        let folder = Folder()
        let ffmpeg = try StandInFFmpeg(in: NSTemporaryDirectory() + "ocular-ffmpeg-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(atPath: ffmpeg.folder) }
        try await Self.application(folder, { $0.ffmpegPath = ffmpeg.path }).test(.router) { client in
            let created = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"],
                                                   body: ByteBuffer(bytes: try ClipFixtures.bytes("chrome-vp8-opus.webm")))
            let id = try #require(try JSON(parsing: created.body)["id"].int)
            let pid = try #require(try await ffmpeg.waitForStart().first, "the conversion never started")
            #expect(StandInFFmpeg.isRunning(pid))
            let deleted = try await client.execute(uri: "/api/gallery/\(id)", method: .delete)
            #expect(deleted.status == .ok)
            #expect(try await StandInFFmpeg.waitForEnd(pid), "FFmpeg went on converting a deleted clip")
        }
        #expect(folder.files.isEmpty, "\(folder.files)")
    }

    @Test("a WebM left without its MP4 (the studio stopped first) gets it when the studio starts again")
    func unconvertedQueuedOnStart() async throws {
        let folder = Folder()
        let ffmpeg = try #require(["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) })
        try await Self.application(folder).test(.router) { client in
            let created = try await client.execute(uri: Self.uri(), method: .post, headers: [.contentType: "video/webm"],
                                                   body: ByteBuffer(bytes: try ClipFixtures.bytes("chrome-vp8-opus.webm")))
            #expect(created.status == .created)
        }
        #expect(try Gallery(folder: folder.path).clipsWithoutAlternate() == [1])
        try await Self.application(folder, { $0.ffmpegPath = ffmpeg }).test(.router) { client in
            var item: JSON = [:]
            for _ in 0..<400 where item["alternateURL"] == .null {
                try await Task.sleep(for: .milliseconds(50))
                let listed = try await client.execute(uri: "/api/gallery", method: .get)
                item = try JSON(parsing: listed.body)["items"][0]
            }
            #expect(item["alternateFileName"] == "0.mp4", "\(item)")
        }
        #expect(try Gallery(folder: folder.path).clipsWithoutAlternate() == [])
    }
}

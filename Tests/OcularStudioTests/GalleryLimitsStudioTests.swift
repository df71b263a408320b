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

/// The studio's saves are bounded (a quota, a rate per connection, the frame limit) and its gallery
/// operations report what happened. Before: a page could save without end (200 MB in a few frames),
/// and a delete or save whose file or database was gone was acknowledged.
@Suite("Ocular Studio's gallery limits and failures", .timeLimit(.minutes(1)), .serialized)
struct GalleryLimitsStudioTests {
    final class Folder: Sendable {
        let path = NSTemporaryDirectory() + "ocular-limits-" + UUID().uuidString
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let frame: [UInt8] = {
        // Noise: a PNG of it is as large as its pixels, so quotas are easy to reach.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(64 * 48 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return (try? Image(width: 64, height: 48, format: .bgr8, bytes: bytes).encoded(as: .jpeg(quality: 95))) ?? []
    }()

    /// Asks for a save, sends a frame, and returns what the save answered.
    static func save(_ session: StreamSession, caption: String = "x") -> String {
        if let refusal = try? session.receive(declared: "save", ["caption": .text(caption)]) { return refusal.json }
        guard case .frame(_, _, let answers) = session.process(ByteBuffer(bytes: frame)), let saved = answers.first else { return "no save answer" }
        return saved.json
    }

    @Test("one connection may save savesPerMinute pictures at once, then is told to wait")
    func saveRate() throws {
        let folder = Folder()
        let configuration = StudioConfiguration(port: 0, galleryFolder: folder.path, savesPerMinute: 3)
        let session = try StreamSession(configuration: configuration)
        for _ in 0..<3 { #expect(Self.save(session).contains(#""type":"saved""#)) }
        let refused = Self.save(session)
        #expect(refused.contains(#""about":"save""#) && refused.contains("too many saves: one page may save 3 pictures a minute"), "\(refused)")
        #expect(try Gallery(folder: folder.path).count() == 3)
        // Another connection has an allowance of its own.
        #expect(Self.save(try StreamSession(configuration: configuration)).contains(#""type":"saved""#))
    }

    @Test("a caption is bounded in bytes as well as characters: one character of 3,000 combining accents is refused (a 30 MB one was saved)")
    func captionBytes() throws {
        let folder = Folder()
        let session = try StreamSession(configuration: StudioConfiguration(port: 0, galleryFolder: folder.path))
        let oneCharacter = "e" + String(repeating: "\u{0301}", count: 3_000)
        #expect(oneCharacter.count == 1)
        let refused = Self.save(session, caption: oneCharacter)
        #expect(refused.contains("a caption may have at most 500 characters (2000 bytes of UTF-8)"), "\(refused.prefix(300))")
        // 500 emoji of four bytes each are within both.
        #expect(Self.save(session, caption: String(repeating: "\u{1F600}", count: 500)).contains(#""type":"saved""#))
        #expect(Self.save(session, caption: String(repeating: "a", count: 501)).contains("at most 500 characters"))
        #expect(try Gallery(folder: folder.path).count() == 1)
    }

    @Test("a save over the gallery's quota is refused with the sizes; nothing is written")
    func quota() throws {
        let folder = Folder()
        let session = try StreamSession(configuration: StudioConfiguration(port: 0, galleryFolder: folder.path, galleryQuotaBytes: 12_000))
        #expect(Self.save(session).contains(#""type":"saved""#))
        let refused = Self.save(session)
        #expect(refused.contains("the gallery is full") && refused.contains("quota of"), "\(refused)")
        #expect(try Gallery(folder: folder.path).count() == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/photos").count == 1)
    }

    @Test("the database deleted under the running studio: the next save fails by name, and nothing saved is lost")
    func databaseDeleted() throws {
        let folder = Folder()
        let gallery = try Gallery(folder: folder.path)
        let session = try StreamSession(configuration: StudioConfiguration(port: 0), gallery: StudioGallery(gallery))
        #expect(Self.save(session).contains(#""type":"saved""#))
        try FileManager.default.moveItem(atPath: folder.path + "/gallery.sqlite", toPath: folder.path + "/aside.sqlite")
        let refused = Self.save(session)
        #expect(refused.contains("deleted while the gallery was open") && !refused.contains(folder.path), "\(refused)")
        try FileManager.default.moveItem(atPath: folder.path + "/aside.sqlite", toPath: folder.path + "/gallery.sqlite")
        #expect(try Gallery(folder: folder.path).count() == 1)
    }

    @Test("on a read-only gallery the studio starts with saving off and says so; it lists and serves, and refuses DELETE with 409")
    func readOnlyGallery() async throws {
        let folder = Folder()
        _ = try Gallery(folder: folder.path).save(try Image(width: 8, height: 8, format: .bgr8, filledWith: [1, 2, 3]), source: "test")
        let folders = [folder.path] + ["photos", "videos", "thumbnails"].map { folder.path + "/" + $0 }
        let restore = try #require(makeReadOnly(folders), "cannot make a read-only folder on this machine")
        defer { restore() }
        let gallery = try Gallery(folder: folder.path)
        #expect(gallery.isReadOnly)
        let session = try StreamSession(configuration: StudioConfiguration(port: 0), gallery: StudioGallery(gallery))
        #expect(session.hello.json.contains("The gallery is read-only"))
        let refused = Self.save(session)
        #expect(refused.contains(#""about":"save""#) && refused.contains("is read-only"), "\(refused)")
        try await Studio.makeApplication(configuration: StudioConfiguration(port: 0), gallery: gallery).test(.router) { client in
            try await client.execute(uri: "/api/gallery", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains(#""total":1"#))
            }
            try await client.execute(uri: "/api/gallery/1", method: .get) { response in #expect(response.status == .ok) }
            try await client.execute(uri: "/api/gallery/1", method: .delete) { response in
                #expect(response.status == .conflict && String(buffer: response.body).contains("read-only"))
            }
        }
    }

    @Test("DELETE of an item whose file cannot be removed answers 500 with the reason, and the item stays")
    func unremovable() async throws {
        let folder = Folder()
        let gallery = try Gallery(folder: folder.path)
        let item = try gallery.save(try Image(width: 8, height: 8, format: .bgr8, filledWith: [1, 2, 3]), source: "test")
        let restore = try makeUnremovable(folder.path + "/photos", file: gallery.path(of: item))
        defer { restore() }
        try await Studio.makeApplication(configuration: StudioConfiguration(port: 0), gallery: gallery).test(.router) { client in
            try await client.execute(uri: "/api/gallery/1", method: .delete) { response in
                #expect(response.status == .internalServerError)
                #expect(String(buffer: response.body).contains("was not deleted"), "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/api/gallery/1", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(try gallery.count() == 1)
    }
}

/// What GET /api/gallery/ID serves: only the file the row describes. Before, a symbolic link was
/// followed out of the gallery, a damaged file was served as good, `+1` was item 1, and Range
/// headers of other units or several ranges were refused 416.
@Suite("Ocular Studio's gallery files", .timeLimit(.minutes(1)))
struct GalleryFilesStudioTests {
    static func setUp() throws -> (GalleryLimitsStudioTests.Folder, Gallery, GalleryItem) {
        let folder = GalleryLimitsStudioTests.Folder()
        let gallery = try Gallery(folder: folder.path)
        let item = try gallery.add(fileAt: dataRoot + "/images/rocket.jpg")
        return (folder, gallery, item)
    }

    @Test("a symbolic link, a FIFO, a file of another size or another CRC are answered 500 with the reason, never served")
    func damagedFiles() async throws {
        let (folder, gallery, item) = try Self.setUp()
        let path = gallery.path(of: item)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let secret = folder.path + "/secret.jpg"
        try Data("another user's file".utf8).write(to: URL(fileURLWithPath: secret))
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0), gallery: gallery)
        let cases: [(String, @Sendable () throws -> Void)] = [
            ("symbolic link", { try FileManager.default.removeItem(atPath: path); try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret) }),
            ("not a regular file", { try FileManager.default.removeItem(atPath: path); _ = mkfifo(path, 0o600) }),
            ("bytes; \(original.count) were saved", { try FileManager.default.removeItem(atPath: path); try original.prefix(1000).write(to: URL(fileURLWithPath: path)) }),
            ("CRC-32", {
                var damaged = original
                damaged[500] ^= 0xFF
                try FileManager.default.removeItem(atPath: path)
                try damaged.write(to: URL(fileURLWithPath: path))
            }),
        ]
        try await application.test(.router) { client in
            for (reason, damage) in cases {
                try damage()
                try await client.execute(uri: "/api/gallery/\(item.id)", method: .get) { response in
                    let body = String(buffer: response.body)
                    #expect(response.status == .internalServerError, "\(reason): \(response.status)")
                    #expect(body.contains(reason) && !body.contains("another user"), "\(reason): \(body)")
                }
            }
            try FileManager.default.removeItem(atPath: path)
            try original.write(to: URL(fileURLWithPath: path))
            try await client.execute(uri: "/api/gallery/\(item.id)", method: .get) { response in
                #expect(response.status == .ok && Data(buffer: response.body) == original)
            }
        }
    }

    @Test("ids are digits only; Range follows RFC 9110; files that are not pictures or videos are attachments")
    func idsRangesAndTypes() async throws {
        let (folder, gallery, item) = try Self.setUp()
        defer { withExtendedLifetime(folder) {} }
        let pgm = try gallery.add(fileAt: LayoutFixtures.path("pnm-gray-8.pgm"))
        let size = item.byteCount
        try await Studio.makeApplication(configuration: StudioConfiguration(port: 0), gallery: gallery).test(.router) { client in
            for uri in ["/api/gallery/+1", "/api/gallery/%201", "/api/gallery/1e0", "/api/gallery/01x"] {
                try await client.execute(uri: uri, method: .get) { response in #expect(response.status == .notFound, "\(uri)") }
            }
            for (range, status, length) in [("bytes=0-9,20-29", HTTPResponse.Status.ok, size), ("items=0-9", .ok, size),
                                             ("bytes=10-99999999999999999999999", .partialContent, size - 10), ("bytes=\(size)-", .rangeNotSatisfiable, 0)] {
                try await client.execute(uri: "/api/gallery/1", method: .get, headers: [.range: range]) { response in
                    #expect(response.status == status, "\(range)")
                    #expect(response.body.readableBytes == length, "\(range)")
                }
            }
            try await client.execute(uri: "/api/gallery/1", method: .get) { response in
                #expect(response.headers[.contentType] == "image/jpeg" && response.headers[.contentDisposition] == nil)
            }
            try await client.execute(uri: "/api/gallery/\(pgm.id)", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "application/octet-stream")
                #expect(response.headers[.contentDisposition] == #"attachment; filename="pnm-gray-8.pgm""#)
            }
        }
    }
}

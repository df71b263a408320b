import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularGallery

/// Gallery operations say what really happened: a delete that cannot remove the file, a save into
/// a database that was deleted or replaced, a save over the quota; each fails by name, and nothing
/// already saved is lost. Each test failed before: delete answered success with the file still
/// there, and saves into a deleted database were acknowledged into nothing.
@Suite("Gallery: failures told, nothing lost", .serialized)
struct GalleryHonestyTests {
    static func picture(seed: UInt64 = 1) throws -> Image {
        try GalleryTests.noisePicture(seed: seed)
    }

    @Test("a delete whose file cannot be removed fails by name and keeps the item whole")
    func unremovableFile() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let item = try gallery.save(try Self.picture(), source: "test")
        let path = gallery.path(of: item)
        let restore = try makeUnremovable(folder.path + "/photos", file: path)
        #expect {
            try gallery.delete(id: item.id)
        } throws: { error in
            guard case GalleryError.fileNotRemoved(let id, let named, _) = error else { return false }
            return id == item.id && named == path && "\(error)".contains("the item is kept as it was")
        }
        restore()
        #expect(try gallery.item(id: item.id) == item, "the row is kept")
        try gallery.verify(item)
        #expect(try gallery.delete(id: item.id) == item, "and deletes once the file can go")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("saving into a database deleted or replaced under the open gallery fails by name; the original keeps its items")
    func databaseReplaced() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let first = try gallery.save(try Self.picture(seed: 1), source: "test")
        let database = folder.path + "/gallery.sqlite"
        let aside = folder.path + "/aside.sqlite"

        // Deleted (moved away, as a user tidying the folder would).
        try FileManager.default.moveItem(atPath: database, toPath: aside)
        #expect {
            try gallery.save(try Self.picture(seed: 2), source: "test")
        } throws: { error in "\(error)".contains("the database file was deleted while the gallery was open") }
        #expect(throws: GalleryError.self) { try gallery.delete(id: first.id) }

        // Replaced by another gallery's database.
        let other = try TemporaryFolder()
        _ = try Gallery(folder: other.path)
        try FileManager.default.copyItem(atPath: other.path + "/gallery.sqlite", toPath: database)
        #expect {
            try gallery.save(try Self.picture(seed: 3), source: "test")
        } throws: { error in "\(error)".contains("the database file was replaced") }

        // Put back: nothing was lost, and the gallery saves again.
        try FileManager.default.removeItem(atPath: database)
        try FileManager.default.moveItem(atPath: aside, toPath: database)
        let reopened = try Gallery(folder: folder.path)
        #expect(try reopened.items().map(\.id) == [first.id])
        try reopened.verify(first)
        #expect(try reopened.save(try Self.picture(seed: 4), source: "test").id == 2)
        #expect(reopened.reconciliation.findings.isEmpty, "\(reopened.reconciliation.findings)")
    }

    @Test("a database overwritten in place with junk is refused before SQLite writes into it")
    func databaseOverwritten() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        _ = try gallery.save(try Self.picture(), source: "test")
        let handle = try #require(FileHandle(forWritingAtPath: folder.path + "/gallery.sqlite"))
        try handle.write(contentsOf: Data(repeating: 0x41, count: 100))
        try handle.close()
        #expect {
            try gallery.save(try Self.picture(seed: 2), source: "test")
        } throws: { error in "\(error)".contains("overwritten with something that is not SQLite") }
    }

    @Test("the gallery's own database, its log or a link to them, is refused as an item without being opened")
    func ownDatabaseRefused() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        _ = try gallery.save(try Self.picture(), source: "test")
        let elsewhere = try TemporaryFolder()
        let link = elsewhere.path + "/holiday.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path + "/gallery.sqlite")
        for path in [folder.path + "/gallery.sqlite", folder.path + "/gallery.sqlite-wal", link] {
            #expect {
                try gallery.add(fileAt: path)
            } throws: { error in
                guard case GalleryError.notMedia(let named, let reason) = error else { return false }
                return named == path && reason == "it is the gallery's own database, not a photo or video"
            }
        }
        #expect(try gallery.save(try Self.picture(seed: 2), source: "test").id == 2)
        #expect(try gallery.databaseProblems() == [])
    }

    @Test("a save over the quota is refused before any file is written; within it, it is saved")
    func quota() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let first = try gallery.save(try Self.picture(seed: 1), source: "test")
        let size = Int64(first.byteCount)
        #expect {
            try gallery.save(try Self.picture(seed: 2), source: "test", withinBytes: size + 100)
        } throws: { error in
            guard case GalleryError.quotaExceeded(let used, let adding, let quota) = error else { return false }
            return used == size + Int64(first.rowByteCount) && adding > 100 && quota == size + 100 && "\(error)".hasPrefix("the gallery is full")
        }
        #expect(try gallery.count() == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/photos") == [first.fileName])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/thumbnails").count == 1)
        #expect(try gallery.save(try Self.picture(seed: 2), source: "test", withinBytes: 3 * size).id == 2)
    }

    @Test("the quota counts each row's text with the files: a long caption cannot grow the database past it")
    func quotaCountsRows() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let picture = try Self.picture(seed: 1)
        let fileBytes = Int64(try picture.encoded(as: .png()).count)
        let caption = String(repeating: "é", count: 50_000)  // 100,000 bytes of UTF-8
        // Room for the file and a short row, not for the caption.
        #expect {
            try gallery.save(picture, source: "test", caption: caption, withinBytes: fileBytes + 1000)
        } throws: { error in
            guard case GalleryError.quotaExceeded(let used, let adding, _) = error else { return false }
            return used == 0 && adding > 100_000
        }
        #expect(try gallery.count() == 0)
        let saved = try gallery.save(picture, source: "test", caption: caption, withinBytes: fileBytes + 101_000)
        #expect(saved.rowByteCount > 100_000)
        #expect(try gallery.bytesUsed() == Int64(saved.byteCount) + Int64(saved.rowByteCount))
    }
}

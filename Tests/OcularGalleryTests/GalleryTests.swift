import Foundation
import Testing
@testable import Ocular
@testable import OcularGallery
import OcularTestSupport

@Suite("Gallery: saving, adding, reading, deleting, reconciling")
struct GalleryTests {
    /// A picture with distinct pixels everywhere, so that any lossy step would show.
    static func noisePicture(width: Int = 64, height: Int = 48, seed: UInt64 = 1) throws -> Image {
        try Image(width: width, height: height, format: .bgr8, bytes: noiseBytes(count: width * height * 3, seed: seed))
    }

    @Test("CRC-32 is zlib's: the standard check value of \"123456789\" is cbf43926")
    func checksumCheckValue() {
        #expect(Checksum.of(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Checksum.of([UInt8]()) == 0)
    }

    @Test("a saved photo is a lossless PNG with its recipe, checksum and a 256-pixel thumbnail")
    func savePhoto() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let picture = try Image(contentsOfFile: TestData.path("images/coffee.png"))
        let recipe = try Recipe(json: #"{"stages":[{"stage":"tint","seed":7}]}"#)
        let item = try gallery.save(picture, recipe: recipe, source: "test", caption: "a cup", labels: ["coffee"])
        #expect(item.id == 1 && item.kind == .photo && item.width == picture.width && item.height == picture.height)
        #expect(item.fileName.hasPrefix("photo-") && item.fileName.hasSuffix(".png"))
        #expect(try Image(contentsOfFile: gallery.path(of: item)) == picture.converted(to: .bgr8))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: gallery.path(of: item)))
        #expect(item.byteCount == bytes.count && item.checksum == Checksum.of(bytes))
        let thumbnail = try Image(contentsOfFile: try #require(gallery.thumbnailPath(of: item)))
        #expect(max(thumbnail.width, thumbnail.height) == Gallery.thumbnailSize)
        #expect(abs(Double(thumbnail.width) / Double(thumbnail.height) - Double(picture.width) / Double(picture.height)) < 0.01)
        let read = try gallery.item(id: item.id)
        #expect(read == item)
        #expect(read.recipe == recipe && read.caption == "a cup" && read.labels == ["coffee"])
        try gallery.verify(read)
    }

    @Test("items come newest first, paged, and survive reopening the gallery")
    func listing() throws {
        let folder = try TemporaryFolder()
        var ids: [Int64] = []
        do {
            let gallery = try Gallery(folder: folder.path)
            for seed in 1...5 { ids.append(try gallery.save(try Self.noisePicture(seed: UInt64(seed)), source: "test").id) }
        }
        let reopened = try Gallery(folder: folder.path)
        #expect(reopened.reconciliation.isClean)
        #expect(try reopened.count() == 5)
        #expect(try reopened.items().map(\.id) == ids.reversed())
        #expect(try reopened.items(limit: 2, offset: 1).map(\.id) == [ids[3], ids[2]])
        // Ids are never given twice, even after the newest is deleted.
        try reopened.delete(id: ids[4])
        #expect(try reopened.save(try Self.noisePicture(seed: 9), source: "test").id == ids[4] + 1)
    }

    @Test("adding keeps an image's bytes, and a video is a video with duration and thumbnail")
    func adding() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let photo = try gallery.add(fileAt: TestData.path("images/rocket.jpg"), caption: "rocket")
        #expect(photo.kind == .photo && photo.fileName == "rocket.jpg" && photo.width == 640 && photo.height == 427)
        #expect(try Data(contentsOf: URL(fileURLWithPath: gallery.path(of: photo))) == Data(contentsOf: URL(fileURLWithPath: TestData.path("images/rocket.jpg"))))
        #expect(photo.source == "added rocket.jpg" && photo.recipe == nil)
        let again = try gallery.add(fileAt: TestData.path("images/rocket.jpg"))
        #expect(again.fileName == "rocket-2.jpg")

        let video = try gallery.add(fileAt: TestData.path("video/astronaut_pan.avi"))
        #expect(video.kind == .video && video.relativePath == "videos/astronaut_pan.avi")
        #expect(video.width == 480 && video.height == 360 && video.duration.map { abs($0 - 3) < 1e-9 } == true)
        let thumbnail = try Image(contentsOfFile: try #require(gallery.thumbnailPath(of: video)))
        #expect(thumbnail.width == 256 && thumbnail.height == 192)
        try gallery.verify(video)
    }

    @Test("bad input is refused by name and leaves nothing behind")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let text = folder.file("notes.png")
        _ = FileManager.default.createFile(atPath: text, contents: Data("not a picture".utf8))
        #expect(throws: GalleryError.notMedia(path: text, reason: MediaInfo.notMediaReason)) { try gallery.add(fileAt: text) }
        let missing = folder.file("missing.png")
        #expect(throws: GalleryError.file(.fileNotFound(path: missing))) { try gallery.add(fileAt: missing) }
        for name in ["../x", "a/b.png", "..", ".hidden.png", ""] {
            #expect(throws: GalleryError.self) { try gallery.save(try Self.noisePicture(), source: "test", name: name) }
        }
        #expect(throws: GalleryError.noSuchItem(id: 42)) { try gallery.item(id: 42) }
        #expect(throws: GalleryError.noSuchItem(id: 42)) { try gallery.delete(id: 42) }
        #expect(try gallery.count() == 0)
        let saved = folder.contents.filter { !["notes.png", "gallery.sqlite", "gallery.sqlite-wal", "gallery.sqlite-shm"].contains($0) }
        #expect(saved == ["photos", "thumbnails", "videos"])
        for subfolder in saved { #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file(subfolder)).isEmpty) }
        #expect(GalleryError.invalidName("../x", reason: "a name may not contain '/' or '\\': files stay inside the gallery's folder").description.contains("'../x'"))
    }

    @Test("a chosen name gets .png and a number when taken, never replacing a file")
    func names() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let first = try gallery.save(try Self.noisePicture(seed: 1), source: "test", name: "holiday")
        let second = try gallery.save(try Self.noisePicture(seed: 2), source: "test", name: "holiday.png")
        #expect(first.fileName == "holiday.png" && second.fileName == "holiday-2.png")
        #expect(try Image(contentsOfFile: gallery.path(of: first)) == Self.noisePicture(seed: 1))
    }

    @Test("delete removes the row and the files; export copies the bytes and refuses a damaged file")
    func deleteAndExport() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let kept = try gallery.save(try Self.noisePicture(seed: 1), source: "test")
        let gone = try gallery.save(try Self.noisePicture(seed: 2), source: "test")
        try gallery.delete(id: gone.id)
        #expect(try gallery.items().map(\.id) == [kept.id])
        #expect(!FileManager.default.fileExists(atPath: gallery.path(of: gone)))
        #expect(!FileManager.default.fileExists(atPath: try #require(gallery.thumbnailPath(of: gone))))

        let exported = folder.file("out.png")
        try gallery.export(id: kept.id, to: exported)
        #expect(try Data(contentsOf: URL(fileURLWithPath: exported)) == Data(contentsOf: URL(fileURLWithPath: gallery.path(of: kept))))

        // One flipped byte in the middle is found by the checksum.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: gallery.path(of: kept)))
        try handle.seek(toOffset: UInt64(kept.byteCount / 2))
        let byte = try #require(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: UInt64(kept.byteCount / 2))
        try handle.write(contentsOf: [byte ^ 0xFF])
        try handle.close()
        #expect(throws: GalleryError.self) { try gallery.export(id: kept.id, to: folder.file("bad.png")) }
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad.png")))
    }

    @Test("opening reconciles: dead partial files removed, strays and missing files reported")
    func reconciling() throws {
        let folder = try TemporaryFolder()
        let item: GalleryItem
        do {
            let gallery = try Gallery(folder: folder.path)
            item = try gallery.save(try Self.noisePicture(seed: 1), source: "test")
            _ = try gallery.save(try Self.noisePicture(seed: 2), source: "test", name: "second")
        }
        // A partial file of a process that no longer runs, one of this (running) process, a stray
        // photo, and a missing file.
        let deadProcess = try Self.finishedProcessID()
        let stale = ".x.png.\(deadProcess)-\(UUID().uuidString).partial.png"
        let live = ".y.png.\(getpid())-\(UUID().uuidString).partial.png"
        for name in [stale, live, "stray.png"] {
            _ = FileManager.default.createFile(atPath: folder.file("photos/" + name), contents: Data([1, 2, 3]))
        }
        try FileManager.default.removeItem(atPath: folder.file("photos/second.png"))

        let gallery = try Gallery(folder: folder.path)
        let found = gallery.reconciliation
        #expect(found.removedPartialFiles == ["photos/" + stale])
        #expect(found.unregisteredFiles == ["photos/stray.png"])
        #expect(found.itemsWithoutFile.map(\.fileName) == ["second.png"])
        #expect(!found.isClean && found.findings.count == 3)
        #expect(FileManager.default.fileExists(atPath: folder.file("photos/" + live)))
        #expect(FileManager.default.fileExists(atPath: folder.file("photos/stray.png")))
        try gallery.verify(item)
        #expect(throws: GalleryError.missingFile(id: 2, path: folder.file("photos/second.png"))) { try gallery.verify(try gallery.item(id: 2)) }
    }

    @Test("adding a stray file of the gallery's own folder registers it where it is; twice is refused")
    func adoptingStrays() throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        let stray = folder.file("photos/stray.jpg")
        try FileManager.default.copyItem(atPath: TestData.path("images/rocket.jpg"), toPath: stray)
        #expect(try Gallery(folder: folder.path).reconciliation.unregisteredFiles == ["photos/stray.jpg"])
        let item = try gallery.add(fileAt: stray)
        #expect(item.fileName == "stray.jpg" && item.width == 640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("photos")) == ["stray.jpg"])
        try gallery.verify(item)
        #expect(try gallery.reconcile().isClean)
        #expect(throws: GalleryError.notMedia(path: stray, reason: "it is already in the gallery, as item 1")) { try gallery.add(fileAt: stray) }
        #expect(FileManager.default.fileExists(atPath: stray))
    }

    @Test("a database file that is not one is a clear error, and the files stay")
    func damagedDatabase() throws {
        let folder = try TemporaryFolder()
        do {
            let gallery = try Gallery(folder: folder.path)
            try gallery.save(try Self.noisePicture(), source: "test", name: "kept")
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.file("gallery.sqlite" + suffix)) }
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: folder.file("gallery.sqlite")))
        let error = #expect(throws: GalleryError.self) { try Gallery(folder: folder.path) }
        #expect(error?.description.contains("gallery.sqlite' failed: file is not a database") == true, "\(String(describing: error))")
        #expect(FileManager.default.fileExists(atPath: folder.file("photos/kept.png")))
    }

    @Test("saves from many tasks at once all land, each in its own file")
    func concurrentSaves() async throws {
        let folder = try TemporaryFolder()
        let gallery = try Gallery(folder: folder.path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<5 { try gallery.save(try Self.noisePicture(seed: UInt64(task * 10 + index)), source: "task \(task)") }
                }
            }
            try await group.waitForAll()
        }
        let items = try gallery.items()
        #expect(items.count == 20 && Set(items.map(\.fileName)).count == 20 && Set(items.map(\.id)).count == 20)
        for item in items { try gallery.verify(item) }
        #expect(try gallery.reconcile().isClean)
    }

    @Test("the default folder follows XDG_DATA_HOME, else ~/.local/share")
    func defaultFolder() {
        #expect(Gallery.defaultFolder(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]) == "/data/ocular")
        #expect(Gallery.defaultFolder(environment: ["HOME": "/home/a"]) == "/home/a/.local/share/ocular")
        #expect(Gallery.defaultFolder(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]) == "/home/a/.local/share/ocular")
    }

    @Test("a gallery folder that is a file is refused by name")
    func folderIsAFile() throws {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.file("file"), contents: Data())
        #expect(throws: GalleryError.unusableFolder(path: folder.file("file"), reason: "it is a file, not a folder")) {
            try Gallery(folder: folder.file("file"))
        }
    }

    /// The id of a process that has exited (and been reaped).
    static func finishedProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}

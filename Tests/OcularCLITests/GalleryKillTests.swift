import Foundation
import Ocular
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Nothing saved is ever lost: a process saving photos in a loop is killed with SIGKILL at random
/// moments, again and again, and after each kill the gallery is checked.
@Suite("Gallery under SIGKILL")
struct GalleryKillTests {
    static let kills = 60
    static let saver = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gallery-save-loop").path

    @Test("60 kills mid-save: every committed photo intact, no partial file left, the database sound")
    func killsLoseNothing() throws {
        let folder = try Folder()
        let galleryFolder = folder.file("gallery")
        var random = SystemRandomNumberGenerator()
        for run in 0..<Self.kills {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.saver)
            process.arguments = [galleryFolder, String(run)]
            process.standardError = FileHandle.nullDevice
            try process.run()
            // From before the gallery opens to several saves in (each takes tens of milliseconds).
            usleep(UInt32.random(in: 50_000...700_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "run \(run) ended by itself: \(process.terminationStatus)")

            let gallery = try Gallery(folder: galleryFolder)
            #expect(gallery.reconciliation.itemsWithoutFile.isEmpty, "run \(run): rows without files")
            for item in try gallery.items(limit: .max) { try gallery.verify(item) }
            for subfolder in ["photos", "videos", "thumbnails"] {
                let hidden = try FileManager.default.contentsOfDirectory(atPath: galleryFolder + "/" + subfolder).filter { $0.hasPrefix(".") }
                #expect(hidden.isEmpty, "run \(run): partial files left in \(subfolder): \(hidden)")
            }
        }
        let gallery = try Gallery(folder: galleryFolder)
        let strays = gallery.reconciliation.unregisteredFiles.count
        let items = try gallery.items(limit: .max)
        for item in items {
            let picture = try Image(contentsOfFile: gallery.path(of: item))
            #expect(picture.width == 640 && picture.height == 480)
            try gallery.verify(item)
        }
        #expect(try gallery.databaseProblems() == [])
        #expect(items.count >= Self.kills, "too few saves completed to mean anything: \(items.count)")
        print("SIGKILL test: \(Self.kills) kills, \(items.count) photos committed and checked (decoded, CRC-32), 0 lost; "
              + "\(strays) files of saves killed between their file and their row reported")
    }
}

import Foundation
import Ocular
internal import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Clips recorded elsewhere (a browser's MediaRecorder, through the studio): written by their
/// receiver into a partial file in the videos folder, probed, then registered under the next
/// recording number, "N.webm" or "N.mp4", like the CLI's recordings.
extension Gallery {
    /// Where a clip being received is written: a hidden partial file in the videos folder, which the
    /// next open of the gallery removes if the process dies before ``addClip(partialFileAt:probe:firstFrame:recipe:source:caption:withinBytes:)``.
    /// The caller removes it when it refuses the clip.
    /// - Parameter container: The clip's container, which names the file's extension.
    /// - Returns: The partial file's path (no file there yet).
    public func partialClipPath(for container: ClipProbe.Container) -> String {
        PartialFiles.make(for: folder + "/" + GalleryItem.Kind.video.folderName + "/clip." + container.fileExtension)
    }

    /// The recorded WebM clips that have no alternate (MP4) yet, oldest first.
    public func clipsWithoutAlternate() throws(GalleryError) -> [Int64] {
        try read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM item WHERE kind = 'video' AND alternateFileName IS NULL AND fileName LIKE '%.webm' ORDER BY id")
        }
    }

    /// Registers a received clip: flushes its partial file, links it under the next free recording
    /// number and inserts its row, with a thumbnail of its first frame.
    /// - Parameters:
    ///   - partial: A file from ``partialClipPath(for:)``, complete.
    ///   - probe: What its container says (its size, duration and sound).
    ///   - firstFrame: Its first frame, decoded: the thumbnail is made from it.
    ///   - recipe: The recipe its frames went through.
    ///   - source: Where it was recorded, in words.
    ///   - caption: Shown under it.
    ///   - quota: When given, the clip is refused if the gallery's files would then take more bytes.
    /// - Returns: The new item.
    /// - Throws: ``GalleryError/quotaExceeded(used:adding:quota:)`` or an error placing the file or
    ///   writing the row; the partial file is left for the caller to remove, and nothing else remains.
    public func addClip(partialFileAt partial: String, probe: ClipProbe, firstFrame: Image, recipe: Recipe?, source: String,
                        caption: String = "", withinBytes quota: Int64? = nil) throws(GalleryError) -> GalleryItem {
        let videos = folder + "/" + GalleryItem.Kind.video.folderName
        let fileExtension = probe.container.fileExtension
        // One numbering for every recording, whatever its container: 3.webm and 3.mp4 are one clip.
        let number = Self.nextRecordingNumber(in: videos)
        let draft = GalleryItem(draftOf: .video, source: source, recipe: recipe, width: probe.width, height: probe.height,
                                duration: probe.duration, caption: caption, labels: [], hasAudio: probe.hasAudio)
        let thumbnail = try Self.thumbnail(of: firstFrame)
        return try store(draft, thumbnail: thumbnail, preferredName: "\(number).\(fileExtension)", quota: quota) { (folder, name) throws(GalleryError) in
            let placed = try DurableFiles.placeNumbered(partial, in: folder, from: number, fileExtension: fileExtension, named: folder + "/" + name)
            PartialFiles.finished(partial)
            let found = try DurableFiles.checksum(ofFileAt: folder + "/" + placed)
            return (placed, found.checksum, found.byteCount)
        }
    }

    /// Gives a video item its alternate file (the MP4 made from its WebM): the partial file is flushed
    /// and linked beside the item's own, under its number where free ("3.webm" → "3.mp4"), and the row
    /// updated. When the item was deleted meanwhile, the file is removed and nil returned.
    /// - Parameters:
    ///   - id: The item.
    ///   - partial: The complete alternate, in a partial file from ``partialClipPath(for:)``.
    ///   - container: Its container.
    /// - Returns: The item as it is now, nil when it no longer exists.
    /// - Throws: An error placing the file or writing the row; the partial file is then removed.
    @discardableResult
    public func setAlternate(id: Int64, partialFileAt partial: String, container: ClipProbe.Container) throws(GalleryError) -> GalleryItem? {
        defer {
            unlink(partial)
            PartialFiles.finished(partial)
        }
        let item = try self.item(id: id)
        let videos = folder + "/" + item.kind.folderName
        let stem = (item.fileName as NSString).deletingPathExtension
        let first = Int(stem).map { max($0, 0) } ?? Self.nextRecordingNumber(in: videos)
        let name = try DurableFiles.placeNumbered(partial, in: videos, from: first, fileExtension: container.fileExtension,
                                                  named: videos + "/" + stem + "." + container.fileExtension)
        let placed = videos + "/" + name
        do throws(GalleryError) {
            let byteCount = try DurableFiles.checksum(ofFileAt: placed).byteCount
            let updated = try write { db in
                try db.execute(sql: "UPDATE item SET alternateFileName = ?, alternateByteCount = ? WHERE id = ?", arguments: [name, byteCount, id])
                return db.changesCount > 0
            }
            guard updated else {
                unlink(placed)
                return nil
            }
            return try self.item(id: id)
        } catch .noSuchItem {
            unlink(placed)
            return nil
        } catch {
            unlink(placed)
            throw error
        }
    }

    /// The bytes the items take, files and rows (a quota's measure).
    /// - Returns: The sum of every item's size, its alternate's and its row's text (caption, recipe, names).
    /// - Throws: ``GalleryError/database(path:reason:)`` when the database cannot be read.
    public func bytesUsed() throws(GalleryError) -> Int64 {
        try read { db in try Self.bytesUsed(db) }
    }

    /// The next recording number: one past the highest "N.webm" or "N.mp4" in the videos folder.
    static func nextRecordingNumber(in videos: String) -> Int {
        ClipProbe.Container.allCases.map { DurableFiles.nextNumber(in: videos, fileExtension: $0.fileExtension) }.max() ?? 0
    }
}

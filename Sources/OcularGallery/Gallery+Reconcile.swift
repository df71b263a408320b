import Foundation
import Ocular
internal import GRDB

extension Gallery {
    /// Thumbnails younger than this are left alone: another process may be about to insert their row.
    static let thumbnailGracePeriod: TimeInterval = 60

    /// Compares the folder with the database again (``reconciliation`` holds what opening found).
    public func reconcile() throws(GalleryError) -> GalleryReconciliation {
        try Self.reconcile(folder: folder, database: database)
    }

    /// - Parameter tidying: Whether partial files and stray thumbnails are removed (not in a
    ///   read-only gallery, which is only reported on).
    static func reconcile(folder: String, database: any DatabaseWriter, tidying: Bool = true) throws(GalleryError) -> GalleryReconciliation {
        var found = GalleryReconciliation()
        for subfolder in subfolderNames where tidying {
            found.removedPartialFiles += PartialFiles.sweepStale(besides: folder + "/" + subfolder + "/x")
                .map { subfolder + "/" + ($0 as NSString).lastPathComponent }
        }
        let items = try read(database, in: folder) { db in
            try Row.fetchAll(db, sql: "SELECT * FROM item").map(GalleryItem.init(row:))
        }
        let named = Set(items.map(\.relativePath) + items.compactMap(\.alternateRelativePath))
        let thumbnails = Set(items.compactMap(\.thumbnailName))
        for kind in GalleryItem.Kind.allCases {
            for name in visibleFiles(in: folder + "/" + kind.folderName) where !named.contains(kind.folderName + "/" + name) {
                found.unregisteredFiles.append(kind.folderName + "/" + name)
            }
        }
        let thumbnailFolder = folder + "/" + thumbnailFolderName
        for name in visibleFiles(in: thumbnailFolder) where !thumbnails.contains(name) {
            let path = thumbnailFolder + "/" + name
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
            if tidying, Date().timeIntervalSince(modified) > thumbnailGracePeriod, unlink(path) == 0 {
                found.removedThumbnails.append(thumbnailFolderName + "/" + name)
            }
        }
        found.itemsWithoutFile = items.filter { !FileManager.default.fileExists(atPath: folder + "/" + $0.relativePath) }
        return found
    }

    /// The names in a folder that are not hidden (partial files are), sorted.
    private static func visibleFiles(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }
}

extension Gallery {
    /// SQLite's own check of the database file (`PRAGMA integrity_check`).
    /// - Returns: The problems it found; empty when the database is sound.
    public func databaseProblems() throws(GalleryError) -> [String] {
        let lines = try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        return lines == ["ok"] ? [] : lines
    }
}

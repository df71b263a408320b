import Ocular
/// What opening a gallery found when it compared the folder with the database.
public struct GalleryReconciliation: Sendable, Equatable {
    /// Partial files left by processes that died while saving; removed.
    public var removedPartialFiles: [String] = []
    /// Thumbnails of no item, left by a save that died before its row; removed (they are made
    /// from the picture and hold nothing else).
    public var removedThumbnails: [String] = []
    /// Files in the photos or videos folder that no item names, relative to the gallery's folder:
    /// kept, so that nothing is lost (``Gallery/add(fileAt:caption:labels:name:source:recipe:)``,
    /// `ocular gallery add`, registers one where it is).
    public var unregisteredFiles: [String] = []
    /// Items whose file is gone.
    public var itemsWithoutFile: [GalleryItem] = []

    /// Nothing to report: every file has its row and every row its file.
    public var isClean: Bool { unregisteredFiles.isEmpty && itemsWithoutFile.isEmpty }

    /// One line per finding, for a log or a terminal.
    public var findings: [String] {
        removedPartialFiles.map { "removed the partial file \($0), left by a save that was interrupted" }
            + removedThumbnails.map { "removed the thumbnail \($0), which belongs to no item" }
            + unregisteredFiles.map { "\($0) is in the folder but not in the gallery (`ocular gallery add` on it registers it where it is)" }
            + itemsWithoutFile.map { "item \($0.id)'s file \($0.relativePath) is missing" }
    }
}

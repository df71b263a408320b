/// What can go wrong with the gallery, each case naming the item, file or folder and why.
public enum GalleryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No item has this id (it never existed, or it was deleted).
    case noSuchItem(id: Int64)
    /// A file name that could leave the gallery's folder or clash with its own files.
    case invalidName(String, reason: String)
    /// The file to add is neither an image nor a video Ocular can read.
    case notMedia(path: String, reason: String)
    /// Reading or writing a file failed.
    case file(OcularError)
    /// The gallery's folder cannot be made or used.
    case unusableFolder(path: String, reason: String)
    /// SQLite refused an operation on the gallery's database.
    case database(path: String, reason: String)
    /// The item's file is gone from the folder.
    case missingFile(id: Int64, path: String)
    /// The item's file no longer holds the bytes saved (its checksum differs).
    case damagedFile(id: Int64, path: String, reason: String)

    public var description: String {
        switch self {
        case .noSuchItem(let id):
            "the gallery has no item \(id) (`ocular gallery list` shows the ids)"
        case .invalidName(let name, let reason):
            "cannot use the name \(StageError.quoted(name)): \(reason)"
        case .notMedia(let path, let reason):
            "cannot add '\(path)' to the gallery: \(reason)"
        case .file(let error):
            error.description
        case .unusableFolder(let path, let reason):
            "cannot use the gallery folder '\(path)': \(reason)"
        case .database(let path, let reason):
            "the gallery database '\(path)' failed: \(reason)"
        case .missingFile(let id, let path):
            "item \(id)'s file '\(path)' is missing"
        case .damagedFile(let id, let path, let reason):
            "item \(id)'s file '\(path)' is damaged: \(reason)"
        }
    }
}

import Foundation

extension GalleryError: LocalizedError {
    public var errorDescription: String? { description }
}

/// What can go wrong with the gallery, each case naming the item, file or folder and why.
public enum GalleryError: CodedError, Equatable, Sendable {
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
    /// Saving would take the gallery's items (files and rows) over the quota given.
    case quotaExceeded(used: Int64, adding: Int, quota: Int64)
    /// The item's file could not be removed; the item is kept, whole.
    case fileNotRemoved(id: Int64, path: String, reason: String)
    /// The gallery was opened read-only (its folder cannot be written): nothing can be saved or deleted.
    case readOnly(path: String)

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
        case .quotaExceeded(let used, let adding, let quota):
            "the gallery is full: its items take \(Self.megabytes(used)), and \(Self.megabytes(Int64(adding))) more would pass its quota of \(Self.megabytes(quota)) (delete items, or raise the quota)"
        case .fileNotRemoved(let id, let path, let reason):
            "item \(id) was not deleted: its file '\(path)' cannot be removed (\(reason)); the item is kept as it was"
        case .readOnly(let path):
            "the gallery '\(path)' is read-only (its folder cannot be written): it can be listed, checked and exported, not changed"
        }
    }
}

extension GalleryError {
    public var code: ErrorCode {
        switch self {
        case .noSuchItem: ErrorCode("gallery.noSuchItem", .notFound)
        case .invalidName: ErrorCode("gallery.invalidName", .badInput)
        case .notMedia: ErrorCode("gallery.notMedia", .badInput)
        case .file(let error): error.code
        case .unusableFolder: ErrorCode("gallery.unusableFolder", .ioFailure)
        case .database: ErrorCode("gallery.database", .ioFailure)
        case .missingFile: ErrorCode("gallery.missingFile", .notFound)
        case .damagedFile: ErrorCode("gallery.damagedFile", .ioFailure)
        case .quotaExceeded: ErrorCode("gallery.quotaExceeded", .full)
        case .fileNotRemoved: ErrorCode("gallery.fileNotRemoved", .ioFailure)
        case .readOnly: ErrorCode("gallery.readOnly", .refused)
        }
    }
}

import Foundation
import Ocular

extension GalleryError {
    static func megabytes(_ bytes: Int64) -> String {
        let value = Double(bytes) / 1_048_576
        return value >= 10 ? "\(Int(value.rounded())) MB" : "\((value * 10).rounded() / 10) MB"
    }
}

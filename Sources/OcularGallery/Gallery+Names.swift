import Foundation
import Ocular

extension Gallery {
    /// The longest file name accepted, in UTF-8 bytes: file systems allow 255, and numbered
    /// variants ("-2") and thumbnails ("photo-…jpg") need room.
    static let longestName = 200

    /// A name given by a user or a client, checked to stay a plain file name inside the folder.
    /// `fileExtension` is added when the name does not end with it.
    static func checkedName(_ name: String, extension fileExtension: String) throws(GalleryError) -> String {
        if name.isEmpty { throw .invalidName(name, reason: "it is empty") }
        if name.contains("/") || name.contains("\\") {
            throw .invalidName(name, reason: "a name may not contain '/' or '\\': files stay inside the gallery's folder")
        }
        if name == "." || name == ".." || name.hasPrefix(".") {
            throw .invalidName(name, reason: "a name may not start with '.' (those are the gallery's hidden files)")
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .invalidName(name, reason: "it contains control characters")
        }
        let full = fileExtension.isEmpty || (name as NSString).pathExtension.lowercased() == fileExtension
            ? name : name + "." + fileExtension
        if full.utf8.count > longestName {
            throw .invalidName(name, reason: "it is longer than \(longestName) bytes")
        }
        return full
    }

    /// A name from the date and time, "photo-20261123-161300.png"; a clash gets "-2", "-3", … when
    /// the file is placed.
    static func generatedName(kind: GalleryItem.Kind = .photo, extension fileExtension: String, at date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "\(kind.rawValue)-\(formatter.string(from: date))" + (fileExtension.isEmpty ? "" : "." + fileExtension)
    }

    /// A file's own name made fit to keep: leading dots and control characters dropped, shortened,
    /// and generated from the date when nothing is left.
    static func tidied(_ name: String, kind: GalleryItem.Kind, extension fileExtension: String) -> String {
        var kept = String(String.UnicodeScalarView(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\\" && $0 != "/" }))
        while kept.hasPrefix(".") { kept.removeFirst() }
        while kept.utf8.count > longestName { kept.removeFirst() }
        return (try? checkedName(kept, extension: fileExtension)) ?? generatedName(kind: kind, extension: fileExtension)
    }
}

import Foundation
import Ocular
internal import GRDB

/// One saved photo or video: its file in the gallery's folder and what is known about it.
///
/// Items are values; ``Gallery`` makes them (``Gallery/save(_:recipe:source:caption:labels:name:)``,
/// ``Gallery/add(fileAt:caption:labels:name:)``) and reads them back. In JSON (the CLI's `--json`,
/// the studio's `/api/gallery`) the recipe is an object and the date is ISO 8601.
public struct GalleryItem: Sendable, Equatable, Codable, Identifiable {
    /// Photos are images, videos are moving pictures; each kind has its own folder.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case photo, video

        /// The kind's folder inside the gallery's folder.
        public var folderName: String { self == .photo ? "photos" : "videos" }
    }

    /// Unique for the gallery's life: the ids of deleted items are never given again. 0 until the
    /// item's row is inserted.
    public internal(set) var id: Int64
    /// When it was saved.
    public var createdAt: Date
    public var kind: Kind
    /// Where it came from, in words: "ocular apply coffee.png", "studio camera", "added coffee.png".
    public var source: String
    /// The recipe that made it, every value spelled out; nil for files added as they were.
    public var recipe: Recipe?
    public var width: Int
    public var height: Int
    /// Seconds, for videos.
    public var duration: Double?
    /// The file's name inside its kind's folder (``Kind/folderName``).
    public var fileName: String
    /// The thumbnail's name inside the thumbnails folder; nil when none could be made (a video whose
    /// frames cannot be decoded).
    public var thumbnailName: String?
    /// The file's size.
    public var byteCount: Int
    /// CRC-32 of the file's bytes, recorded when it was saved: ``Gallery/verify(_:)`` checks it.
    public var checksum: UInt32
    public var caption: String
    public var labels: [String]
    /// Whether a video has a sound track; nil for photos, and for videos whose container was not probed
    /// for one (added files, the CLI's silent recordings say false).
    public var hasAudio: Bool? = nil
    /// The same video in another container, made beside it (the MP4 for players that lack WebM), in
    /// the videos folder; nil until it is made, and for items that have none.
    public var alternateFileName: String? = nil
    /// The size of ``alternateFileName``'s file.
    public var alternateByteCount: Int? = nil

    /// The file's path relative to the gallery's folder, such as "photos/x.png".
    public var relativePath: String { kind.folderName + "/" + fileName }

    /// The alternate file's path relative to the gallery's folder, such as "videos/3.mp4".
    public var alternateRelativePath: String? { alternateFileName.map { kind.folderName + "/" + $0 } }
}

extension GalleryItem {
    /// An item whose files are being written; its row, and so its id, come last.
    init(draftOf kind: Kind, source: String, recipe: Recipe?, width: Int, height: Int, duration: Double? = nil,
         caption: String, labels: [String], hasAudio: Bool? = nil) {
        self.init(id: 0, createdAt: Date(), kind: kind, source: source, recipe: recipe, width: width, height: height,
                  duration: duration, fileName: "", thumbnailName: nil, byteCount: 0, checksum: 0,
                  caption: caption, labels: labels, hasAudio: hasAudio)
    }

    /// The columns of a new row (all but the id, which SQLite assigns).
    func columnValues() -> [String: (any DatabaseValueConvertible)?] {
        [
            "createdAt": createdAt, "kind": kind.rawValue, "source": source, "recipe": recipe?.json,
            "width": width, "height": height, "duration": duration, "fileName": fileName,
            "thumbnailName": thumbnailName, "byteCount": byteCount, "checksum": Int64(checksum),
            "caption": caption, "labels": Self.encodeLabels(labels), "hasAudio": hasAudio,
            "alternateFileName": alternateFileName, "alternateByteCount": alternateByteCount,
        ]
    }

    /// The columns whose length is the user's to choose (a caption, a recipe, a name): counted
    /// against the gallery's quota with the files, so a save cannot grow the database unbounded.
    static let textColumns = ["source", "recipe", "caption", "labels", "fileName", "thumbnailName", "alternateFileName"]

    /// The bytes of the item's text columns as stored (UTF-8): what its row adds to the database.
    var rowByteCount: Int {
        let columns = columnValues()
        return Self.textColumns.reduce(0) { total, name in
            total + (((columns[name] ?? nil) as? String)?.utf8.count ?? 0)
        }
    }

    /// SQL giving a row's ``rowByteCount``, column by column as Swift counts it.
    static let rowByteCountSQL = textColumns.map { "COALESCE(length(CAST(\($0) AS BLOB)), 0)" }.joined(separator: " + ")

    /// Reads a row. A column that no longer decodes (a recipe of a stage this version lacks) is
    /// dropped rather than hiding the item.
    init(row: Row) {
        id = row["id"]
        createdAt = row["createdAt"] ?? Date(timeIntervalSince1970: 0)
        kind = (row["kind"] as String?).flatMap(Kind.init(rawValue:)) ?? .photo
        source = row["source"] ?? ""
        recipe = (row["recipe"] as String?).flatMap { try? Recipe(json: $0) }
        width = row["width"] ?? 0
        height = row["height"] ?? 0
        duration = row["duration"]
        fileName = row["fileName"] ?? ""
        thumbnailName = row["thumbnailName"]
        byteCount = row["byteCount"] ?? 0
        checksum = UInt32(truncatingIfNeeded: (row["checksum"] as Int64?) ?? 0)
        caption = row["caption"] ?? ""
        labels = (row["labels"] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        hasAudio = row["hasAudio"]
        alternateFileName = row["alternateFileName"]
        alternateByteCount = row["alternateByteCount"]
    }

    static func encodeLabels(_ labels: [String]) -> String {
        (try? JSONEncoder().encode(labels)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}

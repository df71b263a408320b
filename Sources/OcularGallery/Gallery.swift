import Foundation
import Ocular
internal import GRDB
// SQLite's C API, for reading the database's header through SQLite's own descriptor.
internal import GRDBSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where every app of Ocular keeps what it saves: photos and videos as files in a folder, their
/// metadata in SQLite (`gallery.sqlite`, through GRDB) beside them.
///
/// ```
/// FOLDER/gallery.sqlite   one row per item: id, date, kind, source, recipe, size, file, checksum, caption, labels
/// FOLDER/photos/          the photos (PNG when Ocular made them, the file as it was when added)
/// FOLDER/videos/          the videos
/// FOLDER/thumbnails/      a JPEG of at most 256 pixels a side per item, made once, when it is saved
/// ```
///
/// Saving never loses anything, whenever the process dies: each file is written under a hidden
/// partial name, flushed to the disk and only then linked under its final name (never replacing a
/// file), and the row that makes it an item is inserted last, in a transaction. Opening a gallery
/// reconciles the folder with the database (``reconciliation``): partial files of dead processes
/// are removed, and files without a row or rows without a file are reported, never deleted.
///
/// A gallery may be used from many tasks at once (SQLite in WAL mode through a `DatabasePool`) and
/// from several processes (the studio and the CLI): files never collide, and writers wait for
/// each other.
public final class Gallery: Sendable {
    /// The gallery's folder.
    public let folder: String
    /// What opening the gallery found and tidied.
    public let reconciliation: GalleryReconciliation
    /// Whether the gallery was opened read-only, because its folder cannot be written: it can be
    /// listed, checked and exported; saving, adding and deleting throw ``GalleryError/readOnly(path:)``.
    public let isReadOnly: Bool
    let database: any DatabaseWriter
    /// The database file opened: a save or delete first checks that the file at its path is still it.
    let databaseIdentity: FileIdentity

    /// Thumbnails are at most this many pixels on their longer side.
    public static let thumbnailSize = 256
    static let databaseName = "gallery.sqlite"
    static let thumbnailFolderName = "thumbnails"
    /// The folders inside the gallery's folder: one per kind, and the thumbnails'.
    static let subfolderNames = GalleryItem.Kind.allCases.map(\.folderName) + [thumbnailFolderName]

    /// `$XDG_DATA_HOME/ocular`, or `~/.local/share/ocular` when XDG_DATA_HOME is not set (the XDG
    /// base directory specification).
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/ocular" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/ocular"
    }

    /// Opens the gallery in `folder`, making the folder and its database when they do not exist,
    /// bringing the database's schema up to date, and reconciling files with rows.
    /// - Parameter folder: The gallery's folder; ``defaultFolder(environment:)`` when nil.
    /// - Throws: ``GalleryError/unusableFolder(path:reason:)`` when the folder cannot be made or
    ///   written, ``GalleryError/database(path:reason:)`` when its database cannot be opened.
    public init(folder: String? = nil) throws(GalleryError) {
        let folder = Self.normalised(folder ?? Self.defaultFolder())
        self.folder = folder
        let databasePath = folder + "/" + Self.databaseName
        // A gallery that exists in a folder this user cannot write (a copy on a read-only disk,
        // another user's) is opened read-only rather than refused.
        let writable = ([folder] + Self.subfolderNames.map { folder + "/" + $0 }).allSatisfy {
            !FileManager.default.fileExists(atPath: $0) || access($0, W_OK | X_OK) == 0
        } && access(databasePath, W_OK) == 0
        isReadOnly = FileManager.default.fileExists(atPath: databasePath) && !writable
        if !isReadOnly {
            try Self.makeFolder(folder)
            for subfolder in Self.subfolderNames { try Self.makeFolder(folder + "/" + subfolder) }
        }
        do {
            var configuration = Configuration()
            configuration.readonly = isReadOnly
            // The studio and the CLI may write at once; the second waits for the first.
            configuration.busyMode = .timeout(10)
            if !isReadOnly {
                configuration.prepareDatabase { db in
                    // A committed save survives a power cut, not only a killed process.
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                }
            }
            database = isReadOnly ? try DatabaseQueue(path: Self.readOnlyLocation(of: databasePath), configuration: configuration)
                : try DatabasePool(path: databasePath, configuration: configuration)
            if !isReadOnly {
                try Self.migrator.migrate(database)
            } else if try !database.read({ db in try Self.migrator.hasCompletedMigrations(db) }) {
                throw GalleryError.database(path: databasePath, reason: "it is read-only and was made by an older Ocular; open it once where it can be written")
            }
        } catch let error as GalleryError {
            throw error
        } catch {
            throw .database(path: databasePath, reason: Self.reason(for: error))
        }
        guard let identity = FileIdentity(path: databasePath) else {
            throw .database(path: databasePath, reason: "the database file vanished as it was opened")
        }
        databaseIdentity = identity
        reconciliation = try Self.reconcile(folder: folder, database: database, tidying: !isReadOnly)
    }

    /// The schema, one migration per change; GRDB records which ran.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: items") { db in
            try db.create(table: "item") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("createdAt", .datetime).notNull().indexed()
                table.column("kind", .text).notNull().check { ["photo", "video"].contains($0) }
                table.column("source", .text).notNull()
                table.column("recipe", .text)
                table.column("width", .integer).notNull()
                table.column("height", .integer).notNull()
                table.column("duration", .double)
                table.column("fileName", .text).notNull()
                table.column("thumbnailName", .text)
                table.column("byteCount", .integer).notNull()
                table.column("checksum", .integer).notNull()
                table.column("caption", .text).notNull().defaults(to: "")
                table.column("labels", .text).notNull().defaults(to: "[]")
                table.uniqueKey(["kind", "fileName"])
            }
        }
        migrator.registerMigration("v2: clips with sound and an alternate file") { db in
            try db.alter(table: "item") { table in
                table.add(column: "hasAudio", .boolean)
                table.add(column: "alternateFileName", .text)
                table.add(column: "alternateByteCount", .integer)
            }
        }
        return migrator
    }

    // MARK: - Reading

    /// Items newest first.
    /// - Parameters:
    ///   - limit: At most this many.
    ///   - offset: Skipping this many of the newest.
    public func items(limit: Int = 100, offset: Int = 0) throws(GalleryError) -> [GalleryItem] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY createdAt DESC, id DESC LIMIT ? OFFSET ?",
                             arguments: [max(0, limit), max(0, offset)]).map(GalleryItem.init(row:))
        }
    }

    /// How many items the gallery holds.
    public func count() throws(GalleryError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0 }
    }

    /// The item with this id.
    /// - Throws: ``GalleryError/noSuchItem(id:)``.
    public func item(id: Int64) throws(GalleryError) -> GalleryItem {
        let row = try read { db in try Row.fetchOne(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [id]) }
        guard let row else { throw .noSuchItem(id: id) }
        return GalleryItem(row: row)
    }

    /// The absolute path of an item's file.
    public func path(of item: GalleryItem) -> String { folder + "/" + item.relativePath }

    /// The absolute path of an item's alternate file (a video's MP4 beside its WebM), nil when it has none.
    public func alternatePath(of item: GalleryItem) -> String? {
        item.alternateRelativePath.map { folder + "/" + $0 }
    }

    /// The absolute path of an item's thumbnail, nil when it has none.
    public func thumbnailPath(of item: GalleryItem) -> String? {
        item.thumbnailName.map { folder + "/" + Self.thumbnailFolderName + "/" + $0 }
    }

    /// Checks that an item's file is there and holds the bytes that were saved.
    /// - Throws: ``GalleryError/missingFile(id:path:)`` or ``GalleryError/damagedFile(id:path:reason:)``.
    public func verify(_ item: GalleryItem) throws(GalleryError) {
        let path = path(of: item)
        let found: (checksum: UInt32, byteCount: Int)
        do throws(GalleryError) {
            found = try DurableFiles.checksum(ofFileAt: path)
        } catch .file(.fileNotFound) {
            throw .missingFile(id: item.id, path: path)
        }
        guard found.byteCount == item.byteCount else {
            throw .damagedFile(id: item.id, path: path, reason: "it holds \(found.byteCount) bytes; \(item.byteCount) were saved")
        }
        guard found.checksum == item.checksum else {
            throw .damagedFile(id: item.id, path: path, reason: "its CRC-32 is \(Self.hex(found.checksum)); \(Self.hex(item.checksum)) was saved")
        }
    }

    // MARK: - Saving

    /// Saves a picture losslessly (PNG) with the recipe that made it, and its thumbnail.
    /// - Parameters:
    ///   - image: The picture.
    ///   - recipe: The recipe that made it, stored with it.
    ///   - source: Where it came from, in words.
    ///   - caption: Shown under it in the gallery.
    ///   - labels: Tags, such as a classifier's answer.
    ///   - name: The file's name; made from the date when nil. ".png" is added when missing.
    ///   - quota: When given, the save is refused if the gallery's items (files and rows) would then take more bytes.
    /// - Returns: The new item.
    /// - Throws: ``GalleryError/invalidName(_:reason:)``, ``GalleryError/quotaExceeded(used:adding:quota:)``,
    ///   or an error writing the files or the row; nothing is left behind on failure.
    @discardableResult
    public func save(_ image: Image, recipe: Recipe? = nil, source: String, caption: String = "", labels: [String] = [],
                     name: String? = nil, withinBytes quota: Int64? = nil) throws(GalleryError) -> GalleryItem {
        let fileName = try name.map { (name) throws(GalleryError) in try Self.checkedName(name, extension: "png") } ?? Self.generatedName(extension: "png")
        let bytes: [UInt8]
        do {
            bytes = try image.encoded(as: .png())
        } catch {
            throw .file(error)
        }
        let item = GalleryItem(draftOf: .photo, source: source, recipe: recipe, width: image.width, height: image.height,
                               caption: caption, labels: labels)
        if let quota {
            // Refused before any file is written; checked again with the row, in its transaction.
            let used = try read { db in try Self.bytesUsed(db) }
            let adding = bytes.count + item.rowByteCount
            guard used + Int64(adding) <= quota else { throw .quotaExceeded(used: used, adding: adding, quota: quota) }
        }
        return try store(item, thumbnail: try Self.thumbnail(of: image), preferredName: fileName, quota: quota) { (folder, name) throws(GalleryError) in
            (try DurableFiles.create(bytes, in: folder, preferredName: name), Checksum.of(bytes), bytes.count)
        }
    }

    /// Adds an image or video file as it is (the bytes are copied, not re-encoded).
    /// - Parameters:
    ///   - path: The file; it is checked to be an image Ocular decodes or a video it opens.
    ///   - caption: Shown under it in the gallery.
    ///   - labels: Tags.
    ///   - name: The copy's name; the file's own name when nil.
    ///   - source: Where it came from; "added NAME" when nil.
    /// - Returns: The new item.
    /// - Throws: ``GalleryError/notMedia(path:reason:)`` for a file that is neither, or an error
    ///   reading or writing; nothing is left behind on failure.
    @discardableResult
    public func add(fileAt path: String, caption: String = "", labels: [String] = [], name: String? = nil,
                    source: String? = nil, recipe: Recipe? = nil) throws(GalleryError) -> GalleryItem {
        // Not even opened: reading the database (or its log) with a descriptor of our own and closing
        // it would drop SQLite's locks (see checkDatabaseHeader).
        let databasePath = folder + "/" + Self.databaseName
        if let identity = FileIdentity(path: path, followingLinks: true),
           [databasePath, databasePath + "-wal", databasePath + "-shm"].contains(where: { FileIdentity(path: $0, followingLinks: true) == identity }) {
            throw .notMedia(path: path, reason: "it is the gallery's own database, not a photo or video")
        }
        let examined: (info: MediaInfo, image: Image?)
        do {
            examined = try MediaInfo.examine(path)
        } catch {
            switch error {
            case .unreadableMedia(_, let reason): throw .notMedia(path: path, reason: reason)
            case .notAnImage: throw .notMedia(path: path, reason: MediaInfo.notMediaReason)
            case .emptyFile: throw .notMedia(path: path, reason: "the file is empty (0 bytes)")
            case .corruptImage(_, let format, let reason): throw .notMedia(path: path, reason: "the \(format) data \(reason)")
            default: throw .file(error)
            }
        }
        let ownName = (path as NSString).lastPathComponent
        let fileExtension = (ownName as NSString).pathExtension.lowercased()
        let item: GalleryItem
        let thumbnail: [UInt8]?
        switch examined.info {
        case .image(let image):
            item = GalleryItem(draftOf: .photo, source: source ?? "added \(ownName)", recipe: recipe, width: image.width,
                               height: image.height, caption: caption, labels: labels)
            // The picture MediaInfo decoded: an image is read and decoded once.
            thumbnail = try examined.image.map { (picture) throws(GalleryError) in try Self.thumbnail(of: picture) }
        case .video(let video):
            item = GalleryItem(draftOf: .video, source: source ?? "added \(ownName)", recipe: recipe, width: video.width,
                               height: video.height, duration: video.duration, caption: caption, labels: labels, hasAudio: video.hasAudio)
            // A video whose first frame does not decode is still kept: it may play in a browser.
            thumbnail = try? Self.thumbnail(of: Image(firstFrameOfVideo: path))
        }
        // A file already in the kind's folder but in no row (a save interrupted between its file
        // and its row, or one put there by hand) is registered where it is, not copied.
        let kindFolder = folder + "/" + item.kind.folderName
        if name == nil, Self.normalised((path as NSString).deletingLastPathComponent) == kindFolder {
            if let owner = try read({ db in
                try Int64.fetchOne(db, sql: "SELECT id FROM item WHERE kind = ? AND fileName = ?", arguments: [item.kind.rawValue, ownName])
            }) {
                throw .notMedia(path: path, reason: "it is already in the gallery, as item \(owner)")
            }
            return try store(item, thumbnail: thumbnail, preferredName: ownName, removeOnFailure: false) { (_, _) throws(GalleryError) in
                let found = try DurableFiles.checksum(ofFileAt: path)
                return (ownName, found.checksum, found.byteCount)
            }
        }
        let preferred = try name.map { (name) throws(GalleryError) in try Self.checkedName(name, extension: fileExtension) }
            ?? Self.tidied(ownName, kind: item.kind, extension: fileExtension)
        return try store(item, thumbnail: thumbnail, preferredName: preferred) { (folder, name) throws(GalleryError) in
            try DurableFiles.copy(path, in: folder, preferredName: name)
        }
    }

    /// A thumbnail's JPEG bytes: made before any file is placed, so that the moment between a file
    /// appearing and its row being committed is as short as it can be.
    static func thumbnail(of picture: Image) throws(GalleryError) -> [UInt8] {
        do {
            return try picture.shrunk(toFit: thumbnailSize).encoded(as: .jpeg(quality: 85))
        } catch {
            throw .file(error)
        }
    }

    /// Places the thumbnail, then the item's file (`place` writes it into the folder under the
    /// name given, or a numbered variant, and returns the name it got with the CRC-32 and size of
    /// what it wrote), then inserts the row: the item exists from that commit on. On failure, the
    /// files just placed are removed (the item's own file only when `removeOnFailure`: a file
    /// registered where it lay is the user's).
    func store(_ draft: GalleryItem, thumbnail: [UInt8]?, preferredName: String, removeOnFailure: Bool = true, quota: Int64? = nil,
                       place: (_ folder: String, _ preferredName: String) throws(GalleryError) -> (name: String, checksum: UInt32, byteCount: Int))
        throws(GalleryError) -> GalleryItem {
        guard !isReadOnly else { throw .readOnly(path: folder) }
        var item = draft
        do throws(GalleryError) {
            if let thumbnail {
                let stem = (preferredName as NSString).deletingPathExtension
                item.thumbnailName = try DurableFiles.create(thumbnail, in: folder + "/" + Self.thumbnailFolderName,
                                                             preferredName: stem + ".jpg")
            }
            (item.fileName, item.checksum, item.byteCount) = try place(folder + "/" + item.kind.folderName, preferredName)
            let columns = item.columnValues()
            // Read back as every later read will see it (the date to the millisecond, as stored).
            let byteCount = Int64(item.byteCount) + Int64(item.rowByteCount)
            let row = try write { db in
                if let quota {
                    let used = try Self.bytesUsed(db)
                    guard used + byteCount <= quota else { throw GalleryError.quotaExceeded(used: used, adding: Int(byteCount), quota: quota) }
                }
                let names = columns.keys.sorted()
                let sql = "INSERT INTO item (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
                try db.execute(sql: sql, arguments: StatementArguments(names.map { columns[$0]! }))
                return try Row.fetchOne(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [db.lastInsertedRowID])
            }
            guard let row else { throw .database(path: folder + "/" + Self.databaseName, reason: "the new row could not be read back") }
            return GalleryItem(row: row)
        } catch {
            if removeOnFailure, !item.fileName.isEmpty { unlink(path(of: item)) }
            if let thumbnail = thumbnailPath(of: item) { unlink(thumbnail) }
            throw error
        }
    }

    // MARK: - Removing and exporting

    /// Deletes an item: its row and its file in one transaction (from its commit on it is gone for
    /// every reader), then its thumbnail.
    /// - Returns: The item that was deleted.
    /// - Throws: ``GalleryError/noSuchItem(id:)``; ``GalleryError/fileNotRemoved(id:path:reason:)`` when
    ///   the file cannot be removed (a read-only folder): the row is kept, so the item stays whole.
    @discardableResult
    public func delete(id: Int64) throws(GalleryError) -> GalleryItem {
        let row = try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [id]) else { return Row?.none }
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id])
            // The file goes inside the row's transaction: if it cannot be removed, the row stays.
            let item = GalleryItem(row: row)
            let path = path(of: item)
            if unlink(path) != 0, errno != ENOENT {
                throw GalleryError.fileNotRemoved(id: id, path: path, reason: String(cString: strerror(errno)))
            }
            return row
        }
        guard let row else { throw .noSuchItem(id: id) }
        let item = GalleryItem(row: row)
        if let thumbnail = thumbnailPath(of: item) { unlink(thumbnail) }
        if let alternate = alternatePath(of: item) { unlink(alternate) }
        DurableFiles.flushFolder(folder + "/" + item.kind.folderName)
        return item
    }

    /// Copies an item's file to `destination` (atomically; an existing file there is replaced),
    /// after checking that it holds the bytes saved.
    /// - Returns: The item exported.
    @discardableResult
    public func export(id: Int64, to destination: String) throws(GalleryError) -> GalleryItem {
        let item = try item(id: id)
        try verify(item)
        do {
            let bytes = try FileAccess.read(path(of: item))
            try FileAccess.write(bytes, to: destination)
        } catch {
            throw .file(error)
        }
        return item
    }

    // MARK: - Helpers

    func read<T>(_ body: (Database) throws -> T) throws(GalleryError) -> T {
        try Self.read(database, in: folder, body)
    }

    static func read<T>(_ database: any DatabaseWriter, in folder: String, _ body: (Database) throws -> T) throws(GalleryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw .database(path: folder + "/" + Self.databaseName, reason: Self.reason(for: error))
        }
    }

    /// Where a read-only gallery's database is opened. SQLite opens a WAL database read-only only
    /// when its shared-memory file exists or can be made, which a folder that cannot be written
    /// does not allow; a database closed cleanly (no -wal file) is then opened as immutable.
    static func readOnlyLocation(of path: String) -> String {
        guard !FileManager.default.fileExists(atPath: path + "-wal") else { return path }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?immutable=1"
    }

    /// Refuses to write when the database file at the gallery's path is no longer the one opened
    /// (deleted or replaced while the gallery was open): SQLite would go on writing into the open
    /// file, and each save would be acknowledged into nothing. Only `lstat`: the file itself is never
    /// opened here (see ``checkDatabaseHeader(_:path:)``).
    func checkDatabaseFile() throws(GalleryError) {
        let path = folder + "/" + Self.databaseName
        guard let found = FileIdentity(path: path) else {
            throw .database(path: path, reason: "the database file was deleted while the gallery was open: nothing is saved or deleted "
                + "until the gallery is opened again (the photos and videos are still in the folder)")
        }
        guard found == databaseIdentity else {
            throw .database(path: path, reason: "the database file was replaced while the gallery was open: nothing is saved or deleted "
                + "until the gallery is opened again")
        }
    }

    /// Refuses to write when the database file was overwritten in place with something that is not
    /// SQLite. The header is read through the descriptor SQLite itself holds (its VFS's `xRead`),
    /// never through one of our own: closing any descriptor of a file drops every POSIX lock the
    /// process holds on it, SQLite's included, and another process (the CLI beside the studio) would
    /// then take the database for unused, checkpoint it and delete its write-ahead log under us.
    static func checkDatabaseHeader(_ db: Database, path: String) throws(GalleryError) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let read = file.pointee.pMethods?.pointee.xRead else {
            throw .database(path: path, reason: "SQLite did not give the database file's handle to check its header")
        }
        var header = [UInt8](repeating: 0, count: 16)
        // A short file reads as zeros past its end (SQLITE_IOERR_SHORT_READ), which the comparison refuses.
        _ = header.withUnsafeMutableBytes { read(file, $0.baseAddress, 16, 0) }
        guard header == Array("SQLite format 3\u{0}".utf8) else {
            throw .database(path: path, reason: "the database file was overwritten with something that is not SQLite: nothing is saved "
                + "or deleted; `ocular gallery check` tells what is left")
        }
    }

    /// The bytes the items take: their files (and alternates), as their rows record them, and the
    /// rows' own text, so a quota bounds the database too, not only the folders.
    static func bytesUsed(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(byteCount + COALESCE(alternateByteCount, 0) + \(GalleryItem.rowByteCountSQL)), 0) FROM item") ?? 0
    }

    func write<T>(_ body: (Database) throws -> T) throws(GalleryError) -> T {
        guard !isReadOnly else { throw .readOnly(path: folder) }
        try checkDatabaseFile()
        let path = folder + "/" + Self.databaseName
        do {
            return try database.write { db in
                try Self.checkDatabaseHeader(db, path: path)
                return try body(db)
            }
        } catch let error as GalleryError {
            throw error
        } catch {
            throw .database(path: folder + "/" + Self.databaseName, reason: Self.reason(for: error))
        }
    }

    static func reason(for error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    static func normalised(_ folder: String) -> String {
        let absolute = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    private static func makeFolder(_ path: String) throws(GalleryError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw .unusableFolder(path: path, reason: "it is a file, not a folder") }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw .unusableFolder(path: path, reason: FileAccess.reason(for: error))
            }
        }
        guard access(path, W_OK | X_OK) == 0 else { throw .unusableFolder(path: path, reason: "permission denied") }
    }
}

/// A file's device and inode: the same path may name another file later.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`, nil when none is there.
    /// - Parameter followingLinks: Whether a final symbolic link is followed to the file it names.
    init?(path: String, followingLinks: Bool = false) {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

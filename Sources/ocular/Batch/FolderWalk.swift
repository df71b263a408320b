import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The walk under a folder a batch is given, by the file system's own calls (`opendir`, `readdir`, `stat`):
/// Foundation's enumerator dropped a name that is not UTF-8 and a folder it could not list without a word,
/// and walked nothing under a folder named through a symbolic link.
struct FolderWalk {
    /// A file or folder as the file system knows it, whatever its path's spelling.
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// An image or video found, or what could not be handed over in its place.
    struct Found {
        let path: String
        /// Its path below the folder walked.
        let relative: String
        let refusal: BatchResult.Failure?
    }

    private(set) var found: [Found] = []
    /// Folders not to enter: the output folders, and every folder entered so far (a link back up walks nothing twice).
    private var skipped: Set<Identity>

    init(skipping: [Identity]) {
        skipped = Set(skipping)
    }

    /// What `path` is, following symbolic links; nil when it does not exist.
    static func identity(of path: String) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Identity(status)
    }

    /// Walks `folder` (its images and videos by extension; hidden names skipped), whose own identity is
    /// `identity`, `relative` below the folder the walk began at ("" for that folder).
    /// - Returns: Why the folder itself cannot be listed, or nil; a subfolder that cannot is recorded in `found`.
    @discardableResult
    mutating func visit(_ folder: String, relative: String, identity: Identity) -> String? {
        skipped.insert(identity)
        guard let directory = opendir(folder) else {
            let reason = String(cString: strerror(errno))
            if relative.isEmpty { return reason }
            found.append(Found(path: folder, relative: relative,
                               refusal: BatchResult.Failure(code: "batch.unlistableFolder", message: "cannot list the folder \(folder): \(reason)")))
            return nil
        }
        var entries: [(name: [UInt8], isText: Bool)] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard let first = bytes.first, first != UInt8(ascii: ".") else { continue }
            let isText = String(validating: bytes, as: UTF8.self) != nil
            // A plain file that is no image or video needs no stat (links and unknown types do).
            if entry.pointee.d_type == UInt8(DT_REG), isText, !Self.isMedia(String(decoding: bytes, as: UTF8.self)) { continue }
            entries.append((bytes, isText))
        }
        closedir(directory)
        for entry in entries {
            let name = String(decoding: entry.name, as: UTF8.self)
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let isMedia = Self.isMedia(name)
            guard entry.isText else {
                // Its path as a String is not its path on disk: it could be named but not opened again.
                if isMedia || Self.isFolder(bytes: Array(folder.utf8) + [UInt8(ascii: "/")] + entry.name) {
                    found.append(Found(path: path, relative: childRelative, refusal: BatchResult.Failure(
                        code: "batch.unreadableName",
                        message: "cannot read \(path): its name is not UTF-8 text, which the batch cannot open by name; rename it")))
                }
                continue
            }
            var status = stat()
            guard stat(path, &status) == 0 else { continue }  // a link to nothing
            if status.st_mode & S_IFMT == S_IFDIR {
                let identity = Identity(status)
                if !skipped.contains(identity) { visit(path, relative: childRelative, identity: identity) }
            } else if status.st_mode & S_IFMT == S_IFREG, isMedia {
                found.append(Found(path: path, relative: childRelative, refusal: nil))
            }
        }
        return nil
    }

    private static func isMedia(_ name: String) -> Bool {
        let fileExtension = BatchFormats.fileExtension(name)
        return BatchFormats.images.contains(fileExtension) || BatchFormats.videos.contains(fileExtension)
    }

    private static func isFolder(bytes path: [UInt8]) -> Bool {
        var status = stat()
        let result = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) }
        }
        return result == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

import Foundation
import Ocular

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files that are whole or absent: written to a hidden partial file, flushed to the disk, then
/// linked under a name no other file has, with the folder flushed too. A process killed at any
/// moment leaves either nothing under the final name or every byte; the partial file it may leave
/// is removed by the next ``PartialFiles/sweepStale(besides:)``.
enum DurableFiles {
    /// Writes `bytes` to a new file in `folder`, named `preferredName` or, when that is taken,
    /// "stem-2.ext", "stem-3.ext", …; an existing file is never replaced.
    /// - Returns: The name the file got.
    static func create(_ bytes: some ContiguousBytes, in folder: String, preferredName: String) throws(GalleryError) -> String {
        let partial = PartialFiles.make(for: folder + "/" + preferredName)
        defer { PartialFiles.finished(partial) }
        do throws(GalleryError) {
            try writeAndFlush(bytes, to: partial, named: folder + "/" + preferredName)
            return try place(partial, in: folder, preferredName: preferredName)
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// Copies the file at `source` into `folder` the same way, in chunks (videos may be large).
    /// - Returns: The name the copy got and the CRC-32 and size of what was copied.
    static func copy(_ source: String, in folder: String, preferredName: String) throws(GalleryError) -> (name: String, checksum: UInt32, byteCount: Int) {
        let partial = PartialFiles.make(for: folder + "/" + preferredName)
        defer { PartialFiles.finished(partial) }
        do throws(GalleryError) {
            let named = folder + "/" + preferredName
            let output = try openNew(partial, named: named)
            var checksum = Checksum()
            let byteCount: Int
            do throws(GalleryError) {
                byteCount = try readChunks(of: source) { (chunk) throws(GalleryError) in
                    checksum.add(chunk)
                    try writeAll(chunk, to: output, named: named)
                }
                try flushAndClose(output, named: named)
            } catch {
                close(output)
                throw error
            }
            return (try place(partial, in: folder, preferredName: preferredName), checksum.value, byteCount)
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// CRC-32 and size of a file's bytes.
    static func checksum(ofFileAt path: String) throws(GalleryError) -> (checksum: UInt32, byteCount: Int) {
        var checksum = Checksum()
        let byteCount = try readChunks(of: path) { checksum.add($0) }
        return (checksum.value, byteCount)
    }

    /// Reads a file in 1 MiB chunks (a video may not fit in memory).
    /// - Returns: How many bytes it held.
    private static func readChunks(of path: String, _ body: (UnsafeRawBufferPointer) throws(GalleryError) -> Void) throws(GalleryError) -> Int {
        let input: Int32
        switch openOwnFile(path) {
        case .opened(let descriptor, _): input = descriptor
        case .missing: throw .file(.fileNotFound(path: path))
        case .unusable(let reason): throw .file(.unreadableFile(path: path, reason: reason))
        }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var byteCount = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .file(.unreadableFile(path: path, reason: String(cString: strerror(errno)))) }
            if count == 0 { return byteCount }
            try withBytes(buffer) { (raw) throws(GalleryError) in try body(UnsafeRawBufferPointer(rebasing: raw.prefix(count))) }
            byteCount += count
        }
    }

    /// How opening one of the gallery's own files went.
    enum OwnFileOpening {
        /// Open for reading (blocking); the caller closes it.
        case opened(descriptor: Int32, size: Int)
        case missing
        case unusable(reason: String)
    }

    /// Opens one of the gallery's own files for reading. They are its own: never a symbolic link out
    /// of the folder (the gallery never makes one), never a FIFO to wait on; a regular file.
    static func openOwnFile(_ path: String) -> OwnFileOpening {
        // O_NONBLOCK: opening a FIFO put in the file's place must not wait for a writer.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .missing
            case ELOOP: return .unusable(reason: "it is a symbolic link, which the gallery never makes")
            default: return .unusable(reason: String(cString: strerror(errno)))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return .unusable(reason: "it is not a regular file")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .opened(descriptor: descriptor, size: Int(status.st_size))
    }

    /// Flushes a folder's entries (a new or removed name) to the disk.
    static func flushFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    // MARK: - Steps

    /// `withUnsafeBytes` with a typed error (the standard library's rethrows an untyped one).
    private static func withBytes<R>(_ bytes: some ContiguousBytes, _ body: (UnsafeRawBufferPointer) throws(GalleryError) -> R) throws(GalleryError) -> R {
        let result: Result<R, GalleryError> = bytes.withUnsafeBytes { raw in Result { () throws(GalleryError) in try body(raw) } }
        return try result.get()
    }

    // Errors name the file being made (`named`), not its hidden partial name.

    private static func openNew(_ path: String, named: String) throws(GalleryError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .file(.writeFailed(path: named, reason: String(cString: strerror(errno)))) }
        return descriptor
    }

    private static func writeAndFlush(_ bytes: some ContiguousBytes, to path: String, named: String) throws(GalleryError) {
        let descriptor = try openNew(path, named: named)
        do throws(GalleryError) {
            try withBytes(bytes) { (raw) throws(GalleryError) in try writeAll(raw, to: descriptor, named: named) }
            try flushAndClose(descriptor, named: named)
        } catch {
            close(descriptor)
            throw error
        }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, named path: String) throws(GalleryError) {
        let failure = FileAccess.writeAll(bytes, to: descriptor)
        guard failure == 0 else { throw .file(.writeFailed(path: path, reason: String(cString: strerror(failure)))) }
    }

    /// fsync before the name appears: without it a crash of the machine could leave the name
    /// pointing at a file of zeros.
    private static func flushAndClose(_ descriptor: Int32, named path: String) throws(GalleryError) {
        guard fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .file(.writeFailed(path: path, reason: "cannot flush it to the disk: \(reason)"))
        }
        guard close(descriptor) == 0 else { throw .file(.writeFailed(path: path, reason: String(cString: strerror(errno)))) }
    }

    /// Flushes a complete file someone else wrote (a video from FFmpeg) and links it under the first
    /// free number from `first` on ("7.mp4", "8.mp4", …; see ``nextNumber(in:fileExtension:)``).
    /// A file is never replaced.
    /// - Returns: The name the file got.
    static func placeNumbered(_ partial: String, in folder: String, from first: Int, fileExtension: String,
                              named: String) throws(GalleryError) -> String {
        let descriptor = open(partial, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .file(.writeFailed(path: named, reason: String(cString: strerror(errno)))) }
        try flushAndClose(descriptor, named: named)
        let names = (first..<(first + 10_000)).lazy.map { "\($0).\(fileExtension)" }
        guard let name = try linkUnderFirstFreeName(partial, in: folder, names: names) else {
            throw .file(.writeFailed(path: named, reason: "10,000 numbered files follow number \(first)"))
        }
        return name
    }

    /// One past the highest "N.ext" in the folder, so a deleted recording's number is not given again;
    /// 0 when there is none.
    static func nextNumber(in folder: String, fileExtension: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let numbers = names.compactMap { name -> Int? in
            guard name.hasSuffix("." + fileExtension) else { return nil }
            let stem = name.dropLast(fileExtension.count + 1)
            guard !stem.isEmpty, stem.count <= 9, stem.allSatisfy(\.isASCII), stem.allSatisfy(\.isNumber) else { return nil }
            return Int(stem)
        }
        return (numbers.max() ?? -1) + 1
    }

    /// Gives the flushed partial file its final name with link(2), which fails rather than replace
    /// a file of that name (rename(2) would replace it), then drops the partial name.
    private static func place(_ partial: String, in folder: String, preferredName: String) throws(GalleryError) -> String {
        let stem = (preferredName as NSString).deletingPathExtension
        let fileExtension = (preferredName as NSString).pathExtension
        let names = (1...10_000).lazy.map { attempt in
            attempt == 1 ? preferredName : "\(stem)-\(attempt)" + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
        }
        guard let name = try linkUnderFirstFreeName(partial, in: folder, names: names) else {
            throw .file(.writeFailed(path: folder + "/" + preferredName, reason: "10,000 files already have this name or a numbered variant of it"))
        }
        return name
    }

    /// Links the partial file under the first of `names` no file has yet, then drops the partial name.
    /// - Returns: The name it got; nil when every name was taken.
    private static func linkUnderFirstFreeName(_ partial: String, in folder: String, names: some Sequence<String>) throws(GalleryError) -> String? {
        for name in names {
            if link(partial, folder + "/" + name) == 0 {
                unlink(partial)
                flushFolder(folder)
                return name
            }
            guard errno == EEXIST else {
                throw .file(.writeFailed(path: folder + "/" + name, reason: String(cString: strerror(errno))))
            }
        }
        return nil
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// write(2), by a name the methods called `write` below do not hide.
private func writeSome(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// Reading and writing whole files with errors that say what is wrong in words.
///
/// The type of a path is checked before it is opened: opening a FIFO for reading blocks until a
/// writer appears, and reading a device such as /dev/zero never ends, so neither may be opened.
package enum FileAccess {
    /// The largest file read whole: OpenCV decodes at most 2 GiB at once.
    static let maximumReadBytes = Int(Int32.max)

    /// Reads a whole regular file, or with `limit` only its first bytes.
    package static func read(_ path: String, upTo limit: Int? = nil) throws(OcularError) -> Data {
        let size = try regularFileSize(path)
        if limit == nil, size > maximumReadBytes {
            throw .unreadableFile(path: path, reason: "it holds \(size) bytes, more than the \(maximumReadBytes) an image file may have")
        }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return try handle.read(upToCount: limit ?? max(size, 1)) ?? Data()
        } catch let error as CocoaError where error.code == .fileReadNoPermission {
            throw .unreadableFile(path: path, reason: "permission denied")
        } catch {
            throw .unreadableFile(path: path, reason: reason(for: error))
        }
    }

    /// The size of the regular file at `path`, or why it is not one.
    package static func regularFileSize(_ path: String) throws(OcularError) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else {
            switch errno {
            case ENOENT: throw .fileNotFound(path: path)
            case ENOTDIR: throw .fileNotFound(path: path)
            case EACCES: throw .unreadableFile(path: path, reason: "permission denied")
            default: throw .unreadableFile(path: path, reason: String(cString: strerror(errno)))
            }
        }
        if let kind = kind(of: status.st_mode) { throw .unreadableFile(path: path, reason: "it is \(kind), not a file") }
        return Int(status.st_size)
    }

    /// Checks that a file can be created at `path`: its folder exists and the path is not a folder.
    package static func checkWritable(_ path: String) throws(OcularError) {
        var status = stat()
        if stat(path, &status) == 0, let kind = kind(of: status.st_mode) {
            throw .writeFailed(path: path, reason: "it is \(kind); give a file name")
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        guard stat(folder, &status) == 0 else {
            throw .writeFailed(path: path, reason: "the folder '\(folder)' does not exist")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .writeFailed(path: path, reason: "'\(folder)' is not a folder")
        }
        guard access(folder, W_OK) == 0 else {
            let reason = errno == EROFS ? "the file system is read-only" : "permission denied"
            throw .writeFailed(path: path, reason: "\(reason): cannot create files in '\(folder)'")
        }
    }

    /// Writes `bytes` atomically: a failure never leaves a partial file at `path`.
    package static func write(_ bytes: some DataProtocol, to path: String) throws(OcularError) {
        try checkWritable(path)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch let error as CocoaError where error.code == .fileWriteNoPermission {
            throw .writeFailed(path: path, reason: "permission denied")
        } catch {
            throw .writeFailed(path: path, reason: reason(for: error))
        }
    }

    /// Creates the file at `path`, which must not exist yet, and writes `bytes` into it without
    /// waiting for the disk: for a partial file that a caller flushes (several at once) before
    /// renaming it into place. On failure the partial file is removed.
    package static func writeNew(_ bytes: [UInt8], to path: String) throws(OcularError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        var failure = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(path)
            throw .writeFailed(path: path, reason: String(cString: strerror(failure)))
        }
    }

    /// Writes all of `bytes` to an open file, again after an interrupted or short write.
    /// - Returns: 0 when all were written, else the errno of the write that failed (EIO for a write
    ///   that wrote nothing without saying why).
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var written = 0
        while written < bytes.count {
            let count = writeSome(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EIO }
            written += count
        }
        return 0
    }

    /// What a path that is not a regular file is, in words; nil for a regular file.
    package static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }

    /// Foundation's errors read "The operation could not be completed" plus a domain and code; the
    /// POSIX reason underneath says more.
    package static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        // The system's own words for the errno under Foundation's error ("Read-only file system"), not
        // Foundation's ("The operation could not be completed. The volume is read only."). On Linux
        // the underlying error may be a Swift POSIXError, which no `as? NSError` cast finds.
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error {
            if let posix = underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
            let inner = underlying as NSError
            if inner.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(inner.code))) }
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return error.localizedDescription
    }
}

import Foundation
import Ocular

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An item's file opened for serving, checked first: opened without following a symbolic link, a
/// regular file, of the size its row records and, when small enough to hash on the fly, of the
/// CRC-32 it records. A file that fails a check is never handed out as good.
///
/// The checks are made on the open descriptor, and the bytes are read from it: a file swapped in
/// after the check is never the one served.
public final class GalleryFile: @unchecked Sendable {
    /// The file's size in bytes.
    public let size: Int
    /// The whole file, when it was read to be hashed.
    public let contents: [UInt8]?
    private let descriptor: Int32

    /// Opens `path` and checks it against `item` (a thumbnail has none: only its kind is checked).
    /// - Parameter hashingUpTo: Files up to this size are read whole and their CRC-32 compared.
    /// - Throws: ``GalleryError/missingFile(id:path:)``, or ``GalleryError/damagedFile(id:path:reason:)``
    ///   saying what is wrong.
    public init(path: String, expecting item: GalleryItem?, hashingUpTo limit: Int = 64 << 20) throws(GalleryError) {
        let id = item?.id ?? 0
        let opened: Int32
        switch DurableFiles.openOwnFile(path) {
        case .opened(let descriptor, let found):
            opened = descriptor
            size = found
        case .missing: throw .missingFile(id: id, path: path)
        case .unusable(let reason): throw .damagedFile(id: id, path: path, reason: reason)
        }
        descriptor = opened
        if let item, size != item.byteCount {
            close(opened)
            throw .damagedFile(id: id, path: path, reason: "it holds \(size) bytes; \(item.byteCount) were saved")
        }
        guard size <= limit else {
            contents = nil
            return
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let read = bytes.withUnsafeMutableBytes { Self.readFully(opened, into: $0, at: 0) }
        guard read == size else {
            close(opened)
            throw .damagedFile(id: id, path: path, reason: "only \(max(read, 0)) of its \(size) bytes could be read")
        }
        if let item {
            let found = Checksum.of(bytes)
            guard found == item.checksum else {
                close(opened)
                throw .damagedFile(id: id, path: path, reason: "its CRC-32 is \(Gallery.hex(found)); \(Gallery.hex(item.checksum)) was saved")
            }
        }
        contents = bytes
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from `offset`, read from the open file (or the bytes already read).
    public func read(offset: Int, count: Int) -> [UInt8] {
        let end = min(size, offset + max(0, count))
        guard offset >= 0, offset < end else { return [] }
        if let contents { return Array(contents[offset..<end]) }
        var bytes = [UInt8](repeating: 0, count: end - offset)
        let read = bytes.withUnsafeMutableBytes { Self.readFully(descriptor, into: $0, at: offset) }
        return Array(bytes.prefix(max(0, read)))
    }

    /// pread until the buffer is full or the file ends; the count read, or -1.
    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? -1 : done }
            done += count
        }
        return done
    }
}

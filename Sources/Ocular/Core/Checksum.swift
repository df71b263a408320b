internal import CZlib
import Foundation

/// zlib's CRC-32, fed in pieces (`package`: the gallery checks its files with it).
package struct Checksum {
    package private(set) var value: UInt32 = 0

    package init() {}

    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while !rest.isEmpty {
            // zlib counts in 32-bit lengths.
            let piece = rest.prefix(1 << 30)
            let start = piece.isEmpty ? nil : rest.baseAddress?.assumingMemoryBound(to: Bytef.self)
            value = UInt32(truncatingIfNeeded: crc32(uLong(value), start, uInt(piece.count)))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(piece.count))
        }
    }

    package static func of(_ bytes: some ContiguousBytes) -> UInt32 {
        var checksum = Checksum()
        bytes.withUnsafeBytes { checksum.add($0) }
        return checksum.value
    }
}

// Inputs crafted by hand that the library, CLI and studio tests all try.

/// The 45-byte PNG that used to crash every surface: a signature, an IHDR claiming
/// 4294967295 × 4294967295 (with a correct CRC), and IEND.
public func forgedHugePNG() -> [UInt8] {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        let length = UInt32(data.count), crc = crc32(typed)
        return (0..<4).map { UInt8(truncatingIfNeeded: length >> (24 - 8 * UInt32($0))) } + typed
            + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32($0))) }
    }
    let header: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 2, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IEND", [])
}

/// The CRC-32 of PNG chunks (ISO 3309, reflected polynomial 0xEDB88320).
public func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// 37 bytes without any image signature that one of OpenCV 4.6's decoders nevertheless reads as a
/// 16164 × 11264 colour image: 546 MB and seconds of work, unless refused before decoding
/// (found by `make fuzz`).
public let signaturelessJunk: [UInt8] = [
    0x2F, 0x23, 0xFF, 0xFF, 0x1A, 0x8C, 0x8C, 0x8C, 0x8C, 0x8C, 0x8C, 0x8C, 0x8C, 0x8C, 0x2F, 0x2F, 0x62, 0x48, 0x92, 0xC4, 0x46, 0x7B, 0x10, 0x00, 0x49, 0x44, 0x41, 0x54, 0x21, 0x47, 0x60, 0x82, 0x2E, 0x42, 0x2F, 0x23, 0x00,
]

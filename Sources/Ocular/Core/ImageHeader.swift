/// What the first bytes of a file say about the image inside, read without decoding it: enough to
/// refuse an oversized image before allocating its pixels, to tell "not an image" from "damaged",
/// and to spot truncated PNG and JPEG files (whose decoders would otherwise print warnings and
/// return half-gray pictures).
///
/// Every size is read from bytes a stranger wrote: offsets are checked against the buffer before
/// each read, and numbers are parsed with overflow checks.
struct ImageHeader: Equatable {
    enum Container: String {
        case png = "PNG", jpeg = "JPEG", bmp = "BMP", tiff = "TIFF", webp = "WebP", gif = "GIF"
        case portableAnymap = "PNM", portableFloatMap = "PFM", sunRaster = "Sun raster"
        case jpeg2000 = "JPEG 2000", openEXR = "OpenEXR", radiance = "Radiance HDR"
    }

    var container: Container
    /// The size the header claims, for the containers whose headers are parsed (PNG, JPEG, BMP, PNM,
    /// PFM, Sun raster, WebP): enough to apply the pixel limit before decoding.
    var width: Int?
    var height: Int?
    /// Whether `isGray` and `hasAlpha` were read from the header (PNG and JPEG), so that the decoder
    /// can be asked for exactly that layout and write straight into the image's storage.
    var knowsLayout = false
    var isGray = false
    var hasAlpha = false
    /// A reason when the structure shows the file ends early.
    var truncation: String?
    /// A reason when the file is a variant whose OpenCV decoder is known to return wrong pixels.
    var unreliableVariant: String?

    /// Recognises the container from its signature, and for PNG and JPEG reads size and layout.
    init?(_ bytes: UnsafeRawBufferPointer) {
        func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && zip(bytes[offset...], signature).allSatisfy { $0 == $1 }
        }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            container = .png
            readPNG(bytes)
        } else if starts(with: [0xFF, 0xD8, 0xFF]) {
            container = .jpeg
            readJPEG(bytes)
        } else if starts(with: Array("BM".utf8)) {
            container = .bmp
            readBMP(bytes)
        } else if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            container = .tiff
        } else if starts(with: Array("RIFF".utf8)), starts(with: Array("WEBP".utf8), at: 8) {
            container = .webp
            readWebP(bytes)
        } else if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) {
            container = .gif
        } else if bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(bytes[1]),
                  [0x09, 0x0A, 0x0D, 0x20].contains(bytes[2]) {
            container = .portableAnymap
            readAnymap(bytes)
        } else if bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), [UInt8(ascii: "F"), UInt8(ascii: "f")].contains(bytes[1]),
                  [0x09, 0x0A, 0x0D, 0x20].contains(bytes[2]) {
            container = .portableFloatMap
            readAnymap(bytes)
        } else if starts(with: [0x59, 0xA6, 0x6A, 0x95]) {
            container = .sunRaster
            if bytes.count >= 12 {
                width = Int(bigEndian32(bytes, at: 4))
                height = Int(bigEndian32(bytes, at: 8))
            }
        } else if starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts(with: [0xFF, 0x4F, 0xFF, 0x51]) {
            container = .jpeg2000
        } else if starts(with: [0x76, 0x2F, 0x31, 0x01]) {
            container = .openEXR
        } else if starts(with: Array("#?RADIANCE".utf8)) || starts(with: Array("#?RGBE".utf8)) {
            container = .radiance
        } else {
            return nil
        }
    }

    /// Walks the PNG chunks: IHDR gives size and colour type; a file that ends before IEND is truncated.
    private mutating func readPNG(_ bytes: UnsafeRawBufferPointer) {
        var offset = 8
        var sawEnd = false
        while offset + 8 <= bytes.count {
            let length = Int(bigEndian32(bytes, at: offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let next = offset + 12 + length
            if type == "IHDR", offset + 8 + 13 <= bytes.count {
                width = Int(bigEndian32(bytes, at: offset + 8))
                height = Int(bigEndian32(bytes, at: offset + 12))
                knowsLayout = true
                let colorType = bytes[offset + 17]
                isGray = colorType == 0 || colorType == 4
                hasAlpha = colorType == 4 || colorType == 6
            } else if type == "tRNS" {
                hasAlpha = true
            } else if type == "IEND" {
                sawEnd = true
                break
            }
            guard length >= 0, next <= bytes.count else { break }
            offset = next
        }
        if width == nil {
            truncation = "ends before its header (IHDR) is complete"
        } else if !sawEnd {
            truncation = "is truncated: the file ends before the image end marker (IEND)"
        }
    }

    /// Scans the JPEG markers up to the first frame header (SOF) for size and component count; a file
    /// without an end-of-image marker after its last scan is truncated.
    private mutating func readJPEG(_ bytes: UnsafeRawBufferPointer) {
        var offset = 2
        while offset + 4 <= bytes.count, width == nil {
            guard bytes[offset] == 0xFF else { break }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if (0xD0...0xD9).contains(marker) || marker == 0x01 { offset += 2; continue }  // no length
            let length = Int(bigEndian16(bytes, at: offset + 2))
            let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrameHeader, offset + 10 <= bytes.count {
                height = Int(bigEndian16(bytes, at: offset + 5))
                width = Int(bigEndian16(bytes, at: offset + 7))
                knowsLayout = true
                isGray = bytes[offset + 9] == 1
            }
            if marker == 0xDA { break }  // start of scan: entropy-coded data follows
            offset += 2 + length
        }
        guard width != nil else {
            truncation = "ends before its frame header (SOF) is complete"
            return
        }
        // Entropy-coded data never holds FF DA or FF D9 (0xFF is stuffed), so reading backwards the
        // first of the two met must be the end-of-image marker; usually it is the last two bytes.
        var index = bytes.count - 2
        while index >= 2 {
            if bytes[index] == 0xFF, bytes[index + 1] == 0xD9 { return }
            if bytes[index] == 0xFF, bytes[index + 1] == 0xDA { break }
            index -= 1
        }
        truncation = index >= 2
            ? "is truncated: the file ends before the end-of-image marker"
            : "is truncated: it has no image data (no start-of-scan marker)"
    }

    /// BMP: a 12-byte OS/2 core header holds 16-bit sizes, every later header 32-bit signed ones
    /// (a negative height means top-down rows).
    private mutating func readBMP(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 26 else { return }
        let headerSize = littleEndian32(bytes, at: 14)
        if headerSize == 12 {
            width = Int(littleEndian16(bytes, at: 18))
            height = Int(littleEndian16(bytes, at: 20))
        } else {
            width = Int(Int32(bitPattern: littleEndian32(bytes, at: 18)))
            height = Int(Int32(bitPattern: littleEndian32(bytes, at: 22))).magnitude.clampedToInt
        }
    }

    /// WebP: the first chunk is VP8 (lossy: 14-bit sizes after the key frame's start code), VP8L
    /// (lossless: 14-bit sizes minus one) or VP8X (extended: 24-bit canvas sizes minus one).
    private mutating func readWebP(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 30 else { return }
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 " where bytes[23] == 0x9D && bytes[24] == 0x01 && bytes[25] == 0x2A:
            width = Int(littleEndian16(bytes, at: 26) & 0x3FFF)
            height = Int(littleEndian16(bytes, at: 28) & 0x3FFF)
        case "VP8L" where bytes[20] == 0x2F:
            let bits = littleEndian32(bytes, at: 21)
            width = Int(bits & 0x3FFF) + 1
            height = Int((bits >> 14) & 0x3FFF) + 1
        case "VP8X":
            width = Int(littleEndian24(bytes, at: 24)) + 1
            height = Int(littleEndian24(bytes, at: 27)) + 1
        default:
            break
        }
    }

    /// PNM (P1–P6) and PFM: whitespace-separated decimal width and height after the magic number,
    /// with `#` comments; PAM (P7): WIDTH and HEIGHT lines. Numbers too long for Int are taken as
    /// over every limit.
    private mutating func readAnymap(_ bytes: UnsafeRawBufferPointer) {
        var offset = 2
        var tokens: [String] = []
        let limit = min(bytes.count, 4096)
        while offset < limit, tokens.count < (bytes[1] == UInt8(ascii: "7") ? 16 : 2) {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "#") {
                while offset < limit, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
            } else if [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20].contains(byte) {
                offset += 1
            } else {
                let start = offset
                while offset < limit, ![0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, UInt8(ascii: "#")].contains(bytes[offset]) { offset += 1 }
                tokens.append(String(decoding: bytes[start..<offset], as: UTF8.self))
            }
        }
        func number(_ token: String) -> Int? {
            guard !token.isEmpty, token.allSatisfy(\.isASCII), token.allSatisfy(\.isNumber) else { return nil }
            return Int(token) ?? Int.max  // all digits but too long: larger than any limit
        }
        if bytes[1] == UInt8(ascii: "7") {
            if let index = tokens.firstIndex(of: "WIDTH"), index + 1 < tokens.count { width = number(tokens[index + 1]) }
            if let index = tokens.firstIndex(of: "HEIGHT"), index + 1 < tokens.count { height = number(tokens[index + 1]) }
            // OpenCV 4.6 converts 2- and 4-channel PAM (gray or RGB with alpha) to the gray and colour
            // it is asked for by reading past the rows it decoded: the pixels are uninitialised memory
            // that differs from one decode to the next (found by the layout fixtures' fuzz test).
            if let index = tokens.firstIndex(of: "DEPTH"), index + 1 < tokens.count, let depth = number(tokens[index + 1]),
               depth != 1, depth != 3 {
                unreliableVariant = "has \(depth) channels (DEPTH \(depth)), which OpenCV \(OpenCV.version) decodes into garbage: convert it to PNG"
            }
        } else if tokens.count == 2 {
            width = number(tokens[0])
            height = number(tokens[1])
        }
    }

    private func littleEndian16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private func littleEndian24(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
    }

    private func littleEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    private func bigEndian16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}

private extension UInt {
    /// The value as an Int, or Int.max when it does not fit.
    var clampedToInt: Int { self > UInt(Int.max) ? Int.max : Int(self) }
}

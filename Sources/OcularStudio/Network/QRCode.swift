internal import CQRencode

/// A QR code (Debian's libqrencode), and its picture in a terminal: the studio prints its LAN address
/// as one, so a phone opens the studio by pointing its camera at the screen.
public struct QRCode: Sendable, Equatable {
    /// Modules per side.
    public let size: Int
    /// Row-major, `true` for a dark module.
    public let modules: [Bool]

    /// Encodes `text` as bytes, with error correction level M (15 % of the code may be lost).
    /// - Throws: ``QRCodeError`` when the text is too long for a QR code.
    public init(_ text: String) throws(QRCodeError) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { throw QRCodeError.tooLong(text.utf8.count) }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits are libqrencode's bookkeeping.
        self.size = size
        self.modules = (0..<(size * size)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at (`x`, `y`) is dark; outside the code (the quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// The code drawn with half blocks, two module rows per line, inside a light quiet zone of
    /// `quietZone` modules. With `colours`, dark is black on a white ground whatever the terminal's
    /// theme; without, light modules are drawn as blocks and dark as spaces, which scans on the dark
    /// background most terminals have.
    public func terminalText(quietZone: Int = 2, colours: Bool) -> String {
        let range = -quietZone..<(size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = colours ? "\u{1B}[30;107m" : ""
            for x in range {
                let upper = isDark(x: x, y: top), lower = top + 1 < range.upperBound && isDark(x: x, y: top + 1)
                // With colours the glyph paints the dark part; without, it paints the light part.
                let (paintUpper, paintLower) = colours ? (upper, lower) : (!upper, !lower || top + 1 >= range.upperBound)
                line += paintUpper ? (paintLower ? "█" : "▀") : (paintLower ? "▄" : " ")
            }
            lines.append(line + (colours ? "\u{1B}[0m" : ""))
        }
        return lines.joined(separator: "\n")
    }
}

public enum QRCodeError: Error, CustomStringConvertible, Equatable {
    case tooLong(Int)

    public var description: String {
        switch self {
        case .tooLong(let bytes): "\(bytes) bytes are too many for a QR code"
        }
    }
}

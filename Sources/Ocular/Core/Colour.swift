/// An sRGB colour, 8 bits a channel: what overlays are drawn in and what colour parameters hold
/// (`"#rrggbb"` in a recipe).
public struct Colour: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// Creates a colour from its 8-bit channels.
    /// - Parameters:
    ///   - red: Red, 0–255.
    ///   - green: Green, 0–255.
    ///   - blue: Blue, 0–255.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// From `"#rrggbb"` (either case, ASCII digits only); nil for anything else.
    /// - Parameter text: `#rrggbb`.
    public init?(hex text: String) {
        let digits = text.utf8.dropFirst()
        // Checked byte by byte: UInt32(_:radix:) would also take a sign ("#+fffff").
        guard text.hasPrefix("#"), digits.count == 6, digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }),
              let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
    }

    /// `"#rrggbb"`, lower case.
    public var hex: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The colour as `#rrggbb`.
    public var description: String { hex }

    /// Rec. 601 luma, as OpenCV's gray conversion weighs the channels.
    public var luma: Double { 0.299 * Double(red) + 0.587 * Double(green) + 0.114 * Double(blue) }

    /// #000000.
    public static let black = Colour(red: 0, green: 0, blue: 0)
    /// #ffffff.
    public static let white = Colour(red: 255, green: 255, blue: 255)
}

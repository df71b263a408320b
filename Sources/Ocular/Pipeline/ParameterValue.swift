/// A parameter's value as a recipe holds it: JSON-shaped, checked against a ``ParameterDescriptor``.
///
/// In JSON a number is a number, a flag `true`/`false`, a choice or an image id a string, a colour a
/// `"#rrggbb"` string, a point `[x, y]`, and "no image" `null`.
public enum ParameterValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A number parameter's value.
    case number(Double)
    /// A flag's value.
    case flag(Bool)
    /// A choice's option, a colour `"#rrggbb"` or an image's id.
    case text(String)
    /// A point in normalised coordinates.
    case point(x: Double, y: Double)
    /// No image.
    case none

    /// Decodes a number, flag, text, point or null.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for anything else.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .none
        } else if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let pair = try? container.decode([Double].self), pair.count == 2 {
            self = .point(x: pair[0], y: pair[1])
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a parameter value is a number, true or false, a string, [x, y] or null")
        }
    }

    /// Encodes the value as JSON's number, boolean, string, array or null.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number):
            if let whole = Self.whole(number) { try container.encode(whole) } else { try container.encode(number) }
        case .flag(let flag): try container.encode(flag)
        case .text(let text): try container.encode(text)
        case .point(let x, let y): try container.encode([x, y])
        case .none: try container.encodeNil()
        }
    }

    /// A number that is whole and well within Int64, as an integer: shown 7, not 7.0.
    private static func whole(_ number: Double) -> Int64? {
        number == number.rounded() && abs(number) < 1e15 ? Int64(number) : nil
    }

    /// As JSON would show it, for messages.
    public var description: String {
        switch self {
        case .number(let number): Self.whole(number).map(String.init) ?? String(number)
        case .flag(let flag): String(flag)
        case .text(let text): StageError.quoted(text, quote: "\"")
        case .point(let x, let y): "[\(x), \(y)]"
        case .none: "null"
        }
    }
}

import Foundation

/// A JSON value as the tests read the studio's messages, its HTTP answers and the CLI's output: typed,
/// with no `Any` to cast. A missing field
/// reads as ``null``, so `answer["slot"] == 1` needs no unwrapping.
package enum JSON: Codable, Equatable, Sendable, CustomStringConvertible,
           ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
           ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    case null
    case bool(Bool)
    case number(Double)
    case text(String)
    case list([JSON])
    case object([String: JSON])

    package init(stringLiteral value: String) { self = .text(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSON...) { self = .list(elements) }
    package init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Dictionary(elements, uniquingKeysWith: { $1 })) }
    package init(nilLiteral: ()) { self = .null }

    /// What `value` encodes as: a recipe, a point.
    package init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self = try JSONDecoder().decode(JSON.self, from: encoder.encode(value))
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .text(value) }
        else if let value = try? container.decode([JSON].self) { self = .list(value) }
        else { self = .object(try container.decode([String: JSON].self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    package subscript(key: String) -> JSON {
        if case .object(let members) = self { members[key] ?? .null } else { .null }
    }

    package subscript(index: Int) -> JSON {
        if case .list(let values) = self, values.indices.contains(index) { values[index] } else { .null }
    }

    package var text: String? { if case .text(let value) = self { value } else { nil } }
    package var double: Double? { if case .number(let value) = self { value } else { nil } }
    package var int: Int? { double.flatMap { $0.rounded() == $0 ? Int(exactly: $0) : nil } }
    package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    package var list: [JSON] { if case .list(let values) = self { values } else { [] } }
    package var keys: Set<String> { if case .object(let members) = self { Set(members.keys) } else { [] } }
    /// A list of numbers as numbers: a box's `[x, y, width, height]`.
    package var numbers: [Double] { list.compactMap(\.double) }

    /// Compact JSON with sorted keys.
    package var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Reads JSON bytes: an HTTP body, a message.
    package init(parsing data: some DataProtocol) throws {
        self = try JSONDecoder().decode(JSON.self, from: Data(data))
    }

    /// Reads JSON text: a CLI's output.
    package init(parsing text: String) throws {
        try self.init(parsing: Data(text.utf8))
    }

    /// A list's values as text: `["gray", "tint"]`.
    package var texts: [String] { list.compactMap(\.text) }
}

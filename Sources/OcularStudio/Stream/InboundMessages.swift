import Foundation
import Ocular

/// A message's fields beside its `type`, whichever way it goes: its coding keys, each described.
protocol DescribedFields {
    /// Every field, in the order the hello lists them: the keys the coder reads or writes.
    associatedtype CodingKeys: CodingKey & CaseIterable
    /// How the hello publishes a field and errors name what it must be.
    static func describe(_ field: CodingKeys) -> MessageField
}

extension DescribedFields {
    static var fields: [(name: String, field: MessageField)] {
        CodingKeys.allCases.map { ($0.stringValue, describe($0)) }
    }
}

/// The fields of one text message a page may send, beside its `type`: a `Decodable` type whose coding
/// keys are the fields it may have. The session checks a message's keys against them (a misspelt
/// field is refused by name), decodes the message once, and the hello publishes each as JSON Schema.
protocol MessageBody: Decodable, Sendable, DescribedFields {
    /// What the types cannot say (a caption's length, a point inside the frame).
    func check(as type: String) throws(StreamMessageError)
}

extension MessageBody {
    func check(as type: String) throws(StreamMessageError) {}
}

/// A field of a message as the hello publishes it and errors name it.
struct MessageField: Sendable {
    enum Kind: Sendable {
        case integer, number, boolean, text, object
        /// A list of numbers.
        case numbers
        /// A list of objects.
        case list
        /// A list of words.
        case texts
        /// One of these words.
        case choice([String])
    }

    let kind: Kind
    let required: Bool
    /// What it must be, in the words of an error: "1 or 2", "text".
    let meaning: String

    init(_ kind: Kind, required: Bool = false, _ meaning: String) {
        self.kind = kind
        self.required = required
        self.meaning = meaning
    }

    /// The field's JSON Schema.
    var schema: [String: SchemaValue] {
        var schema: [String: SchemaValue] = ["description": .text(meaning)]
        switch kind {
        case .integer: schema["type"] = .text("integer")
        case .number: schema["type"] = .text("number")
        case .boolean: schema["type"] = .text("boolean")
        case .text: schema["type"] = .text("string")
        case .object: schema["type"] = .text("object")
        case .numbers:
            schema["type"] = .text("array")
            schema["items"] = .object(["type": .text("number")])
        case .list:
            schema["type"] = .text("array")
            schema["items"] = .object(["type": .text("object")])
        case .texts:
            schema["type"] = .text("array")
            schema["items"] = .object(["type": .text("string")])
        case .choice(let words):
            schema["type"] = .text("string")
            schema["enum"] = .list(words.map(SchemaValue.text))
        }
        return schema
    }
}

/// A save's caption, which every save may carry: text of at most ``maxLength`` characters and
/// ``maxBytes`` bytes of UTF-8. Characters alone do not bound it: one character may be an "e" with
/// millions of combining accents (a 30 MB caption passed as one character and grew the database by 30 MB a save).
struct Caption: MessageBody {
    static let maxLength = 500
    /// Four bytes a character: room for any 500 characters of ordinary text, emoji included.
    static let maxBytes = 4 * maxLength
    let caption: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case caption }

    static func describe(_ field: CodingKeys) -> MessageField {
        MessageField(.text, "text")
    }

    func check(as type: String) throws(StreamMessageError) {
        if let caption, caption.utf8.count > Self.maxBytes || caption.count > Self.maxLength {
            throw StreamMessageError("a caption may have at most \(Self.maxLength) characters (\(Self.maxBytes) bytes of UTF-8)")
        }
    }
}

/// One message type an action (or the session) takes: its `type`, its fields, and how its body
/// becomes the receiver's message.
struct MessageDeclaration<Message>: Sendable {
    let type: String
    let fields: [(name: String, field: MessageField)]
    private let make: @Sendable (Data, String) throws(StreamMessageError) -> Message

    /// A message with fields: `.init("capture", Capture.self, Message.capture)`.
    init<Body: MessageBody>(_ type: String, _ body: Body.Type, _ message: @escaping @Sendable (Body) -> Message) {
        self.type = type
        fields = Body.fields
        make = { (data, type) throws(StreamMessageError) in
            let body = try Self.decode(Body.self, from: data, type: type)
            try body.check(as: type)
            return message(body)
        }
    }

    /// A message of only its type: `.init("merge", .merge)`.
    init(_ type: String, _ message: Message) where Message: Sendable {
        self.type = type
        fields = []
        make = { _, _ in message }
    }

    /// How a refusal says what the message has.
    var has: String { fields.isEmpty ? "only its type" : fields.map(\.name).joined(separator: ", ") }

    /// The message in `data` (its type and keys read into `envelope`): its keys checked against
    /// ``fields`` and for repeats, then decoded.
    /// - Throws: Naming the key the message does not have or names twice, or the field that is not
    ///   what it must be.
    func message(in envelope: StreamMessage.Envelope, data: Data) throws(StreamMessageError) -> Message {
        try envelope.refuseUnknownKeys(of: self)
        // A page's JSON.parse keeps a repeated key's last value, Foundation's decoder its first: neither
        // is guessed. Checked once the type is known to be this one, so the refusal quotes no unbounded text.
        if let repeated = JSONDuplicateKeys.first(in: data) {
            throw StreamMessageError("\(StreamMessageError.article(for: type)) \(type) message names \(StageError.quoted(repeated)) twice in one object; each key may appear once")
        }
        return try make(data, type)
    }

    private static func decode<Body: MessageBody>(_: Body.Type, from data: Data, type: String) throws(StreamMessageError) -> Body {
        let article = StreamMessageError.article(for: type)
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as StreamMessageError {
            throw error
        } catch DecodingError.keyNotFound(let key, _) {
            let field = Body.CodingKeys.allCases.first { $0.stringValue == key.stringValue }
            let meaning = field.map { ", " + Body.describe($0).meaning } ?? ""
            throw StreamMessageError("\(article) \(type) message needs \(StreamMessageError.article(for: key.stringValue)) \(key.stringValue)\(meaning)")
        } catch let error as DecodingError {
            // Foundation's decoder says a number that does not fit an integer field (1.5, 1e308, 2⁶³) is
            // "not valid JSON", at no field; the field is then found by its declared kind.
            if let field = error.fieldKey.flatMap({ key in Body.CodingKeys.allCases.first { $0.stringValue == key.stringValue } })
                ?? Self.integerFieldThatDoesNotFit(Body.self, in: data) {
                throw StreamMessageError("\(article) \(type) message's \(field.stringValue) must be \(Body.describe(field).meaning)")
            }
            throw StreamMessageError("\(article) \(type) message is not one: \(error)")
        } catch {
            throw StreamMessageError("\(article) \(type) message is not one: \(error)")
        }
    }

    /// The first integer field of `data` whose value is a number but not a whole one that fits an `Int`.
    private static func integerFieldThatDoesNotFit<Body: MessageBody>(_: Body.Type, in data: Data) -> Body.CodingKeys? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return Body.CodingKeys.allCases.first { key in
            guard case .integer = Body.describe(key).kind, let number = object[key.stringValue] as? NSNumber else { return false }
            let value = number.doubleValue
            return value.rounded() != value || !(Double(Int.min)..<Double(Int.max)).contains(value)
        }
    }

    /// What the hello publishes of it: its type, its fields' names, and its JSON Schema.
    var description: MessageDescription { MessageDescription(type: type, fields: fields) }
}

/// The messages a receiver (a page action, the session) takes: usually an enum with a case per
/// message type, so that its `receive` switches over them exhaustively.
protocol InboundMessages: Sendable {
    static var declarations: [MessageDeclaration<Self>] { get }
}

extension InboundMessages {
    /// The declaration of the message type `type`, if this receiver takes it.
    static func declaration(of type: String) -> MessageDeclaration<Self>? {
        declarations.first { $0.type == type }
    }
}

/// A message type as the hello lists it: `{"type":"capture","fields":["slot","at"],"schema":{…}}`.
struct MessageDescription: Encodable, Sendable {
    let type: String
    let fields: [String]
    /// JSON Schema (draft 2020-12) of the whole message, `type` included.
    let schema: [String: SchemaValue]
}

/// The few JSON values a schema needs.
indirect enum SchemaValue: Encodable, Sendable {
    case text(String)
    case boolean(Bool)
    case list([SchemaValue])
    case object([String: SchemaValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .boolean(let value): try container.encode(value)
        case .list(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}

extension StreamMessageError {
    /// "a" or "an" before a word, as errors name messages and fields.
    static func article(for word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }
}

private extension DecodingError {
    /// The message's field the error is in (the first key of its path).
    var fieldKey: (any CodingKey)? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.first
        case .keyNotFound(let key, let context):
            return context.codingPath.first ?? key
        @unknown default:
            return nil
        }
    }
}

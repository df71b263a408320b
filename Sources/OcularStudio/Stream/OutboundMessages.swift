import Foundation
import Ocular

/// The fields of a text message the server sends, beside its `type`: an `Encodable` whose coding keys
/// are its fields, declared as a page's messages are (``MessageBody``) so that the hello publishes each
/// with its JSON Schema and every client reads it by the same names.
protocol AnswerBody: Encodable, Sendable, DescribedFields {}

/// A page action's answer type, with its body's: declared once, then both published (``declaration``) and
/// sent (`Self.captured(Captured(…))`), so what the action sends is what the hello says, by construction.
struct ActionAnswerType<Body: AnswerBody>: Sendable {
    let type: String

    init(_ type: String) { self.type = type }

    /// What the hello publishes of it.
    var declaration: AnswerDeclaration { AnswerDeclaration(type, Body.self) }

    /// The message: `{"type": TYPE, …}` with the body's fields.
    func callAsFunction(_ body: Body) -> StreamMessage.Outbound { .answer(ActionAnswer(type: type, body: body)) }
}

/// One message type the server sends (the session or a page action): its `type` and its fields.
struct AnswerDeclaration: Sendable {
    let type: String
    let fields: [(name: String, field: MessageField)]
    /// What every field beyond the declared ones is, for a message whose fields are not known in
    /// advance (the annotations: one list per kind the recipe finds); nil when it has no others.
    let otherFields: MessageField?

    /// A message with a body: `.init("captured", Captured.self)`.
    init<Body: AnswerBody>(_ type: String, _ body: Body.Type) {
        self.type = type
        fields = Body.fields
        otherFields = nil
    }

    /// A message whose fields are named by what it carries: `{"type":"annotations","faces":[…]}`.
    init(_ type: String, every field: MessageField) {
        self.type = type
        fields = []
        otherFields = field
    }

    /// What the hello publishes of it: its type, its fields' names, and its JSON Schema.
    var description: MessageDescription {
        MessageDescription(type: type, fields: fields, others: otherFields)
    }
}

extension StreamMessage.Outbound {
    /// Every message type the session sends itself, in the order of its cases; a page action declares
    /// its own answers (``PageAction/answers``).
    static let declarations: [AnswerDeclaration] = [
        .init("hello", StreamMessage.Hello.self),
        .init("settings", StreamMessage.AppliedSettings.self),
        .init("error", StreamMessage.Refusal.self),
        .init("dropped", StreamMessage.Dropped.self),
        .init("saved", StreamMessage.Saved.self),
        .init("link", LinkReport.self),
        .init("annotations", every: MessageField(.list, "what the recipe found of one kind, under the kind's group: faces, blobs, …")),
    ]

    /// The session's own message types.
    static let ownTypes = declarations.map(\.type)
}

extension StreamMessage {
    /// `{"type":"settings",…}` after every accepted settings message: the recipe with every value spelled out.
    struct AppliedSettings: AnswerBody {
        let recipe: Recipe
        let quality: Int

        enum CodingKeys: String, CodingKey, CaseIterable { case recipe, quality }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .recipe: MessageField(.object, required: true, "the recipe, every parameter's value spelled out")
            case .quality: MessageField(.integer, required: true, "the answers' JPEG quality, 1 to 100")
            }
        }
    }

    /// `{"type":"error","about":TYPE,"message":…}`: what went wrong with a message (`about` its type,
    /// ``StreamMessage/unreadable`` for a text that is none) or, with `frame`, a frame (about "frame").
    struct Refusal: AnswerBody {
        let about: String
        let message: String
        let frame: Int?

        enum CodingKeys: String, CodingKey, CaseIterable { case about, message, frame }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .about: MessageField(.text, required: true, #"the type of the message refused; "frame" for a frame, "message" for a text that is no message"#)
            case .message: MessageField(.text, required: true, "what is wrong, and what would do")
            case .frame: MessageField(.integer, "the number of the frame refused")
            }
        }
    }

    /// `{"type":"dropped","frame":N,…}`: frame N arrived while another was processed and a newer one
    /// superseded it.
    struct Dropped: AnswerBody {
        let frame: Int
        var message = "a newer frame arrived before this one was processed"

        enum CodingKeys: String, CodingKey, CaseIterable { case frame, message }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .frame: MessageField(.integer, required: true, "the number of the frame dropped")
            case .message: MessageField(.text, required: true, "why")
            }
        }
    }

    /// `{"type":"saved","item":{…}}`: the frame just answered (or a page action's picture) is in the gallery.
    struct Saved: AnswerBody {
        let item: GalleryItemResource

        enum CodingKeys: String, CodingKey, CaseIterable { case item }

        static func describe(_ field: CodingKeys) -> MessageField {
            MessageField(.object, required: true, "the gallery's item: its id, caption, recipe and URLs")
        }
    }
}

extension MessageDescription {
    /// A message's description and JSON Schema from its fields, whichever way it goes.
    init(type: String, fields: [(name: String, field: MessageField)], others: MessageField? = nil) {
        var properties: [String: SchemaValue] = ["type": .object(["const": .text(type)])]
        for (name, field) in fields { properties[name] = .object(field.schema) }
        let required = ["type"] + fields.filter(\.field.required).map(\.name)
        self.init(type: type, fields: fields.map(\.name), schema: [
            "type": .text("object"),
            "properties": .object(properties),
            "required": .list(required.map(SchemaValue.text)),
            "additionalProperties": others.map { .object($0.schema) } ?? .boolean(false),
        ])
    }
}

import Foundation
import Ocular

/// A page's own request on the stream: the messages it takes, what it sees of the frames, and its
/// answers. Capture-and-merge (Many Masks), classify (Bean Counter), save and tap to focus are
/// actions; the session knows none of them by name. An action is made once per stream, for the
/// stream's page (see ``pages``), and lives as long as the stream.
///
/// Adding one: write the type, and add it to ``PageActionRegistry/standard``. The hello message
/// lists it, its messages are routed to it, and the fields it declares are the only ones its messages
/// may have.
protocol PageAction: AnyObject, Sendable {
    /// Names the action in the hello message: `faceMerge`.
    static var name: String { get }
    /// The messages it takes.
    static var messages: [PageMessage] { get }
    /// The pages it serves, by the name a page streams under (`manyMasks`); empty for every page.
    static var pages: [String] { get }

    init(context: PageActionContext)

    /// Each frame processed while its page is live, with its annotations; what it answers goes out
    /// after the frame's answer (a save waiting for that frame answers "saved").
    func observe(_ frame: Frame, recipe: Recipe) -> StreamMessage.Outbound?

    /// One of its messages, its keys checked against the declaration; nil when the answer comes later
    /// (after a frame).
    /// - Throws: When a field is not what the message takes; the session answers it as it answers
    ///   every message it cannot read (an error about "settings").
    func receive(_ message: InboundMessage) throws(StreamMessageError) -> StreamMessage.Outbound?
}

extension PageAction {
    static var pages: [String] { [] }
    func observe(_ frame: Frame, recipe: Recipe) -> StreamMessage.Outbound? { nil }

    /// Whether the action serves a page; a stream that names no page gets every action.
    static func serves(page: String?) -> Bool {
        guard let page else { return true }
        return pages.isEmpty || pages.contains(page)
    }
}

/// One message type of a page action: `{"type":"capture","slot":1}`.
struct PageMessage: Sendable, Encodable {
    /// The `type` it is sent with.
    let type: String
    /// The fields beside `type` it may have; any other is refused by name.
    let fields: [String]

    init(_ type: String, fields: [String] = []) {
        self.type = type
        self.fields = fields
    }

    /// How a refusal says what the message has.
    var has: String { fields.isEmpty ? "only its type" : fields.joined(separator: ", ") }
}

/// What a page action may use beside its message: the studio's limits, the session's gallery saves
/// (within its allowance), and the studio-wide Bean Counter classifier.
struct PageActionContext: Sendable {
    let configuration: StudioConfiguration
    let saves: GallerySaves
    let beans: BeanCounter?
}

/// The page actions a studio offers, in one place as ``StageRegistry`` holds the stages.
struct PageActionRegistry: Sendable {
    let actions: [any PageAction.Type]

    /// - Precondition: No two actions take the same message type, and none takes `settings` or
    ///   `received` (the session's own): a clash is a programming error.
    init(_ actions: [any PageAction.Type]) {
        var types = Set(StreamSession.ownTypes)
        for action in actions {
            for message in action.messages {
                precondition(types.insert(message.type).inserted, "the page action \(action.name) takes '\(message.type)', which another already takes")
            }
        }
        self.actions = actions
    }

    /// Save and tap to focus on every page, Many Masks' faces and Bean Counter's blobs on theirs.
    static let standard = PageActionRegistry([SaveFrameAction.self, FocusTapAction.self, FaceMergeAction.self, BlobReviewAction.self])

    /// This registry and more actions.
    func adding(_ more: [any PageAction.Type]) -> PageActionRegistry { PageActionRegistry(actions + more) }

    /// What the hello message says of each action.
    struct Description: Encodable, Sendable {
        let name: String
        let messages: [PageMessage]
        let pages: [String]

        init(of action: any PageAction.Type) {
            name = action.name
            messages = action.messages
            pages = action.pages
        }
    }
}

/// A text message for a page action: its type, and its fields read on demand as the action wants
/// them (the keys were checked against the declaration before it arrives).
struct InboundMessage: Sendable {
    let type: String
    let text: String

    /// A field as `Value`, nil when absent.
    /// - Throws: `otherwise` when the field is there but is no `Value`.
    func field<Value: Decodable>(_ name: String, as _: Value.Type, otherwise: @autoclosure () -> String) throws(StreamMessageError) -> Value? {
        do {
            return try Self.field(name, as: Value.self, in: text)
        } catch {
            throw StreamMessageError(otherwise())
        }
    }

    /// A field decoded as `Value` (nil when absent), with Swift's own decoding error for the caller
    /// to explain.
    static func field<Value: Decodable>(_ name: String, as _: Value.Type, in text: String) throws -> Value? {
        let decoder = JSONDecoder()
        decoder.userInfo[FieldOf<Value>.nameKey] = name
        return try decoder.decode(FieldOf<Value>.self, from: Data(text.utf8)).value
    }

    /// A caption, which every save may carry: text of at most 500 characters.
    func caption() throws(StreamMessageError) -> String? {
        let caption = try field("caption", as: String.self, otherwise: "a \(type) message's caption must be text")
        if let caption, caption.count > 500 { throw StreamMessageError("a caption may have at most 500 characters") }
        return caption
    }
}

/// Reads one named field of a JSON object.
private struct FieldOf<Value: Decodable>: Decodable {
    static var nameKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "ocular.field")! }
    let value: Value?

    init(from decoder: any Decoder) throws {
        let name = decoder.userInfo[Self.nameKey] as? String ?? ""
        value = try decoder.container(keyedBy: MessageKey.self).decodeIfPresent(Value.self, forKey: MessageKey(stringValue: name))
    }
}

/// Any key of a message object.
struct MessageKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A page action's answer of its own: `{"type": TYPE, …the body's fields}`.
struct ActionAnswer: Encodable, Sendable {
    let type: String
    let body: any Encodable & Sendable

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MessageKey.self)
        try container.encode(type, forKey: MessageKey(stringValue: "type"))
        try body.encode(to: encoder)
    }
}

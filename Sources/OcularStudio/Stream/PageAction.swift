import Foundation
import Ocular

/// A page's own request on the stream: the messages it takes, what it sees of the frames, and its
/// answers. Capture-and-merge (Many Masks), classify (Bean Counter), save and tap to focus are
/// actions; the session knows none of them by name. An action is made once per stream, for the
/// stream's page (see ``pages``), and lives as long as the stream.
///
/// Adding one: write the type, and add it to ``PageActionRegistry/standard``. The hello lists it with
/// the JSON Schema of each message it takes, its messages are routed to it, decoded, and their fields
/// are the only ones they may have.
protocol PageAction: AnyObject, Sendable {
    /// The messages it takes, each decoded before it arrives: an enum with a case per message type.
    associatedtype Message: InboundMessages

    /// Names the action in the hello message: `manyMasks`.
    static var name: String { get }
    /// The answers of its own it sends (`captured`, `merged`), beside the session's (``StreamMessage/Outbound/declarations``:
    /// an error, a save's `saved`), each with its body's fields: the declarations of the
    /// ``ActionAnswerType`` values it sends them by.
    static var answers: [AnswerDeclaration] { get }
    /// The pages it serves (`[.manyMasks]`); empty for every page.
    static var pages: [StudioPage] { get }

    init(context: PageActionContext)

    /// Each frame processed while its page is live, with its annotations; what it answers goes out
    /// after the frame's answer (a save waiting for that frame answers "saved").
    func observe(_ frame: Frame, recipe: Recipe) -> StreamMessage.Outbound?

    /// One of its messages, decoded; nil when the answer comes later (after a frame).
    /// - Throws: Why the message cannot be done; the session answers it as an error about the
    ///   message's type.
    func receive(_ message: Message) throws(StreamMessageError) -> StreamMessage.Outbound?
}

extension PageAction {
    static var pages: [StudioPage] { [] }
    static var answers: [AnswerDeclaration] { [] }
    func observe(_ frame: Frame, recipe: Recipe) -> StreamMessage.Outbound? { nil }

    /// What the hello says of it.
    static var description: PageActionRegistry.Description { PageActionRegistry.Description(of: Self.self) }

    /// The message types it takes.
    static var messageTypes: [String] { requestFields.map(\.type) }

    /// Whether the action serves a page; a stream that names no page gets every action.
    static func serves(page: String?) -> Bool {
        guard let page else { return true }
        return pages.isEmpty || pages.contains { $0.rawValue == page }
    }

    /// Decodes a message of one of its types and receives it.
    func receive(_ envelope: StreamMessage.Envelope, data: Data) throws(StreamMessageError) -> StreamMessage.Outbound? {
        guard let declaration = Message.declaration(of: envelope.type) else {
            throw StreamMessageError("the page action \(Self.name) takes no \(StageError.quoted(envelope.type)) message")
        }
        return try receive(declaration.message(in: envelope, data: data))
    }
}

/// What a page action may use beside its message: the studio's limits, the session's gallery saves
/// (within its allowance), and the studio-wide Bean Counter classifier.
struct PageActionContext: Sendable {
    let configuration: StudioConfiguration
    let saves: GallerySaves
    let beanCounter: BeanCounter?
}

/// The page actions a studio offers, in one place as ``StageRegistry`` holds the stages.
struct PageActionRegistry: Sendable {
    let actions: [any PageAction.Type]

    /// - Precondition: No two actions take the same message type or answer with the same type, and
    ///   none takes or answers with one of the session's own (`settings`): a clash is a programming error.
    init(_ actions: [any PageAction.Type]) {
        var types = Set(StreamSession.ownTypes)
        var answers = Set(StreamMessage.Outbound.ownTypes)
        for action in actions {
            for type in action.messageTypes {
                precondition(types.insert(type).inserted, "the page action \(action.name) takes '\(type)', which another already takes")
            }
            for answer in action.answers {
                precondition(answers.insert(answer.type).inserted, "the page action \(action.name) answers '\(answer.type)', which another already does")
            }
        }
        self.actions = actions
    }

    /// Save and tap to focus on every page, Many Masks' faces and Bean Counter's blobs on theirs.
    static let standard = PageActionRegistry([SaveFrameAction.self, FocusTapAction.self, ManyMasksAction.self, BeanCounterAction.self])

    /// This registry and more actions.
    func adding(_ more: [any PageAction.Type]) -> PageActionRegistry { PageActionRegistry(actions + more) }

    /// What the hello message says of each action.
    struct Description: Encodable, Sendable {
        let name: String
        let messages: [MessageDescription]
        let answers: [MessageDescription]
        let pages: [String]

        init<Action: PageAction>(of action: Action.Type) {
            name = action.name
            messages = Action.Message.declarations.map(\.description)
            answers = action.answers.map(\.description)
            pages = action.pages.map(\.rawValue)
        }
    }
}

/// Any key of a message object.
struct MessageKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A page action's answer of its own: `{"type": TYPE, …the body's fields}`, a type it declares in
/// ``PageAction/answers``.
struct ActionAnswer: Sendable {
    let type: String
    let body: any AnswerBody
}

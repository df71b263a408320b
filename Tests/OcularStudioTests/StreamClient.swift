import Foundation
import HummingbirdWSClient
import NIOCore
import Ocular
import OcularTestSupport
import Testing
@testable import OcularStudio

/// The messages a studio declares, both ways: what it takes (the session's own and its actions') and
/// what it sends. The tests build and read messages by these, as the page does by `/api/protocol.js`.
struct StreamProtocol: Sendable {
    let requests: [String: [String]]
    let answers: [String: AnswerDeclaration]

    init(actions: PageActionRegistry = .standard) {
        requests = Dictionary(ProtocolController.requests(of: actions).map { ($0.type, $0.fields) }, uniquingKeysWith: { first, _ in first })
        answers = Dictionary(ProtocolController.answerDeclarations(of: actions).map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A message of `type` with `fields`, as text: `request("capture", ["slot": 1])`.
    /// - Throws: When the studio takes no such message or it has no such field, naming it, as the page's
    ///   builders refuse them.
    func request(_ type: String, _ fields: [String: JSON] = [:]) throws -> String {
        guard let declared = requests[type] else { throw ProtocolMismatch(description: "the studio takes no '\(type)' message") }
        if let undeclared = fields.keys.sorted().first(where: { !declared.contains($0) }) {
            throw ProtocolMismatch(description: "a \(type) message has no '\(undeclared)'; it has \(declared)")
        }
        var object = fields
        object["type"] = .text(type)
        return JSON.object(object).description
    }

    /// A settings message: the recipe and, when given, the answers' quality.
    func settings(_ recipe: Recipe, quality: Int? = nil) throws -> String {
        var fields: [String: JSON] = ["recipe": try JSON(encoding: recipe)]
        if let quality { fields["quality"] = .number(Double(quality)) }
        return try request("settings", fields)
    }

    /// A message the server sent, read by its declarations.
    /// - Throws: When its type is one the studio does not send, or it has a field its type does not declare.
    func answer(_ text: String) throws -> ServerMessage {
        try answer(JSONDecoder().decode(JSON.self, from: Data(text.utf8)))
    }

    func answer(_ value: JSON) throws -> ServerMessage {
        guard let type = value["type"].text, let declaration = answers[type] else {
            throw ProtocolMismatch(description: "a message of a type the studio does not declare: \(value.description.prefix(300))")
        }
        if declaration.otherFields == nil {
            let declared = Set(declaration.fields.map(\.name) + ["type"])
            if let undeclared = value.keys.subtracting(declared).sorted().first {
                throw ProtocolMismatch(description: "a \(type) message with '\(undeclared)', which it does not declare: \(value.description.prefix(300))")
            }
        }
        return ServerMessage(type: type, body: value, declaration: declaration)
    }

    /// What the session answered, as a client reads it.
    func answer(_ reply: StreamMessage.Outbound?) throws -> ServerMessage {
        guard let reply else { throw ProtocolMismatch(description: "no answer") }
        return try answer(reply.json)
    }
}

/// A text message the server sent: a type it declares, read by the fields that type declares.
struct ServerMessage: CustomStringConvertible {
    let type: String
    let body: JSON
    let declaration: AnswerDeclaration

    /// A field; reading one its type does not declare fails the test, so a field renamed on the
    /// server breaks the test that reads it.
    subscript(field: String) -> JSON {
        if declaration.otherFields == nil, !declaration.fields.contains(where: { $0.name == field }) {
            Issue.record("a \(type) message has no '\(field)'; it has \(declaration.fields.map(\.name))")
        }
        return body[field]
    }

    /// An error's words.
    var message: String { self["message"].text ?? "" }

    var description: String { body.description }
}

/// A processed frame's answer as a client reads it: the number of the frame it answers, the messages
/// that go with it (its annotations, a save's answer), each read by its declaration, and its JPEG.
struct ReadFrameAnswer {
    let frame: Int
    let messages: [ServerMessage]
    let jpeg: [UInt8]

    init(_ message: WebSocketMessage?, protocol declared: StreamProtocol = StreamProtocol()) throws {
        guard case .binary(let buffer) = message else { throw ProtocolMismatch(description: "expected a frame, got \(String(describing: message))") }
        let (json, jpeg) = try StreamMessage.FrameAnswer.read(buffer)
        let header = try JSONDecoder().decode(JSON.self, from: json)
        guard let frame = header["frame"].int, case .list(let messages) = header["messages"], header.keys == ["frame", "messages"] else {
            throw ProtocolMismatch(description: "a frame answer's header is not {frame, messages}: \(header)")
        }
        self.frame = frame
        self.messages = try messages.map(declared.answer)
        self.jpeg = jpeg
    }

    var image: Image {
        get throws { try Image(decoding: jpeg, name: "reply") }
    }

    /// The frame's message of `type`, if it has one.
    func message(_ type: String) -> ServerMessage? { messages.first { $0.type == type } }
}

/// One client's `/api/stream` as the tests drive it: requests built and answers read by the studio's
/// declarations.
struct StreamClient {
    private var inbound: WebSocketInboundMessageStream.AsyncIterator
    let outbound: WebSocketOutboundWriter
    let declared: StreamProtocol

    init(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, maxSize: Int = 1 << 26, actions: PageActionRegistry = .standard) {
        self.inbound = inbound.messages(maxSize: maxSize).makeAsyncIterator()
        self.outbound = outbound
        declared = StreamProtocol(actions: actions)
    }

    /// Sends a declared message: `send("capture", ["slot": 1])`.
    func send(_ type: String, _ fields: [String: JSON] = [:]) async throws {
        try await outbound.write(.text(try declared.request(type, fields)))
    }

    /// Sends a settings message.
    func send(_ recipe: Recipe, quality: Int? = nil) async throws {
        try await outbound.write(.text(try declared.settings(recipe, quality: quality)))
    }

    /// Sends a frame, an encoded picture.
    func send(frame bytes: [UInt8]) async throws {
        try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
    }

    /// Sends text as it is: for what is deliberately no message the studio takes.
    func send(text: String) async throws {
        try await outbound.write(.text(text))
    }

    /// The next message, text or binary; nil when the stream ended.
    mutating func next() async throws -> WebSocketMessage? {
        try await inbound.next()
    }

    /// The next message, which must be a text message the studio declares.
    mutating func message() async throws -> ServerMessage {
        guard let next = try await inbound.next() else { throw ProtocolMismatch(description: "the stream ended before a message") }
        guard case .text(let text) = next else { throw ProtocolMismatch(description: "expected a text message, got a frame") }
        return try declared.answer(text)
    }

    /// The next message, which must be a text message of `type`.
    mutating func message(_ type: String) async throws -> ServerMessage {
        let message = try await message()
        guard message.type == type else { throw ProtocolMismatch(description: "expected \(type), got \(message)") }
        return message
    }

    /// What the server sends next: a frame's answer or a text message.
    enum Answer {
        case frame(ReadFrameAnswer)
        case message(ServerMessage)
    }

    /// The next message, a frame's answer or a text message, each read by the declarations.
    mutating func answer() async throws -> Answer {
        switch try await inbound.next() {
        case .binary(let buffer): .frame(try ReadFrameAnswer(.binary(buffer), protocol: declared))
        case .text(let text): .message(try declared.answer(text))
        case nil: throw ProtocolMismatch(description: "the stream ended before an answer")
        }
    }

    /// The next message, which must be a frame's answer.
    mutating func frame() async throws -> ReadFrameAnswer {
        try ReadFrameAnswer(try await inbound.next(), protocol: declared)
    }
}

extension StreamSession {
    /// Receives a declared message, built as a client builds it: `receive(declared: "capture", ["slot": 1])`.
    func receive(declared type: String, _ fields: [String: JSON] = [:]) throws -> StreamMessage.Outbound? {
        receive(try StreamProtocol().request(type, fields))
    }

    /// Receives a settings message.
    func receive(_ recipe: Recipe, quality: Int? = nil) throws -> StreamMessage.Outbound? {
        receive(try StreamProtocol().settings(recipe, quality: quality))
    }
}

/// A message that is not what the studio declares, or not the one expected.
struct ProtocolMismatch: Error, CustomStringConvertible { let description: String }

/// Reading what the studio's answers carry, as the page does: a finding's box, a picture sent as a
/// `data:` URL.
enum AnswerReading {
    /// A finding's box, `[x, y, width, height]` in whole pixels.
    static func bounds(_ finding: JSON?) throws -> [Int] {
        let bounds = try #require(finding)["bounds"].list.compactMap(\.int)
        try #require(bounds.count == 4, "no box: \(String(describing: finding))")
        return bounds
    }

    /// The picture of a `data:image/jpeg;base64,` URL.
    static func picture(_ url: JSON) throws -> Image {
        let text = try #require(url.text)
        #expect(text.hasPrefix("data:image/jpeg;base64,"))
        let data = try #require(Data(base64Encoded: String(text.dropFirst("data:image/jpeg;base64,".count))))
        return try Image(decoding: [UInt8](data))
    }
}

extension JSON {
    /// An HTTP answer's body, parsed.
    init(parsing buffer: ByteBuffer) throws {
        try self.init(parsing: Data(buffer: buffer))
    }
}

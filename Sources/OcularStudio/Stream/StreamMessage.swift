import Foundation
internal import NIOCore
import Ocular

/// The messages of `/api/stream`, both directions. Text messages are JSON objects, each with a
/// `type`. The client sends frames as binary messages (an encoded image, JPEG), numbered in the order
/// they are sent from 1; the server answers each with exactly one message naming that number: the
/// processed frame (``FrameAnswer``: a binary message carrying the JPEG of the same size and what
/// goes with it, the annotations and the page actions' answers), or a text `error` about "frame" or
/// `dropped` with `"frame": N`. Not always in order: a frame superseded while another is processed is
/// answered `dropped` at once, before the one under way.
///
/// The session itself takes three text messages (``Own``): the settings, and the link's
/// acknowledgements. Every other type belongs to a page action (``PageAction``: save, tap, capture,
/// merge, classify, …); the hello lists them all, each with its JSON Schema.
enum StreamMessage {
    /// What an error is `about` when the text was no message the studio takes (too long, no JSON object,
    /// no `type`, a type it does not know): it cannot be about a type.
    static let unreadable = "message"

    /// An example of a message, for errors about messages that are none.
    static let example = #"send messages like {"type":"settings","recipe":{"stages":[{"stage":"gray"}]}}"#

    /// A text message's type and keys, before anyone reads its fields.
    struct Envelope {
        let type: String
        let keys: [String]

        /// - Throws: ``StreamMessageError`` when the text is no JSON object with a textual `type`.
        static func read(_ data: Data) throws(StreamMessageError) -> Envelope {
            do {
                let container = try JSONDecoder().decode(KeysOf.self, from: data)
                guard let type = container.type else { throw StreamMessageError("a message needs a 'type'; \(example)") }
                return Envelope(type: type, keys: container.keys)
            } catch let error as StreamMessageError {
                throw error
            } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
                throw StreamMessageError("a message's type must be text; \(example)")
            } catch {
                throw StreamMessageError("not a JSON object: \(example)")
            }
        }

        /// A misspelt field must not pass unnoticed: a key beyond `type` and the declared fields is
        /// refused, naming the first such key and what the message has.
        func refuseUnknownKeys<Message>(of declaration: MessageDeclaration<Message>) throws(StreamMessageError) {
            let fields = declaration.fields.map(\.name)
            if let first = keys.filter({ $0 != "type" && !fields.contains($0) }).sorted().first {
                throw StreamMessageError("\(StreamMessageError.article(for: type)) \(type) message has no \(StageError.quoted(first)); it has \(declaration.has)")
            }
        }

        private struct KeysOf: Decodable {
            let type: String?
            let keys: [String]

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: MessageKey.self)
                keys = container.allKeys.map(\.stringValue)
                type = try container.decodeIfPresent(String.self, forKey: MessageKey(stringValue: "type"))
            }
        }
    }

    /// The messages the session takes itself; every other type is a page action's.
    enum Own: InboundMessages {
        /// `{"type":"settings","recipe":{…},"quality":80}`: either part may be left out to keep it.
        case settings(Settings)
        /// `{"type":"received","next":true}`: the page has an answer; `next` when its next frame follows
        /// at once. The stream's link is measured by these (``LinkMeter``).
        case received(next: Bool)
        /// `{"type":"upload"}`: a frame follows at once though no answer came before it (a page sends
        /// one while another is processed, where the recipe is slower than the camera). Its upload is
        /// timed from here, as from a `received` with `next`.
        case upload

        static let declarations: [MessageDeclaration<Own>] = [
            .init("settings", Settings.self, Own.settings),
            .init("received", Received.self) { Own.received(next: $0.next ?? false) },
            .init("upload", .upload),
        ]

        struct Settings: MessageBody {
            let recipe: Recipe?
            let quality: Int?

            enum CodingKeys: String, CodingKey, CaseIterable { case recipe, quality }

            static func describe(_ field: CodingKeys) -> MessageField {
                switch field {
                case .recipe: MessageField(.object, #"a recipe, {"stages":[{"stage":"gray"}]}"#)
                case .quality: MessageField(.integer, "a whole number from 1 to 100")
                }
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                do {
                    quality = try container.decodeIfPresent(Int.self, forKey: .quality)
                } catch {
                    throw StreamMessageError("quality must be a whole number from 1 to 100")
                }
                do {
                    recipe = try container.decodeIfPresent(Recipe.self, forKey: .recipe)
                } catch let error as DecodingError {
                    throw StreamMessageError("the recipe is not one: \(Recipe.explain(error))")
                } catch {
                    throw StreamMessageError("the recipe is not one: \(error)")
                }
            }
        }

        struct Received: MessageBody {
            let next: Bool?

            enum CodingKeys: String, CodingKey, CaseIterable { case next }

            static func describe(_ field: CodingKeys) -> MessageField {
                MessageField(.boolean, "true or false")
            }

            init(from decoder: any Decoder) throws {
                do {
                    next = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Bool.self, forKey: .next)
                } catch {
                    throw StreamMessageError("next must be true or false")
                }
            }
        }
    }

    /// How long and how large a page's recording may be: its recorder stops at either.
    struct RecordingLimits: Encodable, Equatable, Sendable {
        var maxSeconds: Double
        var maxBytes: Int
    }

    /// JSON with sorted keys, as every message goes out.
    static func encoded(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(value)) ?? Data(#"{"type":"error","about":"server","message":"unencodable reply"}"#.utf8)
    }

    /// A processed frame's answer, one binary message: a 4-byte big-endian length, that many bytes
    /// of a JSON header `{"frame":N,"messages":[…]}`, then the JPEG. The header's messages are what
    /// goes with this frame, in order: its annotations (when the recipe finds things), then the
    /// page actions' answers to it (a save that waited for it). Nothing is paired by counting.
    struct FrameAnswer {
        struct Header: Encodable {
            /// The number of the frame answered, counted from 1 in the order the client sent them.
            let frame: Int
            let messages: [Outbound]
        }

        let header: Header
        let jpeg: [UInt8]

        /// The binary message.
        var bytes: ByteBuffer {
            let json = StreamMessage.encoded(header)
            var buffer = ByteBuffer()
            buffer.reserveCapacity(4 + json.count + jpeg.count)
            buffer.writeInteger(UInt32(json.count), endianness: .big)
            buffer.writeBytes(json)
            buffer.writeBytes(jpeg)
            return buffer
        }

        /// Reads one back (tests, benchmarks, clients in Swift).
        /// - Throws: ``StreamMessageError`` when the bytes are no frame answer.
        /// - Returns: The header's JSON, `{"frame":N,"messages":[…]}`, each message one the server
        ///   declares, and the JPEG.
        static func read(_ message: ByteBuffer) throws(StreamMessageError) -> (header: Data, jpeg: [UInt8]) {
            var buffer = message
            guard let length = buffer.readInteger(endianness: .big, as: UInt32.self), let json = buffer.readBytes(length: Int(length)) else {
                throw StreamMessageError("not a frame answer: \(message.readableBytes) bytes without a whole header")
            }
            return (Data(json), buffer.readBytes(length: buffer.readableBytes) ?? [])
        }
    }

    /// What opens every stream.
    struct Hello: AnswerBody {
        var ocular = OcularVersion.current
        var opencv = OcularVersion.openCV
        let stages: [StageDescription]
        /// The session's own messages (settings, received, upload), each with its JSON Schema.
        let messages: [MessageDescription]
        /// The session's own answers (hello, settings, error, …), each with its JSON Schema.
        var answers = Outbound.declarations.map(\.description)
        /// The page actions live on the stream's page, each with its messages' and answers' schemas.
        let actions: [PageActionRegistry.Description]
        let recipe: Recipe
        let quality: Int
        let maxFrameBytes: Int
        /// The longest text message the session reads (``StudioConfiguration/maxTextMessageBytes``).
        let maxTextMessageBytes: Int
        let recording: RecordingLimits
        /// The studio's rate cap and the rungs its link meter moves frames between.
        let link: LinkConstants
        /// What the page says for the whole session (a read-only gallery).
        let notice: String?
        /// Stage categories in the order lists show them, with their titles.
        var categories = StageCategory.allCases.map { CategoryTitle(name: $0.rawValue, title: $0.title) }
        /// The studio's pages in the bar's order (``StudioPage``).
        var pages = StudioPage.allCases
        /// What Switch camera goes through, in order (``CameraSwitcher``).
        var cameras = CameraChoice.allCases.map(\.rawValue)

        enum CodingKeys: String, CodingKey, CaseIterable {
            case ocular, opencv, stages, messages, answers, actions, recipe, quality, maxFrameBytes, maxTextMessageBytes
            case recording, link, notice, categories, pages, cameras
        }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .ocular: MessageField(.text, required: true, "Ocular's version")
            case .opencv: MessageField(.text, required: true, "OpenCV's version")
            case .stages: MessageField(.list, required: true, "every stage: its name, title, category and parameters")
            case .messages: MessageField(.list, required: true, "the messages the session takes: type, fields, JSON Schema")
            case .answers: MessageField(.list, required: true, "the messages the session sends: type, fields, JSON Schema")
            case .actions: MessageField(.list, required: true, "the page's actions: name, pages, messages and answers")
            case .recipe: MessageField(.object, required: true, "the current recipe")
            case .quality: MessageField(.integer, required: true, "the answers' JPEG quality, 1 to 100")
            case .maxFrameBytes: MessageField(.integer, required: true, "the largest frame taken, in bytes")
            case .maxTextMessageBytes: MessageField(.integer, required: true, "the longest text message read, in bytes")
            case .recording: MessageField(.object, required: true, "maxSeconds and maxBytes of a recording")
            case .link: MessageField(.object, required: true, "framesPerSecond, the rate cap, and the link's levels")
            case .notice: MessageField(.text, "what the page says for the whole session")
            case .categories: MessageField(.list, required: true, "stage categories in order: name and title")
            case .pages: MessageField(.texts, required: true, "the studio's pages in the bar's order")
            case .cameras: MessageField(.texts, required: true, "what Switch camera goes through, in order")
            }
        }
    }

    struct CategoryTitle: Encodable, Sendable {
        let name: String
        let title: String
    }

    /// What the page's pacing follows: `framesPerSecond`, the most frames it sends a second; `levels`,
    /// the link's rungs, the first what frames go at until the link is measured.
    struct LinkConstants: Encodable, Sendable {
        let framesPerSecond: Double
        let levels: [LinkLevel]
    }

    /// What the server sends: a case per message type, each with the body its declaration names
    /// (``declarations``), a page action's answers with theirs (``PageAction/answers``).
    enum Outbound: Encodable {
        /// Once on connection: the versions, every stage the server offers, the messages the page may
        /// send and those it may get, the current settings and the limits.
        case hello(Hello)
        /// After every accepted settings message: the recipe with every value spelled out.
        case settings(AppliedSettings)
        /// What went wrong with a text message or a frame (its answer).
        case error(Refusal)
        /// A frame arrived while another was processed, and a newer one superseded it (its answer).
        case dropped(Dropped)
        /// The frame just answered is in the gallery.
        case saved(Saved)
        /// The link's level and figures: when the level changes, and once a second.
        case link(LinkReport)
        /// With each frame while the recipe has a detection stage (in its ``FrameAnswer``): what it
        /// found, one list per kind under the kind's declared group (`"faces": [...]`); the recipe's
        /// kinds are always listed, an empty list when nothing was found, so a frame without any
        /// clears the page's list.
        case annotations(AnnotationGroups)
        /// A page action's answer of its own: `{"type": TYPE, …}` with the body's fields.
        case answer(ActionAnswer)

        /// What went wrong with a text message: `about` names its type (``StreamMessage/unreadable``,
        /// "message", for a text that is no message the studio takes).
        static func error(about: String, message: String) -> Outbound { .error(Refusal(about: about, message: message, frame: nil)) }
        /// Frame `frame` was refused: `about` is "frame".
        static func frameRefused(frame: Int, message: String) -> Outbound { .error(Refusal(about: "frame", message: message, frame: frame)) }
        /// Frame `frame` was superseded before it was processed.
        static func dropped(frame: Int) -> Outbound { .dropped(Dropped(frame: frame)) }

        /// The message's `type`.
        var type: String {
            switch self {
            case .hello: "hello"
            case .settings: "settings"
            case .error: "error"
            case .dropped: "dropped"
            case .saved: "saved"
            case .link: "link"
            case .annotations: "annotations"
            case .answer(let answer): answer.type
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: MessageKey.self)
            try container.encode(type, forKey: MessageKey(stringValue: "type"))
            switch self {
            case .hello(let body): try body.encode(to: encoder)
            case .settings(let body): try body.encode(to: encoder)
            case .error(let body): try body.encode(to: encoder)
            case .dropped(let body): try body.encode(to: encoder)
            case .saved(let body): try body.encode(to: encoder)
            case .link(let body): try body.encode(to: encoder)
            case .annotations(let groups): try groups.encode(to: encoder)
            case .answer(let answer): try answer.body.encode(to: encoder)
            }
        }

        /// The message as JSON text with sorted keys.
        var json: String { String(decoding: StreamMessage.encoded(self), as: UTF8.self) }
    }
}

/// A text message the server cannot use, and why.
struct StreamMessageError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

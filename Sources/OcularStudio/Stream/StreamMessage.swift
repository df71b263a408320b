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
    struct RecordingLimits: Encodable, Equatable {
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
        static func read(_ message: ByteBuffer) throws(StreamMessageError) -> (header: [String: Any], jpeg: [UInt8]) {
            var buffer = message
            guard let length = buffer.readInteger(endianness: .big, as: UInt32.self), let json = buffer.readBytes(length: Int(length)),
                  let header = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else {
                throw StreamMessageError("not a frame answer: \(message.readableBytes) bytes without a whole header")
            }
            return (header, buffer.readBytes(length: buffer.readableBytes) ?? [])
        }
    }

    /// What opens every stream.
    struct Hello: Encodable {
        var ocular = OcularVersion.current
        var opencv = OcularVersion.openCV
        let stages: [StageDescription]
        /// The session's own messages (settings, received, upload), each with its JSON Schema.
        let messages: [MessageDescription]
        /// The page actions live on the stream's page, each with its messages' schemas.
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
    }

    struct CategoryTitle: Encodable {
        let name: String
        let title: String
    }

    /// What the page's pacing follows: `framesPerSecond`, the most frames it sends a second; `levels`,
    /// the link's rungs, the first what frames go at until the link is measured.
    struct LinkConstants: Encodable {
        let framesPerSecond: Double
        let levels: [LinkLevel]
    }

    /// What the server sends.
    enum Outbound: Encodable {
        /// Once on connection: the versions, every stage the server offers, the messages the page may
        /// send (the session's own and its page actions'), the current settings and the limits.
        case hello(Hello)
        /// After every accepted settings message: the recipe with every value spelled out.
        case settings(recipe: Recipe, quality: Int)
        /// What went wrong with a text message: `about` names its type (``StreamMessage/unreadable``,
        /// "message", for a text that is no message the studio takes).
        case error(about: String, message: String)
        /// Frame `frame` was refused (its answer): `about` is "frame".
        case frameRefused(frame: Int, message: String)
        /// Frame `frame` arrived while another was processed, and a newer one superseded it (its answer).
        case dropped(frame: Int)
        /// The frame just answered is in the gallery.
        case saved(GalleryItemResource)
        /// A page action's answer of its own: `{"type": TYPE, …}` with the body's fields.
        case answer(ActionAnswer)
        /// With each frame while the recipe has a detection stage (in its ``FrameAnswer``): what it
        /// found, one list per kind under the kind's declared group (`"faces": [...]`); the recipe's
        /// kinds are always listed, an empty list when nothing was found, so a frame without any
        /// clears the page's list.
        case annotations(AnnotationGroups)

        private enum CodingKeys: String, CodingKey {
            case type, recipe, quality, about, message, item, frame
        }

        /// A page action's answer: `.answer("captured", Captured(…))`.
        static func answer(_ type: String, _ body: any Encodable & Sendable) -> Outbound { .answer(ActionAnswer(type: type, body: body)) }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .hello(let hello):
                try container.encode("hello", forKey: .type)
                try hello.encode(to: encoder)
            case .settings(let recipe, let quality):
                try container.encode("settings", forKey: .type)
                try container.encode(recipe, forKey: .recipe)
                try container.encode(quality, forKey: .quality)
            case .error(let about, let message):
                try container.encode("error", forKey: .type)
                try container.encode(about, forKey: .about)
                try container.encode(message, forKey: .message)
            case .frameRefused(let frame, let message):
                try container.encode("error", forKey: .type)
                try container.encode("frame", forKey: .about)
                try container.encode(frame, forKey: .frame)
                try container.encode(message, forKey: .message)
            case .dropped(let frame):
                try container.encode("dropped", forKey: .type)
                try container.encode(frame, forKey: .frame)
                try container.encode("a newer frame arrived before this one was processed", forKey: .message)
            case .saved(let resource):
                try container.encode("saved", forKey: .type)
                try container.encode(resource, forKey: .item)
            case .answer(let answer):
                try answer.encode(to: encoder)
            case .annotations(let groups):
                try container.encode("annotations", forKey: .type)
                try groups.encode(to: encoder)
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

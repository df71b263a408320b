import Foundation
import Ocular

/// The JSON text messages of `/api/stream`, both directions, each an object with a `type`. Binary
/// messages carry frames: the client sends an encoded image (JPEG), the server answers each with
/// exactly one message, the processed frame as a JPEG of the same size, or an `error` (about
/// "frame") or `dropped` message naming that frame's fate.
///
/// The session itself takes one text message, `{"type":"settings","recipe":{…},"quality":80}`: the
/// recipe applied to every frame from now on and the JPEG quality of the answers, either left out to
/// keep it. Every other type belongs to a page action (``PageAction``: save, tap, capture, merge,
/// classify, …), whose messages the hello lists.
enum StreamMessage {
    /// An example of a message, for errors about messages that are none.
    static let example = #"send messages like {"type":"settings","recipe":{"stages":[{"stage":"gray"}]}}"#

    /// A text message's type and keys, before anyone reads its fields.
    struct Envelope {
        let type: String
        let keys: [String]

        /// - Throws: ``StreamMessageError`` when the text is no JSON object with a textual `type`.
        static func read(_ text: String) throws(StreamMessageError) -> Envelope {
            do {
                let container = try JSONDecoder().decode(KeysOf.self, from: Data(text.utf8))
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
        func refuseUnknownKeys(allowed fields: [String], has: String) throws(StreamMessageError) {
            if let first = keys.filter({ $0 != "type" && !fields.contains($0) }).sorted().first {
                let article = type.first.map { "aeiou".contains($0) } == true ? "an" : "a"
                throw StreamMessageError("\(article) \(type) message has no \(StageError.quoted(first)); it has \(has)")
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

    /// Reads a settings message's fields: both, either or none.
    static func settings(from text: String) throws(StreamMessageError) -> (recipe: Recipe?, quality: Int?) {
        let quality: Int?
        do {
            quality = try InboundMessage.field("quality", as: Int.self, in: text)
        } catch {
            throw StreamMessageError("quality must be a whole number from 1 to 100")
        }
        do {
            return (try InboundMessage.field("recipe", as: Recipe.self, in: text), quality)
        } catch let error as DecodingError {
            throw StreamMessageError("the recipe is not one: \(Recipe.explain(error))")
        } catch {
            throw StreamMessageError("the recipe is not one: \(error)")
        }
    }

    /// How long and how large a page's recording may be: its recorder stops at either.
    struct RecordingLimits: Encodable, Equatable {
        var maxSeconds: Double
        var maxBytes: Int
    }

    /// What the server sends.
    enum Outbound: Encodable {
        /// Once on connection: the versions, every stage the server offers, the current settings and
        /// the largest frame it accepts.
        case hello(stages: [StageDescription], actions: [PageActionRegistry.Description], recipe: Recipe, quality: Int,
                   maxFrameBytes: Int, recording: RecordingLimits, notice: String? = nil)
        /// After every accepted settings message: the recipe with every value spelled out.
        case settings(recipe: Recipe, quality: Int)
        /// What went wrong; `about` is "frame" when a frame was refused (its answer), "settings" otherwise.
        case error(about: String, message: String)
        /// A frame that arrived while another was processed, superseded by a newer one (its answer).
        case dropped
        /// The frame just answered is in the gallery.
        case saved(GalleryItemResource)
        /// A page action's answer of its own: `{"type": TYPE, …}` with the body's fields.
        case answer(ActionAnswer)
        /// Sent after each frame while the recipe has a detection stage: what it found, one list per
        /// kind under the kind's declared group (`"faces": [...]`); the recipe's kinds are always
        /// listed, an empty list when nothing was found, so a frame without any clears the page's list.
        case annotations(AnnotationGroups)

        private enum CodingKeys: String, CodingKey {
            case type, ocular, opencv, stages, actions, recipe, quality, maxFrameBytes, recording, about, message, item, notice
        }

        /// A page action's answer: `.answer("captured", Captured(…))`.
        static func answer(_ type: String, _ body: any Encodable & Sendable) -> Outbound { .answer(ActionAnswer(type: type, body: body)) }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .hello(let stages, let actions, let recipe, let quality, let maxFrameBytes, let recording, let notice):
                try container.encode("hello", forKey: .type)
                try container.encodeIfPresent(notice, forKey: .notice)
                try container.encode(OcularVersion.current, forKey: .ocular)
                try container.encode(OcularVersion.openCV, forKey: .opencv)
                try container.encode(stages, forKey: .stages)
                try container.encode(actions, forKey: .actions)
                try container.encode(recipe, forKey: .recipe)
                try container.encode(quality, forKey: .quality)
                try container.encode(maxFrameBytes, forKey: .maxFrameBytes)
                try container.encode(recording, forKey: .recording)
            case .settings(let recipe, let quality):
                try container.encode("settings", forKey: .type)
                try container.encode(recipe, forKey: .recipe)
                try container.encode(quality, forKey: .quality)
            case .error(let about, let message):
                try container.encode("error", forKey: .type)
                try container.encode(about, forKey: .about)
                try container.encode(message, forKey: .message)
            case .dropped:
                try container.encode("dropped", forKey: .type)
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
        var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            guard let data = try? encoder.encode(self) else { return #"{"type":"error","about":"server","message":"unencodable reply"}"# }
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// A text message the server cannot use, and why.
struct StreamMessageError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

import Foundation
import Ocular

/// The JSON text messages of `/api/stream`, both directions, each an object with a `type`. Binary
/// messages carry frames: the client sends an encoded image (JPEG), the server answers each with
/// exactly one message, the processed frame as a JPEG of the same size, or an `error` (about
/// "frame") or `dropped` message naming that frame's fate. After a `save` message, the next frame
/// processed is also saved in the gallery, losslessly, and its answer is followed by `saved` (or an
/// `error` about "save").
enum StreamMessage {
    /// What the page sends.
    enum Inbound: Decodable, Equatable {
        /// `{"type":"settings","recipe":{…},"quality":80}`: the recipe applied to every frame from now
        /// on and the JPEG quality of the answers; either may be left out to keep it.
        case settings(recipe: Recipe?, quality: Int?)
        /// `{"type":"save","caption":"…"}`: save the next processed frame in the gallery with the
        /// current recipe; the caption may be left out.
        case save(caption: String?)
        /// A tap on the preview, to map to the camera's point of interest (see ``TapRequest``).
        case tap(TapRequest)
        /// `{"type":"capture","slot":1}`: keep the biggest face of the frame just answered as face 1 (or 2).
        case capture(slot: Int)
        /// `{"type":"merge"}`: merge face 1 and face 2 (SPEC §4) for review.
        case merge
        /// `{"type":"saveMerge","caption":"…"}`: save the merge under review in the gallery; the
        /// caption defaults to its species.
        case saveMerge(caption: String?)
        /// `{"type":"classify"}`: classify the biggest blob of the frame just answered (SPEC §5) for review.
        case classify
        /// `{"type":"saveBlob","caption":"…"}`: save the blob under review in the gallery; the caption
        /// defaults to its label's description.
        case saveBlob(caption: String?)

        private enum CodingKeys: String, CodingKey {
            case type, recipe, quality
        }

        private enum SaveKeys: String, CodingKey {
            case type, caption
        }

        private enum CaptureKeys: String, CodingKey {
            case type, slot
        }

        static let types = ["settings", "save", "tap", "capture", "merge", "saveMerge", "classify", "saveBlob"]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let type = try container.decode(String.self, forKey: .type)
            switch type {
            case "settings":
                try Self.refuseUnknownKeys(in: decoder, of: type, allowed: ["recipe", "quality"], has: "recipe and quality")
                self = .settings(recipe: try container.decodeIfPresent(Recipe.self, forKey: .recipe),
                                 quality: try container.decodeIfPresent(Int.self, forKey: .quality))
            case "save", "saveMerge", "saveBlob":
                try Self.refuseUnknownKeys(in: decoder, of: type, allowed: ["caption"], has: "caption")
                let caption: String?
                do {
                    caption = try decoder.container(keyedBy: SaveKeys.self).decodeIfPresent(String.self, forKey: .caption)
                } catch {
                    throw StreamMessageError("a \(type) message's caption must be text")
                }
                if let caption, caption.count > 500 { throw StreamMessageError("a caption may have at most 500 characters") }
                self = type == "save" ? .save(caption: caption) : type == "saveMerge" ? .saveMerge(caption: caption) : .saveBlob(caption: caption)
            case "capture":
                try Self.refuseUnknownKeys(in: decoder, of: type, allowed: ["slot"], has: "slot")
                let slot: Int?
                do {
                    slot = try decoder.container(keyedBy: CaptureKeys.self).decodeIfPresent(Int.self, forKey: .slot)
                } catch {
                    throw StreamMessageError("a capture message's slot must be 1 or 2")
                }
                guard let slot else { throw StreamMessageError("a capture message needs a slot, 1 or 2") }
                self = .capture(slot: slot)
            case "merge", "classify":
                try Self.refuseUnknownKeys(in: decoder, of: type, allowed: [], has: "only its type")
                self = type == "merge" ? .merge : .classify
            case "tap":
                try Self.refuseUnknownKeys(in: decoder, of: type, allowed: Self.tapKeys, has: Self.tapKeys.joined(separator: ", "))
                self = .tap(try TapRequest(from: decoder))
            default:
                throw StreamMessageError("unknown message type \(StageError.quoted(type)); the types are \(Self.types.joined(separator: ", "))")
            }
        }

        static let tapKeys = ["x", "y", "viewWidth", "viewHeight", "frameWidth", "frameHeight", "layout", "orientation", "position"]

        /// A misspelt field must not pass unnoticed: a message with a key beyond `type` and
        /// `allowed` is refused, naming the first such key and what the message `has`.
        private static func refuseUnknownKeys(in decoder: any Decoder, of type: String, allowed: [String], has: String) throws {
            let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
                .filter { $0 != "type" && !allowed.contains($0) }.sorted()
            if let first = unknown.first {
                throw StreamMessageError("a \(type) message has no \(StageError.quoted(first)); it has \(has)")
            }
        }

        /// Reads one text message.
        /// - Throws: ``StreamMessageError`` saying what is wrong, in words.
        static func decode(_ text: String) throws(StreamMessageError) -> Inbound {
            do {
                return try JSONDecoder().decode(Inbound.self, from: Data(text.utf8))
            } catch let error as StreamMessageError {
                throw error
            } catch let error as DecodingError {
                throw StreamMessageError(Self.explain(error))
            } catch {
                throw StreamMessageError("\(error)")
            }
        }

        private static func explain(_ error: DecodingError) -> String {
            let example = #"send messages like {"type":"settings","recipe":{"stages":[{"stage":"gray"}]}}"#
            switch error {
            case .keyNotFound(let key, let context) where context.codingPath.isEmpty:
                return "a message needs a '\(key.stringValue)'; \(example)"
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                return "not a JSON object: \(example)"
            case .typeMismatch(_, let context) where context.codingPath.isEmpty:
                return "not a JSON object: \(example)"
            case .typeMismatch(_, let context) where context.codingPath.first?.stringValue == "quality",
                 .dataCorrupted(let context) where context.codingPath.first?.stringValue == "quality":
                return "quality must be a whole number from 1 to 100"
            default:
                return "the recipe is not one: \(Recipe.explain(error))"
            }
        }
    }

    /// What the server sends.
    enum Outbound: Encodable {
        /// Once on connection: the versions, every stage the server offers, the current settings and
        /// the largest frame it accepts.
        case hello(stages: [StageDescription], recipe: Recipe, quality: Int, maxFrameBytes: Int, notice: String? = nil)
        /// After every accepted settings message: the recipe with every value spelled out.
        case settings(recipe: Recipe, quality: Int)
        /// What went wrong; `about` is "frame" when a frame was refused (its answer), "settings" otherwise.
        case error(about: String, message: String)
        /// A frame that arrived while another was processed, superseded by a newer one (its answer).
        case dropped
        /// The frame just answered is in the gallery.
        case saved(GalleryItemResource)
        /// A tap's answer: where the frame shows in the view, and the camera's point of interest
        /// (0…1 in the camera's frame), or null for a tap beside the picture.
        case tapped(preview: CGRect, pointOfInterest: CGPoint?)
        /// A capture's answer: the face kept as face `slot`, and its picture as a small JPEG `data:` URL.
        case captured(slot: Int, face: Face, thumbnail: String)
        /// A merge's answer: the merged face and its picture as a JPEG `data:` URL.
        case merged(face: Face, image: String)
        /// A classify's answer: the blob with its label, description and distance, and its picture as
        /// a JPEG `data:` URL.
        case classified(blob: Blob, image: String)
        /// Sent after each frame while the recipe has a detection stage: what it found, one list per
        /// kind under the kind's declared group (`"faces": [...]`); the recipe's kinds are always
        /// listed, an empty list when nothing was found, so a frame without any clears the page's list.
        case annotations(AnnotationGroups)

        private enum CodingKeys: String, CodingKey {
            case type, ocular, opencv, stages, recipe, quality, maxFrameBytes, about, message, item, preview, pointOfInterest
            case slot, face, thumbnail, image, blob, notice
        }

        private struct Point: Encodable { let x: Double, y: Double }
        private struct Rectangle: Encodable { let x: Double, y: Double, width: Double, height: Double }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .hello(let stages, let recipe, let quality, let maxFrameBytes, let notice):
                try container.encode("hello", forKey: .type)
                try container.encodeIfPresent(notice, forKey: .notice)
                try container.encode(OcularVersion.current, forKey: .ocular)
                try container.encode(OcularVersion.openCV, forKey: .opencv)
                try container.encode(stages, forKey: .stages)
                try container.encode(recipe, forKey: .recipe)
                try container.encode(quality, forKey: .quality)
                try container.encode(maxFrameBytes, forKey: .maxFrameBytes)
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
            case .tapped(let preview, let point):
                try container.encode("tapped", forKey: .type)
                try container.encode(Rectangle(x: preview.minX, y: preview.minY, width: preview.width, height: preview.height), forKey: .preview)
                if let point {
                    try container.encode(Point(x: point.x, y: point.y), forKey: .pointOfInterest)
                } else {
                    try container.encodeNil(forKey: .pointOfInterest)
                }
            case .captured(let slot, let face, let thumbnail):
                try container.encode("captured", forKey: .type)
                try container.encode(slot, forKey: .slot)
                try container.encode(face, forKey: .face)
                try container.encode(thumbnail, forKey: .thumbnail)
            case .merged(let face, let image):
                try container.encode("merged", forKey: .type)
                try container.encode(face, forKey: .face)
                try container.encode(image, forKey: .image)
            case .classified(let blob, let image):
                try container.encode("classified", forKey: .type)
                try container.encode(blob, forKey: .blob)
                try container.encode(image, forKey: .image)
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

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A text message the server cannot use, and why.
struct StreamMessageError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

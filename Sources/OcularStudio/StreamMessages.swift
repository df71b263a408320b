import Foundation
import Ocular

/// The JSON text messages of `/api/stream`. Binary messages carry frames: the client sends an
/// encoded image (JPEG), the server answers each with exactly one message, the processed frame as a
/// JPEG of the same size, or an `error` / `dropped` message naming that frame's fate.
enum StreamMessage {
    /// Sent once on connection: what the server offers and its current settings.
    struct Hello: Encodable {
        let type = "hello"
        let ocular = OcularVersion.current
        let opencv = OcularVersion.openCV
        let effects: [EffectDescription]
        let settings: StreamSettings
        let maxFrameBytes: Int
    }

    struct EffectDescription: Encodable {
        let name: String
        let title: String
    }

    /// Sent after every accepted settings message.
    struct Settings: Encodable {
        let type = "settings"
        let settings: StreamSettings
    }

    /// What went wrong; `about` is "frame" when a frame was refused (its answer), "settings" otherwise.
    struct Failure: Encodable {
        let type = "error"
        let about: String
        let message: String
    }

    /// A frame that arrived while another was being processed, superseded by a newer one.
    struct Dropped: Encodable {
        let type = "dropped"
        let message = "a newer frame arrived before this one was processed"
    }

    static func json(_ message: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(message) else { return #"{"type":"error","about":"server","message":"unencodable reply"}"# }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The settings a client controls, changed by text messages like `{"effect":"gray"}`.
struct StreamSettings: Encodable, Equatable {
    var effect: Effect = .none
    var quality: Int
    var seed: UInt64 = 0

    static let keys = ["effect", "quality", "seed"]

    /// Applies a settings message, all or nothing.
    /// - Throws: A reason when the text is not a JSON object of known settings with valid values.
    func updated(with text: String) throws(StreamSettingsError) -> StreamSettings {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let fields = object as? [String: Any] else {
            throw StreamSettingsError("not a JSON object: send settings like {\"effect\":\"gray\"}")
        }
        var updated = self
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "effect":
                guard let name = value as? String, let effect = Effect(rawValue: name) else {
                    throw StreamSettingsError("unknown effect \(Self.show(value)); choose one of \(Effect.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                updated.effect = effect
            case "quality":
                guard let number = value as? NSNumber, !(value is Bool), let quality = Int(exactly: number.doubleValue), (1...100).contains(quality) else {
                    throw StreamSettingsError("quality must be a whole number from 1 to 100, got \(Self.show(value))")
                }
                updated.quality = quality
            case "seed":
                guard let number = value as? NSNumber, !(value is Bool), number.doubleValue >= 0,
                      let seed = UInt64(exactly: number.doubleValue) else {
                    throw StreamSettingsError("seed must be a whole number ≥ 0, got \(Self.show(value))")
                }
                updated.seed = seed
            default:
                throw StreamSettingsError("unknown setting '\(key)'; the settings are \(Self.keys.joined(separator: ", "))")
            }
        }
        return updated
    }

    private static func show(_ value: Any) -> String {
        if let text = value as? String { return "'\(text)'" }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
            return String(decoding: data, as: UTF8.self)
        }
        return String(describing: value)
    }
}

struct StreamSettingsError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

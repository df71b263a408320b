import Foundation
import Ocular
import OcularTestSupport
import Testing
@testable import OcularStudio

/// A deterministic fuzz test of the stream's text messages: every damaged message gets a `settings`,
/// `tapped`, `link` or `error` reply, or none when it is a save (answered after the next frame) or an
/// acknowledgement with nothing new; anything but
/// a settings reply leaves the session's settings as they were, a tap's point is inside 0…1, and no
/// reply is long.
@Suite("Damaged stream messages")
struct StreamMessageFuzzTests {
    static let seeds = [
        #"{"type":"settings","recipe":{"stages":[{"stage":"gray"}]}}"#,
        #"{"type":"settings","quality":70}"#,
        #"{"type":"settings","recipe":{"stages":[{"stage":"whiteBalance"},{"stage":"tint","seed":9,"interval":1}]},"quality":95}"#,
        #"{"type":"save","caption":"holiday"}"#,
        #"{"type":"capture","slot":2}"#,
        #"{"type":"merge"}"#,
        #"{"type":"saveMerge","caption":"us"}"#,
        #"{"type":"classify"}"#,
        #"{"type":"saveBlob","caption":"dime"}"#,
        #"{"type":"received","next":true}"#,
        #"{"type":"upload"}"#,
        #"{"type":"tap","x":300,"y":60,"viewWidth":1000,"viewHeight":600,"frameWidth":640,"frameHeight":480,"orientation":"portrait","position":"front","layout":"aspect-fill"}"#,
    ]
    static let fragments = ["{", "}", "[", "]", ",", ":", "\"", "null", "true", "0", "-1", "101", "1e400", "\"type\"",
                            "\"settings\"", "\"recipe\"", "\"quality\"", "\"stages\"", "\"stage\"", "\"save\"", "\"caption\"",
                            "\"tap\"", "\"x\"", "\"capture\"", "\"slot\"", "\"merge\"", "\"saveMerge\"", "\"classify\"", "\"saveBlob\"", "\"next\"", "\"upload\"", "false", "1", "2", "\"viewWidth\"", "\"orientation\"", "\"front\"", "1e308", "-0", "0.5",
                            String(repeating: "z", count: 4000)]

    @Test("every damaged message is answered settings or error, or waits as a save; only settings change settings")
    func mutations() throws {
        let session = try StreamSession(configuration: StudioConfiguration())
        var generator = SeededGenerator(seed: 77)
        var accepted = 0, refused = 0, saves = 0, taps = 0, acknowledgements = 0, repeatedKeys = 0
        var failures: [String] = []
        for seed in Self.seeds {
            for round in 0..<600 {
                // Between them, valid acknowledgements: a link report at first and once a second, else nothing.
                if round % 6 == 3 {
                    let before = session.currentSettings
                    switch try session.receive(declared: "received", ["next": .bool(Bool.random(using: &generator))]) {
                    case nil: acknowledgements += 1
                    case .link: acknowledgements += 1
                    case let other: failures.append("an acknowledgement answered \(String(describing: other))")
                    }
                    if session.currentSettings.quality != before.quality { failures.append("an acknowledgement changed the settings") }
                    continue
                }
                // Every third message is a valid one, so the settings an error must keep vary.
                if round.isMultiple(of: 3) {
                    let quality = Int.random(in: 1...100, using: &generator), seed = Int.random(in: 0...1000, using: &generator)
                    let stages: [Recipe.Step] = [.init("gray"), .init("tint", ["seed": .number(Double(seed))]), .init("whiteBalance")]
                        .filter { _ in Bool.random(using: &generator) }
                    let text = try StreamProtocol().settings(Recipe(stages: stages), quality: quality)
                    guard case .settings(let applied) = session.receive(text), applied.quality == quality, session.currentSettings.quality == quality else {
                        failures.append("\(text): a valid message was not applied")
                        continue
                    }
                    accepted += 1
                    continue
                }
                var characters = Array(seed)
                // One message in four names its last key twice (then is damaged further, or not).
                for _ in 0..<Int.random(in: 1...2, using: &generator) {
                    let position = Int.random(in: 0..<characters.count, using: &generator)
                    if Bool.random(using: &generator) {
                        characters.insert(contentsOf: Self.fragments.randomElement(using: &generator)!, at: position)
                    } else {
                        characters.removeSubrange(position..<min(characters.count, position + Int.random(in: 1...6, using: &generator)))
                    }
                    if characters.isEmpty { characters = ["{"] }
                }
                let text = String(characters)
                let before = session.currentSettings
                // A JSON object with a key named twice is refused (for that, or for what is wrong before it: no type).
                let repeated = Self.isObject(text)
                    ? JSONDuplicateKeys.first(in: Data(text.utf8)) : nil
                let reply = session.receive(text)
                if let repeated {
                    repeatedKeys += 1
                    if case .error = reply {} else {
                        failures.append("\(text.prefix(200)): names '\(repeated)' twice, answered \(String(describing: reply).prefix(200))")
                    }
                }
                switch reply {
                case .settings(let applied):
                    accepted += 1
                    let now = session.currentSettings
                    if now.pipeline.recipe != applied.recipe || now.quality != applied.quality { failures.append("\(text): reply differs from the session") }
                case .link(let link):
                    acknowledgements += 1
                    guard (0..<link.levels).contains(link.level), (1...100).contains(link.answerQuality),
                          [link.processingMs, link.answerRoundTripMs, link.uploadMs].allSatisfy({ $0.map { $0.isFinite && $0 >= 0 } ?? true }) else {
                        failures.append("\(text.prefix(200)): a link report out of range: \(link)")
                        continue
                    }
                    let now = session.currentSettings
                    if now.pipeline.recipe != before.pipeline.recipe || now.quality != before.quality {
                        failures.append("\(text.prefix(200)): an acknowledgement changed the settings")
                    }
                case .answer(let answer):
                    guard answer.type == "tapped", let tapped = answer.body as? FocusTapAction.Tapped else {
                        failures.append("\(text.prefix(200)): an answer of another action: \(answer.type)")
                        continue
                    }
                    let (preview, point) = (tapped.preview, tapped.pointOfInterest)
                    taps += 1
                    let now = session.currentSettings
                    if let point, !((0...1).contains(point.x) && (0...1).contains(point.y)) {
                        failures.append("\(text.prefix(200)): a point of interest outside 0…1: \(point)")
                    }
                    if ![preview.minX, preview.minY, preview.width, preview.height].allSatisfy(\.isFinite) {
                        failures.append("\(text.prefix(200)): a preview that is not finite: \(preview)")
                    }
                    if now.pipeline.recipe != before.pipeline.recipe || now.quality != before.quality {
                        failures.append("\(text.prefix(200)): a tap changed the settings")
                    }
                case nil:
                    // A save waits for its frame; an acknowledgement within the second has no news.
                    if text.contains("received") { acknowledgements += 1 } else { saves += 1 }
                    let now = session.currentSettings
                    if now.pipeline.recipe != before.pipeline.recipe || now.quality != before.quality {
                        failures.append("\(text.prefix(200)): a save changed the settings")
                    }
                case .error(let refusal):
                    refused += 1
                    let (about, message) = (refusal.about, refusal.message)
                    let now = session.currentSettings
                    let types = StreamSession.ownTypes + PageActionRegistry.standard.actions.flatMap { $0.messageTypes } + [StreamMessage.unreadable]
                    if !types.contains(about) || message.isEmpty || message.count > 500 || message.contains("\n") {
                        failures.append("\(text.prefix(200)): error about \(about), \(message.count) characters: \(message.prefix(300))")
                    }
                    if now.pipeline.recipe != before.pipeline.recipe || now.quality != before.quality {
                        failures.append("\(text.prefix(200)): refused, yet the settings changed")
                    }
                default:
                    failures.append("\(text.prefix(200)): neither settings nor error")
                }
                if failures.count >= 5 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(accepted >= 100 && refused >= 500 && saves == 1 && taps >= 5 && acknowledgements >= 5,
                "\(accepted) accepted, \(refused) refused, \(saves) saves waiting, \(taps) taps answered, \(acknowledgements) acknowledged, \(repeatedKeys) with a key named twice")
    }

    @Test("every message that names a key twice is refused and leaves the settings, damaged further or not")
    func repeatedKeys() throws {
        let session = try StreamSession(configuration: StudioConfiguration())
        var generator = SeededGenerator(seed: 94)
        var repeated = 0, failures: [String] = []
        for seed in Self.seeds {
            guard let pair = Self.lastPair(of: seed) else { continue }
            for _ in 0..<100 {
                var characters = Array(seed)
                characters.insert(contentsOf: pair, at: characters.count - 1)
                let edits = Int.random(in: 0...2, using: &generator)
                for _ in 0..<edits {
                    let position = Int.random(in: 0..<characters.count, using: &generator)
                    characters.insert(contentsOf: Self.fragments.randomElement(using: &generator)!, at: position)
                }
                let text = String(characters)
                guard Self.isObject(text),
                      let key = JSONDuplicateKeys.first(in: Data(text.utf8)) else { continue }
                repeated += 1
                let before = session.currentSettings
                let reply = session.receive(text)
                guard case .error(let refusal) = reply, case let message = refusal.message, message.count <= 500 else {
                    failures.append("\(text.prefix(200)): names '\(key)' twice, answered \(String(describing: reply).prefix(200))")
                    continue
                }
                // Undamaged, the repeat is what it is refused for; damaged, it may be refused first for the damage.
                if edits == 0, !message.contains("names '\(key)' twice") { failures.append("\(text.prefix(200)): \(message)") }
                if session.currentSettings.quality != before.quality || session.currentSettings.pipeline.recipe != before.pipeline.recipe {
                    failures.append("\(text.prefix(200)): refused, yet the settings changed")
                }
            }
        }
        #expect(repeated >= 300, "\(repeated) messages with a key named twice")
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Whether `text` is a JSON object, whatever its keys (a key named twice included).
    static func isObject(_ text: String) -> Bool {
        if case .object = try? JSON(parsing: Data(text.utf8)) { true } else { false }
    }

    /// The message's last key and value with a comma before it (`,"quality":95`), to be written again.
    static func lastPair(of message: String) -> String? {
        guard let comma = message.range(of: ",\"", options: .backwards) else { return nil }
        return String(message[comma.lowerBound..<message.index(before: message.endIndex)])
    }
}

import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Ocular
import StudioPlugins
import Synchronization
import Testing
@testable import OcularStudio

/// An action only this test registers: `{"type":"ping","word":"…"}` answered `pong` with the word,
/// how many frames it saw on its page, and the last brightest quadrant found (the test stage's kind).
private final class PingAction: PageAction {
    static let name = "ping"
    static let pages: [StudioPage] = [.samples]

    enum Message: InboundMessages {
        case ping(Ping)
        static let declarations: [MessageDeclaration<Message>] = [.init("ping", Ping.self, Message.ping)]
    }

    struct Ping: MessageBody {
        let word: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case word }
        static func describe(_ field: CodingKeys) -> MessageField { MessageField(.text, "text") }
    }

    private let seen = Mutex<(frames: Int, quadrant: String?)>((0, nil))

    init(context: PageActionContext) {}

    func observe(_ frame: Frame, recipe: Recipe) -> StreamMessage.Outbound? {
        let quadrant = frame.annotations(of: BrightestQuadrantStage.Quadrant.self).first?.name
        seen.withLock { $0 = ($0.frames + 1, quadrant ?? $0.quadrant) }
        return nil
    }

    func receive(_ message: Message) throws(StreamMessageError) -> StreamMessage.Outbound? {
        switch message {
        case .ping(let ping):
            let (frames, quadrant) = seen.withLock { $0 }
            return .answer("pong", Pong(word: ping.word ?? "", frames: frames, quadrant: quadrant))
        }
    }

    private struct Pong: Encodable { let word: String, frames: Int, quadrant: String? }
}

/// An action that claims the session's own message.
private final class SettingsThief: PageAction {
    static let name = "settingsThief"
    enum Message: InboundMessages {
        case settings
        static let declarations: [MessageDeclaration<Message>] = [.init("settings", .settings)]
    }
    init(context: PageActionContext) {}
    func receive(_ message: Message) throws(StreamMessageError) -> StreamMessage.Outbound? { nil }
}

private func text(_ message: WebSocketMessage?) throws -> [String: Any] {
    guard case .text(let text) = message else { throw Unexpected(description: "expected text, got \(String(describing: message))") }
    return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

private struct Unexpected: Error, CustomStringConvertible { let description: String }

/// A 64 × 48 frame, dark but for its bottom-right quarter.
private func bottomRightBright() throws -> [UInt8] {
    var bytes = [UInt8](repeating: 20, count: 64 * 48 * 3)
    for y in 24..<48 { for x in 32..<64 { for c in 0..<3 { bytes[(y * 64 + x) * 3 + c] = 230 } } }
    return try Image(width: 64, height: 48, format: .bgr8, bytes: bytes).encoded(as: .png())
}

@Suite("Ocular Studio's page actions: registered in one place, routed by type, live on their page", .timeLimit(.minutes(1)))
struct PageActionStudioTests {
    @Test("a stage and an action registered only in this test appear in the hello and work, untouched by the session")
    func registeredInTest() async throws {
        let registry = StageRegistry(StageRegistry.standard.stages + [BrightestQuadrantStage.self])
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0), registry: registry,
                                                      actions: PageActionRegistry.standard.adding([PingAction.self]),
                                                      gallery: nil, logger: Logger(label: "test"), onServerRunning: { _ in })
        let frame = try bottomRightBright()
        _ = try await application.test(.live) { client in
            try await client.ws("/api/stream?page=samples", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 24)) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
                let hello = try text(try await messages.next())
                let stages = try #require(hello["stages"] as? [[String: Any]]).compactMap { $0["name"] as? String }
                #expect(stages.contains("brightestQuadrant"))
                let actions = try #require(hello["actions"] as? [[String: Any]])
                // The page's own action, and every page's; not Many Masks' or Bean Counter's.
                #expect(actions.compactMap { $0["name"] as? String } == ["saveFrame", "focusTap", "ping"])
                let ping = try #require(actions.last?["messages"] as? [[String: Any]])
                #expect(ping.first?["type"] as? String == "ping" && ping.first?["fields"] as? [String] == ["word"])

                try await outbound.write(.text(#"{"type":"settings","recipe":{"stages":[{"stage":"brightestQuadrant"}]}}"#))
                #expect(try text(try await messages.next())["type"] as? String == "settings")
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                // The unknown kind goes out under its declared group, as the stage made it, with its frame.
                let answer = try ReadFrameAnswer(try await messages.next())
                #expect(answer.frame == 1 && answer.messages.count == 1)
                let annotations = try #require(answer.messages.first)
                #expect(annotations["type"] as? String == "annotations")
                let quadrants = try #require(annotations["quadrants"] as? [[String: Any]])
                #expect(quadrants.count == 1 && quadrants.first?["name"] as? String == "bottom right")
                #expect(quadrants.first?["bounds"] as? [Int] == [32, 24, 32, 24])
                #expect(quadrants.first?["mean"] as? Double == 230)

                try await outbound.write(.text(#"{"type":"ping","word":"hello"}"#))
                let pong = try text(try await messages.next())
                #expect(pong["type"] as? String == "pong" && pong["word"] as? String == "hello")
                #expect(pong["frames"] as? Int == 1 && pong["quadrant"] as? String == "bottom right")
                // Its declaration holds: a field it does not declare is refused by name.
                try await outbound.write(.text(#"{"type":"ping","wrod":"x"}"#))
                #expect(try text(try await messages.next())["message"] as? String == "a ping message has no 'wrod'; it has word")
                // Another page's action is not live here.
                try await outbound.write(.text(#"{"type":"classify"}"#))
                #expect(try text(try await messages.next())["message"] as? String
                        == "unknown message type 'classify'; the types are settings, received, upload, save, tap, ping")
            }
        }
    }

    @Test("the hello publishes each message's JSON Schema from its type: the session's own, and its page's actions'")
    func schemasInHello() throws {
        let hello = try #require(try JSONSerialization.jsonObject(with: Data(try StreamSession(configuration: StudioConfiguration(port: 0), page: "manyMasks").hello.json.utf8)) as? [String: Any])
        let own = try #require(hello["messages"] as? [[String: Any]])
        #expect(own.compactMap { $0["type"] as? String } == ["settings", "received", "upload"])
        let settings = try #require(own.first?["schema"] as? [String: Any])
        #expect(settings["additionalProperties"] as? Bool == false && settings["required"] as? [String] == ["type"])
        let quality = try #require((settings["properties"] as? [String: Any])?["quality"] as? [String: Any])
        #expect(quality["type"] as? String == "integer")

        let actions = try #require(hello["actions"] as? [[String: Any]])
        let faceMerge = try #require(actions.first { $0["name"] as? String == "faceMerge" }?["messages"] as? [[String: Any]])
        #expect(faceMerge.compactMap { $0["type"] as? String } == ["capture", "captureBiggest", "merge", "saveMerge"])
        let capture = try #require(faceMerge.first)
        #expect(capture["fields"] as? [String] == ["slot", "at"])
        let schema = try #require(capture["schema"] as? [String: Any])
        #expect(schema["required"] as? [String] == ["type", "slot"])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        #expect(properties["type"]?["const"] as? String == "capture")
        #expect(properties["slot"]?["type"] as? String == "integer" && properties["at"]?["type"] as? String == "array")
        // The tap's choices are the camera geometry's own.
        let tap = try #require(actions.first { $0["name"] as? String == "focusTap" }?["messages"] as? [[String: Any]])
        let layout = try #require(((tap.first?["schema"] as? [String: Any])?["properties"] as? [String: [String: Any]])?["layout"])
        #expect(layout["enum"] as? [String] == PreviewLayout.allCases.map(\.rawValue))
    }

    @Test("the hello publishes what the page would otherwise keep a copy of: categories, pages, the rate cap and link rungs, the camera order, the limits")
    func constantsInHello() throws {
        var configuration = StudioConfiguration(port: 0)
        configuration.framesPerSecond = 12
        configuration.maxRecordingSeconds = 42
        let hello = try #require(try JSONSerialization.jsonObject(with: Data(try StreamSession(configuration: configuration).hello.json.utf8)) as? [String: Any])
        let categories = try #require(hello["categories"] as? [[String: String]])
        #expect(categories.map { $0["name"] } == StageCategory.allCases.map(\.rawValue))
        #expect(categories.first?["title"] == "Colour adjustment" && categories.last?["title"] == "Samples")
        let link = try #require(hello["link"] as? [String: Any])
        #expect(link["framesPerSecond"] as? Double == 12)
        let levels = try #require(link["levels"] as? [[String: Any]])
        #expect(levels.count == LinkLevel.ladder.count && levels.first?["uploadQuality"] as? Double == LinkLevel.ladder[0].uploadQuality)
        #expect(hello["cameras"] as? [String] == ["static", "front", "back"])
        let pages = try #require(hello["pages"] as? [[String: String]])
        #expect(pages.map { $0["name"] } == StudioPage.allCases.map(\.rawValue) && pages[1] == ["name": "manyMasks", "title": "Many Masks", "href": "masks.html"])
        #expect((hello["recording"] as? [String: Any])?["maxSeconds"] as? Double == 42)
        // The link meter measures against the same cap.
        #expect(abs(try StreamSession(configuration: configuration).linkMeter.frameIntervalMs - 1000.0 / 12) < 1e-9)
    }

    @Test("an action's error names the message that caused it, whatever its cause")
    func errorsNameTheirMessage() throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0), page: "manyMasks")
        for (text, about) in [(#"{"type":"captureBiggest"}"#, "captureBiggest"), (#"{"type":"saveMerge","caption":7}"#, "saveMerge"),
                              (#"{"type":"tap","x":1}"#, "tap"), (#"{"type":"capture","slot":3}"#, "capture")] {
            let reply = try #require(session.receive(text)).json
            #expect(reply.contains(#""about":"\#(about)""#) && reply.contains(#""type":"error""#), "\(text) → \(reply)")
        }
    }

    @Test("a page's stream has its own actions and every page's; a stream naming no page has all")
    func actionsByPage() throws {
        let names = { (page: String?) throws -> [String] in
            try StreamSession(configuration: StudioConfiguration(port: 0), page: page).actions.map { type(of: $0).name }
        }
        #expect(try names("manyMasks") == ["saveFrame", "focusTap", "faceMerge"])
        #expect(try names("beanCounter") == ["saveFrame", "focusTap", "blobReview"])
        #expect(try names("lightWork") == ["saveFrame", "focusTap"])
        #expect(try names(nil) == ["saveFrame", "focusTap", "faceMerge", "blobReview"])
    }

    @Test("two actions taking one message type, or an action taking settings, stop the program at registration")
    func clashesFailLoudly() async {
        await #expect(processExitsWith: .failure) {
            _ = PageActionRegistry.standard.adding([PingAction.self, PingAction.self])
        }
        await #expect(processExitsWith: .failure) {
            _ = PageActionRegistry([SettingsThief.self])
        }
    }

    @Test("the shipped training list lies outside the folder the studio serves")
    func trainingListOutsideWebRoot() throws {
        let served = URL(fileURLWithPath: try StudioResources.publicFolder()).standardizedFileURL.path
        let list = URL(fileURLWithPath: try StudioResources.trainingList()).standardizedFileURL.path
        #expect(FileManager.default.fileExists(atPath: list))
        #expect(!list.hasPrefix(served + "/"), "\(list) is inside \(served)")
        let servedFiles = FileManager.default.enumerator(atPath: served)?.compactMap { $0 as? String } ?? []
        #expect(!servedFiles.contains { $0.hasSuffix(".json") || $0.hasSuffix(".blobmodel") }, "\(servedFiles)")
    }
}

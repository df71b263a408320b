import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Ocular
import OcularTestSupport
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
            return Self.pong(Pong(word: ping.word ?? "", frames: frames, quadrant: quadrant))
        }
    }

    static let pong = ActionAnswerType<Pong>("pong")
    static let answers = [pong.declaration]

    struct Pong: AnswerBody {
        let word: String, frames: Int, quadrant: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case word, frames, quadrant }
        static func describe(_ field: CodingKeys) -> MessageField { MessageField(.text, "anything") }
    }
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
                var stream = StreamClient(inbound, outbound, maxSize: 1 << 24, actions: PageActionRegistry.standard.adding([PingAction.self]))
                let hello = try await stream.message("hello")
                #expect(hello["stages"].list.compactMap { $0["name"].text }.contains("brightestQuadrant"))
                let actions = hello["actions"].list
                // The page's own action, and every page's; not Many Masks' or Bean Counter's.
                #expect(actions.compactMap { $0["name"].text } == ["saveFrame", "focusTap", "ping"])
                let ping = actions.last?["messages"][0]
                #expect(ping?["type"] == "ping" && ping?["fields"] == ["word"])
                #expect(actions.last?["answers"][0]["type"] == "pong")

                try await stream.send(Recipe(stages: [.init("brightestQuadrant")]))
                _ = try await stream.message("settings")
                try await stream.send(frame: frame)
                // The unknown kind goes out under its declared group, as the stage made it, with its frame.
                let answer = try await stream.frame()
                #expect(answer.frame == 1 && answer.messages.map(\.type) == ["annotations"])
                let quadrants = try #require(answer.message("annotations"))["quadrants"].list
                #expect(quadrants.count == 1 && quadrants.first?["name"] == "bottom right")
                #expect(quadrants.first?["bounds"] == [32, 24, 32, 24])
                #expect(quadrants.first?["mean"] == 230)

                try await stream.send("ping", ["word": "hello"])
                let pong = try await stream.message("pong")
                #expect(pong["word"] == "hello" && pong["frames"] == 1 && pong["quadrant"] == "bottom right")
                // Its declaration holds: a field it does not declare is refused by name.
                try await stream.send(text: #"{"type":"ping","wrod":"x"}"#)
                #expect(try await stream.message("error").message == "a ping message has no 'wrod'; it has word")
                // Another page's action is not live here.
                try await stream.send("classify")
                #expect(try await stream.message("error").message
                        == "unknown message type 'classify'; the types are settings, received, upload, save, tap, ping")
            }
        }
    }

    @Test("the hello publishes each message's JSON Schema from its type: the session's own, and its page's actions'")
    func schemasInHello() throws {
        let hello = try StreamProtocol().answer(try StreamSession(configuration: StudioConfiguration(port: 0), page: "manyMasks").hello)
        let own = hello["messages"].list
        #expect(own.compactMap { $0["type"].text } == ["settings", "received", "upload"])
        let settings = own[0]["schema"]
        #expect(settings["additionalProperties"] == false && settings["required"] == ["type"])
        #expect(settings["properties"]["quality"]["type"] == "integer")

        let actions = hello["actions"].list
        let manyMasks = try #require(actions.first { $0["name"] == "manyMasks" })
        #expect(manyMasks["messages"].list.compactMap { $0["type"].text } == ["capture", "captureBiggest", "merge", "saveMerge"])
        let capture = manyMasks["messages"][0]
        #expect(capture["fields"] == ["slot", "at"])
        #expect(capture["schema"]["required"] == ["type", "slot"])
        let properties = capture["schema"]["properties"]
        #expect(properties["type"]["const"] == "capture")
        #expect(properties["slot"]["type"] == "integer" && properties["at"]["type"] == "array")
        // The tap's choices are the camera geometry's own.
        let tap = try #require(actions.first { $0["name"] == "focusTap" })
        #expect(tap["messages"][0]["schema"]["properties"]["layout"]["enum"] == .list(PreviewLayout.allCases.map { .text($0.rawValue) }))
        #expect(tap["answers"][0]["type"] == "tapped" && tap["answers"][0]["fields"] == ["preview", "pointOfInterest"])
    }

    @Test("the hello publishes the schema of every message the server sends: the session's own, and its page's actions' answers")
    func answerSchemasInHello() throws {
        let hello = try StreamProtocol().answer(try StreamSession(configuration: StudioConfiguration(port: 0), page: "manyMasks").hello)
        let answers = hello["answers"].list
        #expect(answers.compactMap { $0["type"].text } == ["hello", "settings", "error", "dropped", "saved", "link", "annotations"])
        let error = answers[2]
        #expect(error["fields"] == ["about", "message", "frame"])
        #expect(error["schema"]["required"] == ["type", "about", "message"] && error["schema"]["additionalProperties"] == false)
        #expect(error["schema"]["properties"]["frame"]["type"] == "integer")
        // The annotations' groups are the kinds found: any field, each a list.
        #expect(answers[6]["schema"]["additionalProperties"]["type"] == "array")
        let manyMasks = try #require(hello["actions"].list.first { $0["name"] == "manyMasks" })
        #expect(manyMasks["answers"].list.compactMap { $0["type"].text } == ["captured", "capturedBiggest", "merged"])
        #expect(manyMasks["answers"][0]["schema"]["required"] == ["type", "slot", "face", "thumbnail"])
        // The hello reads by its own declaration: every field it has, it declares.
        #expect(Set(StreamMessage.Hello.CodingKeys.allCases.map(\.stringValue)).isSuperset(of: hello.body.keys.subtracting(["type"])))
    }

    @Test("the hello publishes what the page would otherwise keep a copy of: categories, pages, the rate cap and link rungs, the camera order, the limits")
    func constantsInHello() throws {
        var configuration = StudioConfiguration(port: 0)
        configuration.framesPerSecond = 12
        configuration.maxRecordingSeconds = 42
        let hello = try StreamProtocol().answer(try StreamSession(configuration: configuration).hello)
        let categories = hello["categories"].list
        #expect(categories.map { $0["name"].text } == StageCategory.allCases.map(\.rawValue))
        #expect(categories.first?["title"] == "Colour adjustment" && categories.last?["title"] == "Samples")
        #expect(hello["link"]["framesPerSecond"] == 12)
        let levels = hello["link"]["levels"].list
        #expect(levels.count == LinkLevel.ladder.count && levels.first?["uploadQuality"].double == LinkLevel.ladder[0].uploadQuality)
        #expect(hello["cameras"] == ["static", "front", "back"])
        let pages = hello["pages"].list
        #expect(pages.map { $0["name"].text } == StudioPage.allCases.map(\.rawValue) && pages[1] == ["name": "manyMasks", "title": "Many Masks", "href": "many-masks.html"])
        #expect(hello["recording"]["maxSeconds"] == 42)
        // The link meter measures against the same cap.
        #expect(abs(try StreamSession(configuration: configuration).linkMeter.frameIntervalMs - 1000.0 / 12) < 1e-9)
    }

    @Test("an action's error names the message that caused it, whatever its cause")
    func errorsNameTheirMessage() throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0), page: "manyMasks")
        let declared = StreamProtocol()
        for (type, fields) in [("captureBiggest", [:]), ("saveMerge", ["caption": 7]), ("tap", ["x": 1]), ("capture", ["slot": 3])] as [(String, [String: JSON])] {
            let reply = try declared.answer(session.receive(try declared.request(type, fields)))
            #expect(reply.type == "error" && reply["about"] == .text(type), "\(type) → \(reply)")
        }
    }

    @Test("a page's stream has its own actions and every page's; a stream naming no page has all")
    func actionsByPage() throws {
        let names = { (page: String?) throws -> [String] in
            try StreamSession(configuration: StudioConfiguration(port: 0), page: page).actions.map { type(of: $0).name }
        }
        #expect(try names("manyMasks") == ["saveFrame", "focusTap", "manyMasks"])
        #expect(try names("beanCounter") == ["saveFrame", "focusTap", "beanCounter"])
        #expect(try names("lightWork") == ["saveFrame", "focusTap"])
        #expect(try names(nil) == ["saveFrame", "focusTap", "manyMasks", "beanCounter"])
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

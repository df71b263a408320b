import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import Logging
import NIOCore
import Ocular
import OcularTestSupport
import OcularGallery
import StudioPlugins
import Testing
@testable import OcularStudio

/// A frame cannot hold the server for as long as a client likes: a heavy recipe on a huge frame is
/// processed shrunk to the stream's work budget, a client's waiting frame is dropped when it goes,
/// and the gallery and health answer while every frame thread is busy.
@Suite("Ocular Studio under its heaviest frames", .serialized, .timeLimit(.minutes(2)))
struct FrameWorkStudioTests {
    static func answerSize(_ reply: StreamSession.Reply) throws -> (width: Int, height: Int) {
        guard case .frame(let jpeg, _, _) = reply else { throw CancellationError() }
        let image = try Image(decoding: jpeg)
        return (image.width, image.height)
    }

    @Test("a 4000×3000 frame under a radius-100 blur is processed at 1920×1080 worth of pixels first, then at what the measured rate fits in the budget; a light recipe gets it whole")
    func heavyFramesAreShrunk() throws {
        var configuration = StudioConfiguration(port: 0)
        configuration.maxFrameWorkSeconds = 1
        let session = try StreamSession(configuration: configuration)
        let big = try Image(contentsOfFile: dataRoot + "/images/coffee.png").resized(width: 4000, height: 3000)
        let frame = ByteBuffer(bytes: try big.encoded(as: .jpeg(quality: 80)))
        _ = try session.receive(Recipe(stages: [.init("gaussianBlur", ["radius": 100])]))
        let first = try Self.answerSize(session.process(frame))
        #expect(first.width * first.height <= 1920 * 1080 && first.width * first.height > 1900 * 1000, "\(first)")
        #expect(abs(Double(first.width) / Double(first.height) - 4.0 / 3.0) < 0.01, "the shape is kept: \(first)")
        // The blur of ~2 megapixels takes about 2 s (12 s for the whole frame): the next frame is cut to fit 1 s.
        let second = try Self.answerSize(session.process(frame))
        #expect(second.width * second.height < first.width * first.height, "\(second) after \(first)")
        // A gray conversion is cheap: once measured, the whole frame fits.
        _ = try session.receive(Recipe(stages: [.init("gray")]))
        let measuring = try Self.answerSize(session.process(frame))
        #expect(measuring.width * measuring.height <= 1920 * 1080)
        let whole = try Self.answerSize(session.process(frame))
        #expect(whole.width == 4000 && whole.height == 3000, "\(whole)")
    }

    @Test("with every frame thread held by a client's frame, the gallery and health still answer; a frame waiting behind a gone client's is dropped")
    func galleryAnswersWhileFramesRun() async throws {
        let folder = NSTemporaryDirectory() + "ocular-frames-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gallery = try Gallery(folder: folder)
        _ = try gallery.save(try Image(contentsOfFile: dataRoot + "/images/coffee.png"), source: "test")
        let registry = StageRegistry(StageRegistry.standard.stages + [GateStage.self])
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0, galleryFolder: folder), registry: registry,
                                                      actions: .standard, gallery: gallery, logger: Logger(label: "test"), onServerRunning: { _ in })
        let frame = ByteBuffer(bytes: try Image(width: 64, height: 48, format: .bgr8, filledWith: [40, 80, 120]).encoded(as: .png()))
        let threads = max(2, System.coreCount)
        GateStage.close()
        defer { GateStage.open() }
        try await application.test(.live) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                // One client per frame thread, each with a frame at the gate, and a second frame waiting.
                for _ in 0..<threads {
                    group.addTask {
                        _ = try await client.ws("/api/stream", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 24)) { inbound, outbound, _ in
                            var stream = StreamClient(inbound, outbound, maxSize: 1 << 24)
                            _ = try await stream.message("hello")
                            try await stream.send(Recipe(stages: [.init("gate")]))
                            _ = try await stream.message("settings")
                            try await outbound.write(.binary(frame))
                            // Every first frame is at the gate before a second is sent: the second waits.
                            for _ in 0..<2000 where GateStage.arrived < threads { try await Task.sleep(for: .milliseconds(10)) }
                            try await outbound.write(.binary(frame))
                        }
                    }
                }
                for _ in 0..<2000 where GateStage.arrived < threads { try await Task.sleep(for: .milliseconds(10)) }
                #expect(GateStage.arrived == threads, "every frame thread holds a frame")
                let listed = try await client.execute(uri: "/api/gallery", method: .get)
                #expect(listed.status == .ok && String(buffer: listed.body).contains(#""total":1"#), "\(String(buffer: listed.body))")
                let health = try await client.execute(uri: "/api/health", method: .get)
                #expect(health.status == .ok)
                #expect(GateStage.arrived == threads, "the gallery was answered while the frames were held")
                // The clients close with their second frame waiting; once the server has read their
                // last messages (health counts no stream), the gate opens.
                for _ in 0..<1000 {
                    let answer = try await client.execute(uri: "/api/health", method: .get)
                    if String(buffer: answer.body).contains(#""streams":0"#) { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                let streams = try await client.execute(uri: "/api/health", method: .get)
                #expect(String(buffer: streams.body).contains(#""streams":0"#), "\(String(buffer: streams.body))")
                GateStage.open()
                try await group.waitForAll()
            }
        }
        #expect(GateStage.arrived == threads, "\(GateStage.arrived - threads) frames of gone clients were processed")
    }
}

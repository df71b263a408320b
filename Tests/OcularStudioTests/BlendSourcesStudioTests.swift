import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Ocular
import Testing
@testable import OcularStudio

private let dataRoot: String = {
    if let override = ProcessInfo.processInfo.environment["OCULAR_TEST_DATA"] { return override }
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return repository.deletingLastPathComponent().appendingPathComponent("shared/data").path
}()

@Suite("Ocular Studio: blend sources", .timeLimit(.minutes(1)))
struct BlendSourcesStudioTests {
    let rocket = try! Data(contentsOf: URL(fileURLWithPath: dataRoot + "/images/rocket.jpg"))

    func object(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any])
    }

    @Test("POST /api/sources answers 201 with an id; too large 413, not a picture or empty 400, each with the reason")
    func upload() async throws {
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0, maxSourceBytes: 200_000))
        try await application.test(.router) { client in
            try await client.execute(uri: "/api/sources", method: .post, body: ByteBuffer(bytes: rocket)) { response in
                #expect(response.status == .created)
                let body = try object(response.body)
                #expect((body["id"] as? String)?.count == 32)
                #expect(body["width"] as? Int == 640 && body["height"] as? Int == 427)
            }
            try await client.execute(uri: "/api/sources", method: .post, body: ByteBuffer(string: "these are not pixels")) { response in
                #expect(response.status == .badRequest)
                let reason = try object(response.body)["error"] as? String
                #expect(reason?.contains("not an image") == true, "\(reason ?? "")")
            }
            try await client.execute(uri: "/api/sources", method: .post, body: ByteBuffer(bytes: rocket.prefix(2000))) { response in
                #expect(response.status == .badRequest, "a truncated JPEG")
            }
            try await client.execute(uri: "/api/sources", method: .post, body: ByteBuffer(repeating: 0, count: 200_001)) { response in
                #expect(response.status == .contentTooLarge)
                let reason = try object(response.body)["error"] as? String
                #expect(reason == "the picture is larger than the limit of 200000 bytes")
            }
            try await client.execute(uri: "/api/sources", method: .post) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("the store keeps the latest pictures within its bounds; an evicted id is refused by name")
    func bounded() throws {
        let picture = try Image(width: 10, height: 10, format: .bgr8, filledWith: [1, 2, 3])  // 300 bytes
        let byCount = UploadedSources(capacity: 2, byteLimit: 1 << 20)
        let ids = (0..<3).map { _ in byCount.add(picture) }
        #expect(byCount.count == 2 && Set(ids).count == 3)
        #expect(throws: OcularError.self) { try byCount.image(id: ids[0]) }
        #expect(try byCount.image(id: ids[2]) == picture)
        let byBytes = UploadedSources(capacity: 16, byteLimit: 700)
        let kept = (0..<4).map { _ in byBytes.add(picture) }
        #expect(byBytes.count == 2)
        #expect(try byBytes.image(id: kept[3]) == picture)
        let error = #expect(throws: OcularError.self) { try byBytes.image(id: "nope") }
        #expect(error?.description.contains("no uploaded picture has the id 'nope'") == true)
    }

    @Test("a recipe names the uploaded picture by id and frames come back blended")
    func blendedFrames() async throws {
        let coffee = try Image(contentsOfFile: dataRoot + "/images/coffee.png")
        let jpeg = try coffee.encoded(as: .jpeg(quality: 90))
        let sent = try Image(decoding: jpeg)
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0))
        _ = try await application.test(.live) { client in
            let id = try await client.execute(uri: "/api/sources", method: .post, body: ByteBuffer(bytes: rocket)) { response in
                try #require(try object(response.body)["id"] as? String)
            }
            try await client.ws("/api/stream", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 26)) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 26).makeAsyncIterator()
                _ = try await messages.next()  // hello
                try await outbound.write(.text(#"{"type":"settings","recipe":{"stages":[{"stage":"blend","source":"unknown"}]}}"#))
                guard case .text(let refused) = try await messages.next() else { Issue.record("no answer"); return }
                #expect(refused.contains("stage 'blend', parameter 'source': no uploaded picture has the id 'unknown'"), "\(refused)")

                try await outbound.write(.text(#"{"type":"settings","recipe":{"stages":[{"stage":"blend","source":"\#(id)","mode":"multiply"}]}}"#))
                guard case .text(let settings) = try await messages.next() else { Issue.record("no answer"); return }
                #expect(settings.contains(#""type":"settings""#) && settings.contains(id), "\(settings)")
                try await outbound.write(.binary(ByteBuffer(bytes: jpeg)))
                guard case .binary(let reply) = try await messages.next() else { Issue.record("no frame"); return }
                let blended = try Image(decoding: Array(reply.readableBytesView))
                let expected = try Blend(source: Image(contentsOfFile: dataRoot + "/images/rocket.jpg"), mode: .multiply).apply(to: sent)
                // The server's JPEG (quality 80) of exactly this blend: channel means within a level.
                let means = blended.channelMeans(), wanted = expected.channelMeans()
                #expect(zip(means, wanted).allSatisfy { abs($0 - $1) < 1 }, "\(means) vs \(wanted)")
                #expect(abs(means[0] - sent.channelMeans()[0]) > 10, "multiply darkens")
            }
        }
    }
}

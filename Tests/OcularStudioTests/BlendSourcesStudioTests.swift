import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Ocular
import OcularTestSupport
import Testing
@testable import OcularStudio

@Suite("Ocular Studio: blend sources", .timeLimit(.minutes(1)))
struct BlendSourcesStudioTests {
    func rocketFile() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: dataRoot + "/images/rocket.jpg")) }

    @Test("POST /api/sources answers 201 with an id; too large 413, not a picture or empty 400, each with the reason")
    func upload() async throws {
        let rocket = try rocketFile()
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0, maxSourceBytes: 200_000))
        try await application.test(.router) { client in
            try await client.execute(uri: "/api/sources", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: rocket)) { response in
                #expect(response.status == .created)
                let body = try JSON(parsing: response.body)
                #expect(body["id"].text?.count == 32)
                #expect(body["width"] == 640 && body["height"] == 427)
            }
            try await client.execute(uri: "/api/sources", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(string: "these are not pixels")) { response in
                #expect(response.status == .badRequest)
                let reason = try JSON(parsing: response.body)["error"].text
                #expect(reason?.contains("not an image") == true, "\(reason ?? "")")
                #expect(try JSON(parsing: response.body)["code"] == "image.notAnImage")
            }
            try await client.execute(uri: "/api/sources", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: rocket.prefix(2000))) { response in
                #expect(response.status == .badRequest, "a truncated JPEG")
            }
            try await client.execute(uri: "/api/sources", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(repeating: 0, count: 200_001)) { response in
                #expect(response.status == .contentTooLarge)
                let reason = try JSON(parsing: response.body)["error"].text
                #expect(reason == "the picture is larger than the limit of 200000 bytes")
            }
            try await client.execute(uri: "/api/sources", method: .post, headers: [.contentType: "image/jpeg"]) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("a picture over the studio's pixel limit is 413 with its code, from the error's kind")
    func tooManyPixels() async throws {
        let rocket = try rocketFile()  // 640 × 427
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0, maxFramePixels: 100_000))
        try await application.test(.router) { client in
            try await client.execute(uri: "/api/sources", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: rocket)) { response in
                #expect(response.status == .contentTooLarge)
                let body = try JSON(parsing: response.body)
                #expect(body["code"] == "image.tooManyPixels")
                #expect(body["error"].text?.contains("over the limit") == true, "\(body)")
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
        let rocket = try rocketFile()
        let sent = try Image(decoding: jpeg)
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0))
        _ = try await application.test(.live) { client in
            let id = try await client.execute(uri: "/api/sources", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: rocket)) { response in
                try #require(try JSON(parsing: response.body)["id"].text)
            }
            try await client.ws("/api/stream", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 26)) { inbound, outbound, _ in
                var stream = StreamClient(inbound, outbound)
                _ = try await stream.message("hello")
                try await stream.send(Recipe(stages: [.init("blend", ["source": "unknown"])]))
                let refused = try await stream.message("error")
                #expect(refused.message.contains("stage 'blend', parameter 'source': no uploaded picture has the id 'unknown'"), "\(refused)")

                try await stream.send(Recipe(stages: [.init("blend", ["source": .text(id), "mode": "multiply"])]))
                let settings = try await stream.message("settings")
                #expect(settings["recipe"]["stages"][0]["source"] == .text(id), "\(settings)")
                try await stream.send(frame: jpeg)
                let blended = try await stream.frame().image
                let expected = try Blend(source: Image(contentsOfFile: dataRoot + "/images/rocket.jpg"), mode: .multiply).apply(to: sent)
                // The server's JPEG (quality 80) of exactly this blend: channel means within a level.
                let means = blended.channelMeans(), wanted = expected.channelMeans()
                #expect(zip(means, wanted).allSatisfy { abs($0 - $1) < 1 }, "\(means) vs \(wanted)")
                #expect(abs(means[0] - sent.channelMeans()[0]) > 10, "multiply darkens")
            }
        }
    }
}

/// A deterministic fuzz test of `POST /api/sources`: damaged pictures (bytes flipped, cut short,
/// runs inserted) are answered 201 or 400, never anything else; a 201's size is what decoding the
/// same bytes gives, and the id serves exactly that picture.
@Suite("Damaged blend-source uploads", .timeLimit(.minutes(2)))
struct BlendSourceUploadFuzzTests {
    @Test("every damaged picture is kept whole or refused with a reason")
    func damagedUploads() async throws {
        let originals = try ["images/rocket.jpg", "images/coins.png"].map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: dataRoot + "/" + $0))) }
        var generator = SeededGenerator(seed: 13)
        var damaged: [[UInt8]] = []
        for original in originals {
            for _ in 0..<120 {
                var bytes = original
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:  // flip bytes, most in the header
                    for _ in 0..<Int.random(in: 1...8, using: &generator) {
                        let position = Int.random(in: 0..<min(bytes.count, Bool.random(using: &generator) ? 400 : bytes.count), using: &generator)
                        bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
                    }
                case 1:  // cut short
                    bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
                default:  // a run of one byte inserted
                    let position = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes.insert(contentsOf: [UInt8](repeating: UInt8.random(in: 0...255, using: &generator), count: Int.random(in: 1...64, using: &generator)), at: position)
                }
                damaged.append(bytes)
            }
        }
        let sources = UploadedSources(capacity: 4, byteLimit: 64 << 20)
        let controller = SourcesController(configuration: StudioConfiguration(), sources: sources)
        let router = Router(context: BasicRequestContext.self)
        controller.addRoutes(to: router)
        let application = Application(router: router)
        let uploads = damaged
        let answers = try await application.test(.router) { client in
            var answers: [(status: HTTPResponse.Status, body: Data)] = []
            for bytes in uploads {
                answers.append(try await client.execute(uri: "/api/sources", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: bytes)) { response in
                    (response.status, Data(buffer: response.body))
                })
            }
            return answers
        }
        var kept = 0, refused = 0
        for (bytes, answer) in zip(damaged, answers) {
            let body = try JSON(parsing: answer.body)
            switch answer.status {
            case .created:
                kept += 1
                let decoded = try Image(decoding: bytes)
                let id = try #require(body["id"].text)
                #expect(body["width"].int == decoded.width && body["height"].int == decoded.height)
                if let kept = try? sources.image(id: id) { #expect(kept == decoded) }  // the latest 4 are still there
            case .badRequest, .contentTooLarge:
                refused += 1
                // A forged size is 413 by its code's kind; any other damage 400.
                #expect((answer.status == .contentTooLarge) == (body["code"] == "image.tooManyPixels"), "\(body)")
                let reason = body["error"].text ?? ""
                #expect(!reason.isEmpty && !reason.contains("\n"), "\(reason)")
                #expect(throws: OcularError.self) { try Image(decoding: bytes) }
            default:
                Issue.record("status \(answer.status) for \(bytes.count) damaged bytes")
            }
        }
        #expect(kept > 10 && refused > 10, "kept \(kept), refused \(refused)")
    }
}

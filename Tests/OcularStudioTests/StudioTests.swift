import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Ocular
import Testing
@testable import OcularStudio

/// A JPEG frame as the browser sends it, and the image it holds.
private func coffeeFrame() throws -> (jpeg: [UInt8], image: Image) {
    let image = try Image(contentsOfFile: dataRoot + "/images/coffee.png")
    let jpeg = try image.encoded(as: .jpeg(quality: 90))
    return (jpeg, try Image(decoding: jpeg))
}

/// Reads the next message, failing the test when the stream ends.
private func next(_ messages: inout WebSocketInboundMessageStream.AsyncIterator) async throws -> WebSocketMessage {
    guard let message = try await messages.next() else { throw StreamEnded() }
    return message
}

private struct StreamEnded: Error {}

private func json(_ message: WebSocketMessage) throws -> [String: Any] {
    guard case .text(let text) = message else { throw UnexpectedMessage(description: "expected text, got binary") }
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw UnexpectedMessage(description: "not a JSON object: \(text)")
    }
    return object
}

private func frame(_ message: WebSocketMessage) throws -> Image {
    try ReadFrameAnswer(message).image
}

private struct UnexpectedMessage: Error, CustomStringConvertible { let description: String }

/// A seed whose first 30 tints (a minute of animation) all change red against blue by over 10 %.
private let visibleTintSeed: UInt64 = (0..<10_000).first { seed in
    (0..<30).allSatisfy { number in
        let tint = TintSequence(seed: seed).tint(number: number)
        return abs(tint.red / tint.blue - 1) > 0.1
    }
}!

private let clientConfiguration = WebSocketClientConfiguration(maxFrameSize: 1 << 26)

@Suite("Ocular Studio server", .timeLimit(.minutes(1)))
struct StudioTests {
    func makeApplication() throws -> some ApplicationProtocol {
        try Studio.makeApplication(configuration: StudioConfiguration(port: 0))
    }

    @Test("health answers 200 with Ocular's and OpenCV's versions")
    func health() async throws {
        try await makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/health", method: .get) { response in
                #expect(response.status == .ok)
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(body?["ocular"] as? String == OcularVersion.current)
                #expect(body?["opencv"] as? String == OcularVersion.openCV)
                #expect((body?["opencv"] as? String)?.hasPrefix("4.") == true)
                #expect(body?["streams"] as? Int == 0)
            }
        }
    }

    @Test("the pages, their scripts and the demo stills are served")
    func webApp() async throws {
        try await makeApplication().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<title>Light Work · Ocular Studio</title>"))
            }
            // The live view's connection module opens the stream.
            try await client.execute(uri: "/connection.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("/api/stream"))
            }
            for (page, script) in [("/masks.html", "masks.js"), ("/beans.html", "beans.js"), ("/gallery.html", "gallery.js")] {
                try await client.execute(uri: page, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body).contains(#"<script src="\#(script)" type="module">"#))
                }
            }
            // Every page the bar lists is a file that names itself so, and the bar's module lists them all.
            for page in StudioPage.allCases {
                try await client.execute(uri: "/" + page.file, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body).contains(#"data-page="\#(page.rawValue)""#), "\(page.file)")
                }
            }
            try await client.execute(uri: "/api/pages.js", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains(#"{"href":"masks.html","name":"manyMasks","title":"Many Masks"}"#))
                #expect(String(buffer: response.body).contains(#"export const PAGES = [{"href":"./","name":"lightWork""#))
            }
            try await client.execute(uri: "/demo/chelsea.jpg", method: .get) { response in
                let still = try? Image(decoding: Array(response.body.readableBytesView))
                #expect(still?.width == 451 && still?.height == 300)
            }
            try await client.execute(uri: "/demo/beans.jpg", method: .get) { response in
                let still = try? Image(decoding: Array(response.body.readableBytesView))
                #expect(still?.width == 1280 && still?.height == 720)
            }
            try await client.execute(uri: "/demo/astronaut.jpg", method: .get) { response in
                #expect(response.status == .ok)
                let still = try? Image(decoding: Array(response.body.readableBytesView))
                #expect(still?.width == 512)
            }
            try await client.execute(uri: "/../Package.swift", method: .get) { response in
                #expect(response.status == .notFound || response.status == .badRequest)
            }
        }
    }

    @Test("a JPEG frame comes back the same size, and the chosen effect shows in its pixels")
    func roundTrip() async throws {
        let (jpeg, original) = try coffeeFrame()
        _ = try await makeApplication().test(.live) { client in
            let connectStart = ContinuousClock.now
            try await client.ws("/api/stream", configuration: clientConfiguration) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 26).makeAsyncIterator()
                let hello = try json(try await next(&messages))
                let helloAt = ContinuousClock.now
                #expect(hello["type"] as? String == "hello")
                let stages = try #require(hello["stages"] as? [[String: Any]])
                #expect(stages.map { $0["name"] as? String } == StageRegistry.standard.names)
                let seed = try #require((stages[2]["parameters"] as? [[String: Any]])?.first)
                #expect(seed["name"] as? String == "seed" && seed["kind"] as? String == "number" && seed["maximum"] as? Int == 4294967295)
                #expect(hello["recipe"] as? [String: [String]] == ["stages": []])
                #expect(hello["quality"] as? Int == 80)

                try await outbound.write(.binary(ByteBuffer(bytes: jpeg)))
                let plain = try frame(try await next(&messages))
                #expect(plain.width == 600 && plain.height == 400 && plain.format == .bgr8)
                let plainMeans = plain.channelMeans()
                #expect(plainMeans[2] > plainMeans[0] + 20, "colour kept: \(plainMeans)")

                try await outbound.write(.text(#"{"type":"settings","recipe":{"stages":[{"stage":"gray"}]}}"#))
                let settings = try json(try await next(&messages))
                #expect(settings["type"] as? String == "settings")
                #expect(((settings["recipe"] as? [String: Any])?["stages"] as? [[String: Any]])?.map { $0["stage"] as? String } == ["gray"])
                try await outbound.write(.binary(ByteBuffer(bytes: jpeg)))
                let gray = try frame(try await next(&messages))
                #expect(gray.width == 600 && gray.height == 400 && gray.format == .gray8)
                // Within JPEG error of the original's luma.
                let luma = try original.converted(to: .gray8).channelMeans()[0]
                #expect(abs(gray.channelMeans()[0] - luma) < 2)

                // The tint shown depends on the time since the session started, which lies between
                // these bounds; the seed is one whose early tints all move red against blue visibly.
                try await outbound.write(.text(#"{"type":"settings","recipe":{"stages":[{"stage":"tint","seed":\#(visibleTintSeed)}]}}"#))
                _ = try await next(&messages)
                let sentAt = ContinuousClock.now
                try await outbound.write(.binary(ByteBuffer(bytes: jpeg)))
                let tinted = try frame(try await next(&messages))
                let repliedAt = ContinuousClock.now
                let interval = Tint.defaultInterval
                let earliest = Int((sentAt - helloAt) / interval), latest = Int((repliedAt - connectStart) / interval)
                let expected = try (earliest...latest).map { try TintSequence(seed: visibleTintSeed).tint(number: $0).apply(to: original) }
                let means = tinted.channelMeans()
                #expect(expected.contains { zip($0.channelMeans(), means).allSatisfy { abs($0 - $1) < 2 } },
                        "means \(means) match none of tints \(earliest)...\(latest)")
                #expect(abs(means[2] / means[0] - plainMeans[2] / plainMeans[0]) > 0.1)
            }
        }
    }

    @Test("malformed JSON and bad settings get error messages; the connection keeps working")
    func badText() async throws {
        let (jpeg, _) = try coffeeFrame()
        _ = try await makeApplication().test(.live) { client in
            try await client.ws("/api/stream", configuration: clientConfiguration) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 26).makeAsyncIterator()
                _ = try await next(&messages)  // hello
                try await outbound.write(.text(#"{"type":"settings","recipe":{"stages":[{"stage":"gray"}]}}"#))
                #expect(try json(try await next(&messages))["type"] as? String == "settings")
                // A text that is no message is answered as what it is; a settings message, as a settings.
                for (text, expected) in [
                    ("{not json", "not a JSON object"),
                    (#"{"effect":"gray"}"#, "a message needs a 'type'"),
                    (#"{"type":"colour"}"#, "unknown message type 'colour'; the types are settings"),
                    (#"{"type":"settings","colour":"red"}"#, "a settings message has no 'colour'"),
                    (#"{"type":"settings","quality":500}"#, "quality must be a whole number from 1 to 100, got 500"),
                    (#"{"type":"settings","recipe":{"stages":[{"stage":"glitter"}]}}"#,
                     "unknown stage 'glitter'; the nearest names are \(StageRegistry.standard.nearestNames(to: "glitter", count: 3).map { "'\($0)'" }.joined(separator: ", ")) (\(StageRegistry.standard.stages.count) stages in all)"),
                    (#"{"type":"settings","recipe":{"stages":[{"stage":"tint","seed":-1}]}}"#,
                     "stage 'tint', parameter 'seed': must be a whole number from 0 to 4294967295, got -1"),
                    (#"{"type":"settings","recipe":{"stages":[{"seed":1}]}}"#, "stages[0] has no 'stage'"),
                    // All or nothing: the valid recipe is not applied either.
                    (#"{"type":"settings","recipe":{"stages":[]},"quality":0}"#, "quality must be a whole number from 1 to 100, got 0"),
                ] {
                    try await outbound.write(.text(text))
                    let reply = try json(try await next(&messages))
                    #expect(reply["type"] as? String == "error")
                    #expect(reply["about"] as? String == (text.contains(#""type":"settings""#) ? "settings" : "message"), "\(text) → \(reply)")
                    #expect((reply["message"] as? String)?.contains(expected) == true, "\(text) → \(reply)")
                }
                // The connection works, with the settings before the bad messages.
                try await outbound.write(.binary(ByteBuffer(bytes: jpeg)))
                let shown = try frame(try await next(&messages))
                #expect(shown.width == 600 && shown.format == .gray8)
            }
        }
    }

    @Test("garbage and oversized frames get error messages; the connection keeps working")
    func badFrames() async throws {
        let (jpeg, _) = try coffeeFrame()
        _ = try await makeApplication().test(.live) { client in
            try await client.ws("/api/stream", configuration: clientConfiguration) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 26).makeAsyncIterator()
                _ = try await next(&messages)  // hello

                try await outbound.write(.binary(ByteBuffer(bytes: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05])))
                let garbage = try json(try await next(&messages))
                #expect(garbage["type"] as? String == "error" && garbage["about"] as? String == "frame")
                #expect((garbage["message"] as? String)?.contains("not an image") == true)

                try await outbound.write(.binary(ByteBuffer(bytes: Array(jpeg.prefix(jpeg.count / 2)))))
                let truncated = try json(try await next(&messages))
                #expect((truncated["message"] as? String)?.contains("truncated") == true)

                try await outbound.write(.binary(ByteBuffer(repeating: 0xFF, count: 16 << 20)))
                let huge = try json(try await next(&messages))
                #expect(huge["about"] as? String == "frame")
                #expect((huge["message"] as? String)?.contains("the limit is 8388608 bytes") == true)

                try await outbound.write(.binary(ByteBuffer(bytes: jpeg)))
                #expect(try frame(try await next(&messages)).height == 400)
            }
        }
    }

    @Test("a flood of frames is answered frame for frame, late ones dropped rather than queued")
    func flood() async throws {
        // 12-megapixel frames of one colour: a small JPEG to send, many pixels to decode and encode, so
        // that the frames arrive much faster than they can be processed.
        let width = 4000, height = 3000
        let large = try Image(width: width, height: height, format: .bgr8, filledWith: [40, 120, 200]).encoded(as: .jpeg(quality: 90))
        _ = try await makeApplication().test(.live) { client in
            try await client.ws("/api/stream", configuration: clientConfiguration) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 26).makeAsyncIterator()
                _ = try await next(&messages)  // hello
                let sent = 20
                for _ in 0..<sent { try await outbound.write(.binary(ByteBuffer(bytes: large))) }
                var frames = 0, dropped = 0
                var answered: [Int] = []
                for _ in 0..<sent {
                    switch try await next(&messages) {
                    case .binary(let reply):
                        let answer = try ReadFrameAnswer(.binary(reply))
                        #expect(try answer.image.width == width)
                        answered.append(answer.frame)
                        frames += 1
                    case .text(let text):
                        #expect(text.contains(#""type":"dropped""#), "\(text)")
                        answered.append(try #require(try json(.text(text))["frame"] as? Int))
                        dropped += 1
                    }
                }
                #expect(frames + dropped == sent)
                // Each answer names its frame: every frame once. A dropped frame is answered as soon as a
                // newer one replaces it, before the frame under way is done: answers need not come in the
                // order the frames went, which is why they carry the number.
                #expect(answered.sorted() == Array(1...sent), "\(answered)")
                #expect(frames >= 1)
                #expect(dropped >= 1, "\(sent) frames sent at once should not all be processed")
            }
        }
    }
}

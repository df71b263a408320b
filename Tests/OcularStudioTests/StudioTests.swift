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

/// A JPEG frame as the browser sends it, and the image it holds.
private func coffeeFrame() throws -> (jpeg: [UInt8], image: Image) {
    let image = try Image(contentsOfFile: dataRoot + "/images/coffee.png")
    let jpeg = try image.encoded(as: .jpeg(quality: 90))
    return (jpeg, try Image(decoding: jpeg))
}

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
                let body = try JSON(parsing: Data(buffer: response.body))
                #expect(body["ocular"] == .text(OcularVersion.current))
                #expect(body["opencv"] == .text(OcularVersion.openCV))
                #expect(body["opencv"].text?.hasPrefix("4.") == true)
                #expect(body["streams"] == 0)
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
            // A feature's page and its module carry the feature's name; the root shows Light Work.
            for (page, script) in [("/", "light-work.js"), ("/light-work.html", "light-work.js"), ("/many-masks.html", "many-masks.js"),
                                   ("/bean-counter.html", "bean-counter.js"), ("/gallery.html", "gallery.js")] {
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
            // The pages' former addresses answer 301 to their files now, the query kept.
            for (former, location) in [("/masks.html?source=astronaut", "/many-masks.html?source=astronaut"), ("/beans.html", "/bean-counter.html"),
                                       ("/index.html", "/")] {
                try await client.execute(uri: former, method: .get) { response in
                    #expect(response.status == .movedPermanently && response.headers[.location] == location, "\(former)")
                }
            }
            try await client.execute(uri: "/api/pages.js", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains(#"{"href":"many-masks.html","name":"manyMasks","title":"Many Masks"}"#))
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
                var stream = StreamClient(inbound, outbound)
                let hello = try await stream.message("hello")
                let helloAt = ContinuousClock.now
                let stages = hello["stages"].list
                #expect(stages.map { $0["name"].text } == StageRegistry.standard.names)
                let seed = stages[2]["parameters"][0]
                #expect(seed["name"] == "seed" && seed["kind"] == "number" && seed["maximum"] == 4294967295)
                #expect(hello["recipe"] == ["stages": []])
                #expect(hello["quality"] == 80)

                try await stream.send(frame: jpeg)
                let plain = try await stream.frame().image
                #expect(plain.width == 600 && plain.height == 400 && plain.format == .bgr8)
                let plainMeans = plain.channelMeans()
                #expect(plainMeans[2] > plainMeans[0] + 20, "colour kept: \(plainMeans)")

                try await stream.send(Recipe(stages: [.init("gray")]))
                let settings = try await stream.message("settings")
                #expect(settings["recipe"]["stages"].list.map { $0["stage"].text } == ["gray"])
                try await stream.send(frame: jpeg)
                let gray = try await stream.frame().image
                #expect(gray.width == 600 && gray.height == 400 && gray.format == .gray8)
                // Within JPEG error of the original's luma.
                let luma = try original.converted(to: .gray8).channelMeans()[0]
                #expect(abs(gray.channelMeans()[0] - luma) < 2)

                // The tint shown depends on the time since the session started, which lies between
                // these bounds; the seed is one whose early tints all move red against blue visibly.
                try await stream.send(Recipe(stages: [.init("tint", ["seed": .number(Double(visibleTintSeed))])]))
                _ = try await stream.message("settings")
                let sentAt = ContinuousClock.now
                try await stream.send(frame: jpeg)
                let tinted = try await stream.frame().image
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
                var stream = StreamClient(inbound, outbound)
                _ = try await stream.message("hello")
                try await stream.send(Recipe(stages: [.init("gray")]))
                _ = try await stream.message("settings")
                // A text that is no message is answered as what it is; a settings message, as a settings.
                // These are sent as text on purpose: none is a message the studio takes.
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
                    try await stream.send(text: text)
                    let reply = try await stream.message("error")
                    #expect(reply["about"] == (text.contains(#""type":"settings""#) ? "settings" : .text(StreamMessage.unreadable)), "\(text) → \(reply)")
                    #expect(reply.message.contains(expected), "\(text) → \(reply)")
                }
                // The connection works, with the settings before the bad messages.
                try await stream.send(frame: jpeg)
                let shown = try await stream.frame().image
                #expect(shown.width == 600 && shown.format == .gray8)
            }
        }
    }

    @Test("garbage and oversized frames get error messages; the connection keeps working")
    func badFrames() async throws {
        let (jpeg, _) = try coffeeFrame()
        _ = try await makeApplication().test(.live) { client in
            try await client.ws("/api/stream", configuration: clientConfiguration) { inbound, outbound, _ in
                var stream = StreamClient(inbound, outbound)
                _ = try await stream.message("hello")

                try await stream.send(frame: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05])
                let garbage = try await stream.message("error")
                #expect(garbage["about"] == "frame" && garbage["frame"] == 1)
                #expect(garbage.message.contains("not an image"))

                try await stream.send(frame: Array(jpeg.prefix(jpeg.count / 2)))
                #expect(try await stream.message("error").message.contains("truncated"))

                try await stream.send(frame: [UInt8](repeating: 0xFF, count: 16 << 20))
                let huge = try await stream.message("error")
                #expect(huge["about"] == "frame")
                #expect(huge.message.contains("the limit is 8388608 bytes"))

                try await stream.send(frame: jpeg)
                #expect(try await stream.frame().image.height == 400)
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
                var stream = StreamClient(inbound, outbound)
                _ = try await stream.message("hello")
                let sent = 20
                for _ in 0..<sent { try await stream.send(frame: large) }
                var frames = 0, dropped = 0
                var answered: [Int] = []
                for _ in 0..<sent {
                    switch try await stream.answer() {
                    case .frame(let answer):
                        #expect(try answer.image.width == width)
                        answered.append(answer.frame)
                        frames += 1
                    case .message(let message):
                        #expect(message.type == "dropped", "\(message)")
                        answered.append(try #require(message["frame"].int))
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

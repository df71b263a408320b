import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Ocular
import OcularGallery
import OcularTestSupport
import Testing
@testable import OcularStudio

/// A gallery in a fresh folder, removed with the value.
private final class TemporaryGallery: Sendable {
    let folder = NSTemporaryDirectory() + "ocular-studio-gallery-" + UUID().uuidString
    let gallery: Gallery

    init() throws { gallery = try Gallery(folder: folder) }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}

@Suite("Ocular Studio's gallery: saving from the stream and /api/gallery", .timeLimit(.minutes(1)))
struct GalleryStudioTests {
    @Test("a save message saves the next processed frame losslessly with its recipe, answered by saved with its URLs")
    func saveFromStream() async throws {
        let temporary = try TemporaryGallery()
        let jpeg = try Image(contentsOfFile: dataRoot + "/images/coffee.png").encoded(as: .jpeg(quality: 90))
        let grayRecipe = try Recipe(json: #"{"stages":[{"stage":"gray"}]}"#)
        let expected = try Pipeline(grayRecipe).process(Image(decoding: jpeg))
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0), gallery: temporary.gallery)
        _ = try await application.test(.live) { client in
            try await client.ws("/api/stream", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 26)) { inbound, outbound, _ in
                var stream = StreamClient(inbound, outbound)
                _ = try await stream.message("hello")
                try await stream.send(grayRecipe)
                _ = try await stream.message("settings")
                try await stream.send("save", ["caption": "gray cup"])
                try await stream.send("save")
                let refused = try await stream.message("error")
                #expect(refused["about"] == "save" && refused.message.contains("already waiting"))
                try await stream.send(frame: jpeg)
                // The save's answer travels with the frame it saved.
                let answer = try await stream.frame()
                #expect(answer.frame == 1 && answer.messages.map(\.type) == ["saved"])
                let item = try #require(answer.message("saved"))["item"]
                #expect(item["id"] == 1 && item["url"] == "/api/gallery/1")
                #expect(item["thumbnailURL"] == "/api/gallery/1/thumbnail" && item["caption"] == "gray cup")
                // The next frame is not saved again.
                try await stream.send(frame: jpeg)
                #expect(try await stream.frame().messages.isEmpty)
                try await stream.send("save", ["caption": 5])
                let badCaption = try await stream.message("error")
                #expect(badCaption.message.contains("caption must be text"))
            }
            try await client.execute(uri: "/api/gallery/1", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/png")
                let savedFrame = try Image(decoding: Array(response.body.readableBytesView))
                #expect(savedFrame == expected)
            }
        }
        let items = try temporary.gallery.items()
        #expect(items.count == 1 && items[0].recipe == grayRecipe && items[0].source == "studio" && items[0].kind == .photo)
    }

    @Test("GET lists newest first with URLs and no paths, serves files, ranges and thumbnails; DELETE removes; unknown ids 404")
    func httpAPI() async throws {
        let temporary = try TemporaryGallery()
        let rocketPath = dataRoot + "/images/rocket.jpg"
        let rocket = try Data(contentsOf: URL(fileURLWithPath: rocketPath))
        try temporary.gallery.add(fileAt: rocketPath, caption: "rocket")
        try temporary.gallery.add(fileAt: dataRoot + "/video/astronaut_pan.avi")
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0), gallery: temporary.gallery)
        try await application.test(.router) { client in
            try await client.execute(uri: "/api/gallery", method: .get) { response in
                #expect(response.status == .ok)
                #expect(!String(buffer: response.body).contains(temporary.folder), "a server path reached the client")
                let page = try JSON(parsing: response.body)
                let items = page["items"].list
                #expect(page["total"] == 2 && items.map(\.["id"]) == [2, 1])
                #expect(items[0]["kind"] == "video" && items[1]["caption"] == "rocket")
                #expect(items[1]["url"] == "/api/gallery/1" && items[1]["createdAt"].text?.hasSuffix("Z") == true)
            }
            try await client.execute(uri: "/api/gallery?limit=1&offset=1", method: .get) { response in
                let page = try JSON(parsing: response.body)
                #expect(page["items"].list.map(\.["id"]) == [1])
            }
            for query in ["limit=0", "limit=201", "limit=x", "offset=-1"] {
                try await client.execute(uri: "/api/gallery?\(query)", method: .get) { response in
                    let body = try JSON(parsing: response.body)
                    #expect(response.status == .badRequest && body["error"].text != nil, "\(query)")
                }
            }
            try await client.execute(uri: "/api/gallery/1", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/jpeg")
                #expect(Data(buffer: response.body) == rocket)
            }
            try await client.execute(uri: "/api/gallery/1", method: .get, headers: [.range: "bytes=10-19"]) { response in
                #expect(response.status == .partialContent && response.headers[.contentRange] == "bytes 10-19/\(rocket.count)")
                #expect(Data(buffer: response.body) == rocket[10...19])
            }
            try await client.execute(uri: "/api/gallery/1", method: .get, headers: [.range: "bytes=999999999-"]) { response in
                #expect(response.status == .rangeNotSatisfiable)
            }
            try await client.execute(uri: "/api/gallery/2", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "video/x-msvideo")
            }
            try await client.execute(uri: "/api/gallery/2/thumbnail", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/jpeg")
                let thumbnail = try Image(decoding: Array(response.body.readableBytesView))
                #expect(thumbnail.width == 256 && thumbnail.height == 192)
            }
            for uri in ["/api/gallery/99", "/api/gallery/abc", "/api/gallery/99/thumbnail", "/api/gallery/-1"] {
                try await client.execute(uri: uri, method: .get) { response in
                    let body = try JSON(parsing: response.body)
                    #expect(response.status == .notFound && body["error"].text != nil, "\(uri)")
                }
            }
            try await client.execute(uri: "/api/gallery/1", method: .delete) { response in
                let body = try JSON(parsing: response.body)
                #expect(response.status == .ok && body["deleted"] == 1)
            }
            try await client.execute(uri: "/api/gallery/1", method: .delete) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/gallery", method: .get) { response in
                let body = try JSON(parsing: response.body)
                #expect(body["total"] == 1)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: temporary.folder + "/photos/rocket.jpg"))
    }

    @Test("byte ranges (RFC 9110): one range clamped to the file; other units, several ranges and malformed ones ignored; past the end 416")
    func byteRanges() {
        #expect(GalleryController.byteRange("bytes=0-9", size: 100) == .range(0...9))
        #expect(GalleryController.byteRange("bytes=90-200", size: 100) == .range(90...99))
        #expect(GalleryController.byteRange("bytes=10-", size: 100) == .range(10...99))
        #expect(GalleryController.byteRange("bytes=-30", size: 100) == .range(70...99))
        #expect(GalleryController.byteRange("bytes=-300", size: 100) == .range(0...99))
        #expect(GalleryController.byteRange("Bytes = 5-6", size: 100) == .range(5...6))
        // Positions past what a number holds are clamped, not refused (they were 416).
        #expect(GalleryController.byteRange("bytes=0-99999999999999999999999", size: 100) == .range(0...99))
        #expect(GalleryController.byteRange("bytes=-99999999999999999999999", size: 100) == .range(0...99))
        for ignored in ["items=0-1", "bytes=0-1,3-4", "bytes=5-4", "bytes=-", "bytes=x-1", "bytes 0-1"] {
            #expect(GalleryController.byteRange(ignored, size: 100) == .whole, "\(ignored)")
        }
        for unsatisfiable in ["bytes=100-", "bytes=100-200", "bytes=-0", "bytes=99999999999999999999-"] {
            #expect(GalleryController.byteRange(unsatisfiable, size: 100) == .unsatisfiable, "\(unsatisfiable)")
        }
    }

    @Test("damaged Range headers give the whole file, 416 or a range inside the file, never a crash")
    func byteRangeFuzz() {
        let fragments = ["bytes", "=", "-", "0", "1", "9", "99", ",", " ", "x", "18446744073709551615", "999999999999999999"]
        var generator = SeededGenerator(seed: 5)
        var satisfiable = 0
        for _ in 0..<5_000 {
            // A valid header with random numbers, then maybe damaged by an inserted or removed piece.
            let first = Int.random(in: 0...250, using: &generator), last = Int.random(in: 0...250, using: &generator)
            var header = ["bytes=\(first)-\(last)", "bytes=\(first)-", "bytes=-\(last)"].randomElement(using: &generator)!
            if Bool.random(using: &generator) {
                let position = header.index(header.startIndex, offsetBy: Int.random(in: 0...header.count, using: &generator))
                if Bool.random(using: &generator) || position == header.endIndex {
                    header.insert(contentsOf: fragments.randomElement(using: &generator)!, at: position)
                } else {
                    header.remove(at: position)
                }
            }
            let size = Int.random(in: 0...200, using: &generator)
            guard case .range(let range) = GalleryController.byteRange(header, size: size) else { continue }
            satisfiable += 1
            #expect(range.lowerBound >= 0 && range.upperBound < size, "\(header) in \(size) bytes gave \(range)")
        }
        #expect(satisfiable > 1_000)
    }
}

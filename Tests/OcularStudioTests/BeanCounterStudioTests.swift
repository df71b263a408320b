import Foundation
import HummingbirdTesting
import NIOCore
import Ocular
import OcularGallery
import OcularTestSupport
import Testing
@testable import OcularStudio

@Suite("Ocular Studio's Bean Counter: the classifier, blobs beside each frame, classify and save", .timeLimit(.minutes(1)))
struct BeanCounterStudioTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/OcularStudio").path
    static let demo = sources + "/Public/demo"
    static let shippedTrainingList = sources + "/TrainingList"

    /// A copy of the shipped training set, so the test's model file stays in its own folder.
    static func trainingSet(in folder: String) throws -> String {
        try FileManager.default.copyItem(atPath: shippedTrainingList, toPath: folder + "/beans")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/beans") where name.hasSuffix(".blobmodel") {
            try FileManager.default.removeItem(atPath: folder + "/beans/" + name)
        }
        return folder + "/beans/labels.json"
    }

    @Test("classify the demo scene's biggest blob (the toonie) and save it captioned with its label")
    func classifyAndSave() async throws {
        let folder = NSTemporaryDirectory() + "ocular-beans-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gallery = try Gallery(folder: folder + "/gallery")
        let beans = BeanCounter(trainingList: try Self.trainingSet(in: folder))
        let session = try StreamSession(configuration: StudioConfiguration(port: 0), gallery: StudioGallery(gallery), beanCounter: beans)
        let scene = try Image(contentsOfFile: Self.demo + "/beans.jpg").encoded(as: .jpeg(quality: 90))

        #expect(try StreamProtocol().answer(session.receive(declared: "saveBlob")).message
                == "nothing to save: classify a blob first")
        _ = try session.receive(Recipe(stages: [.init("blobs")]))
        guard case .frame(let jpeg, let found, _) = session.process(ByteBuffer(bytes: scene)) else { Issue.record("refused"); return }
        let annotations = try StreamProtocol().answer(found)
        let blobs = annotations["blobs"].list
        #expect(blobs.count == 7 && annotations["faces"] == nil)
        // Green boxes on the answer.
        let bounds = try AnswerReading.bounds(blobs.first)
        let edge = try Image(decoding: jpeg).pixel(x: bounds[0] + 1, y: bounds[1] + bounds[3] / 2)
        #expect(edge[1] > 200 && edge[0] < 90 && edge[2] < 90, "\(edge)")

        await beans.waitUntilPrepared()
        let classified = try StreamProtocol().answer(session.receive(declared: "classify"))
        #expect(classified.type == "classified", "\(classified)")
        let blob = classified["blob"]
        #expect(blob["label"] == 6 && blob["description"] == "toonie, Canadian two-dollar")
        #expect(try AnswerReading.bounds(blob) == bounds)
        #expect((blob["distance"].double ?? 1) < 0.33)
        let picture = try AnswerReading.picture(classified["image"])
        #expect(picture.width == bounds[2] && picture.height == bounds[3])

        let saved = try StreamProtocol().answer(session.receive(declared: "saveBlob"))
        #expect(saved.type == "saved", "\(saved)")
        let item = try #require(try gallery.items().first)
        #expect(item.caption == "toonie, Canadian two-dollar" && item.source == "bean counter")
        // Saved losslessly: the blob's own pixels.
        let stored = try Image(contentsOfFile: gallery.path(of: item))
        let expected = try Image(decoding: scene).cropped(to: PixelRectangle(x: bounds[0], y: bounds[1], width: bounds[2], height: bounds[3]))
        #expect(try stored.converted(to: .bgr8).bytes == expected.bytes)

        // The mask flag shows the mask; a frame with nothing on it lists no blobs and has nothing to classify.
        let plain = try Image(width: 320, height: 240, format: .bgr8, filledWith: [200, 205, 210]).encoded(as: .png())
        guard case .frame(_, let none, _) = session.process(ByteBuffer(bytes: plain)) else { Issue.record("refused"); return }
        #expect(try #require(none).json == #"{"blobs":[],"type":"annotations"}"#)
        #expect(try StreamProtocol().answer(session.receive(declared: "classify")).message
                == "no blob in the frame just shown: classify while a blob is boxed")
    }

    @Test("GET /api/bean-counter says training, then ready with the labels; a bad list says failed with the reason")
    func status() async throws {
        let folder = NSTemporaryDirectory() + "ocular-beans-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = try Self.trainingSet(in: folder)
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0, trainingList: list))
        try await application.test(.router) { client in
            var state = ""
            for _ in 0..<500 where state != "ready" {
                try await client.execute(uri: "/api/bean-counter", method: .get) { response in
                    #expect(response.status == .ok)
                    let body = try JSON(parsing: Data(buffer: response.body))
                    state = body["state"].text ?? ""
                    #expect(["training", "ready"].contains(state))
                    if state == "ready" {
                        #expect(body["labels"].list.count == 9 && body["references"] == 7)
                        #expect(body["profile"] == "default" && body["problems"] == [])
                    }
                }
                if state != "ready" { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(state == "ready")
        }
        // The model is a cache: in the user's cache folder, not beside the list.
        #expect(FileManager.default.fileExists(atPath: try BlobModel.modelPath(forList: folder + "/beans/labels.json", profile: .standard)))
        #expect(!FileManager.default.fileExists(atPath: folder + "/beans/labels.default.blobmodel"))

        let broken = BeanCounter(trainingList: folder + "/none.json")
        await broken.waitUntilPrepared()
        #expect(broken.status.state == "failed" && broken.status.message?.contains("no such file") == true)
        let session = try StreamSession(configuration: StudioConfiguration(port: 0), beanCounter: broken)
        #expect(try StreamProtocol().answer(session.receive(declared: "classify")).message
                == "there is no classifier: cannot read '\(folder)/none.json': no such file")
    }

    @Test("damaged Bean Counter messages are refused by name")
    func badMessages() throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0))
        // Sent as text: messages no builder makes, which the studio must refuse.
        let cases = [
            (#"{"type":"classify","blob":1}"#, "a classify message has no 'blob'; it has only its type"),
            (#"{"type":"saveBlob","caption":[]}"#, "a saveBlob message's caption must be text"),
        ]
        for (text, reason) in cases {
            let reply = try StreamProtocol().answer(session.receive(text))
            #expect(reply.type == "error" && reply.message == reason, "\(text): \(reply)")
        }
        // A well-made classify, to a session with no classifier: refused for that.
        let unready = try StreamProtocol().answer(session.receive(declared: "classify"))
        #expect(unready.type == "error" && unready.message == "this studio has no classifier", "\(unready)")
    }
}

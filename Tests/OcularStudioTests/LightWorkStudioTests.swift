import Foundation
import NIOCore
import Ocular
import OcularGallery
import OcularTestSupport
import Testing
@testable import OcularStudio

/// A tap on a 1000 × 600 view of a 640 × 480 frame, with what else it says.
private func tap(x: Double, y: Double, _ more: [String: JSON] = [:]) -> [String: JSON] {
    ["x": .number(x), "y": .number(y), "viewWidth": 1000, "viewHeight": 600, "frameWidth": 640, "frameHeight": 480].merging(more) { $1 }
}

@Suite("Ocular Studio's Light Work: taps to points of interest, gallery photos as blend sources")
struct LightWorkStudioTests {
    @Test("a tap is mapped through the camera geometry: letterbox offset, size, front-camera mirror")
    func tapMapping() throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0))
        let answer = try StreamProtocol().answer(session.receive(declared: "tap", tap(x: 300, y: 60, ["position": "front"])))
        #expect(answer.type == "tapped")
        #expect(answer["preview"] == ["x": 100, "y": 0, "width": 800, "height": 600])
        #expect(answer["pointOfInterest"] == ["x": 0.75, "y": 0.1])
        // Portrait, back camera: (0.25, 0.1) → (0.1, 0.75).
        let portrait = try StreamProtocol().answer(session.receive(declared: "tap", tap(x: 300, y: 60, ["orientation": "portrait"])))
        #expect(portrait["pointOfInterest"] == ["x": 0.1, "y": 0.75])
        // On the letterbox bar: no point.
        let bar = try StreamProtocol().answer(session.receive(declared: "tap", tap(x: 50, y: 300)))
        #expect(bar.type == "tapped" && bar.body.keys.contains("pointOfInterest") && bar["pointOfInterest"] == nil)
    }

    // Sent as text: each is a tap the studio must refuse.
    @Test("a malformed tap is an error saying what is wrong", arguments: [
        (#"{"type":"tap","x":1,"y":2}"#, "a tap's viewWidth must be a number of pixels"),
        (#"{"type":"tap","x":"a","y":2,"viewWidth":1,"viewHeight":1,"frameWidth":1,"frameHeight":1}"#, "a tap's x must be a number"),
        (#"{"type":"tap","x":1,"y":2,"viewWidth":1,"viewHeight":1,"frameWidth":1,"frameHeight":1,"orientation":"sideways"}"#,
         "a tap's orientation is one of portrait, portrait-upside-down, landscape-left, landscape-right, not 'sideways'"),
        (#"{"type":"tap","x":1,"y":2,"viewWidth":1,"viewHeight":1,"frameWidth":1,"frameHeight":1,"zoom":2}"#, "a tap message has no 'zoom'"),
    ])
    func badTaps(message: String, expected: String) throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0))
        let answer = try StreamProtocol().answer(session.receive(message))
        #expect(answer.type == "error" && answer["about"] == "tap")
        #expect(answer.message.contains(expected), "\(answer)")
    }

    @Test("a gallery photo named gallery:ID is a blend source; unknown and malformed ids are refused")
    func galleryBlendSource() throws {
        let folder = NSTemporaryDirectory() + "ocular-light-work-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gallery = try Gallery(folder: folder)
        let picture = try Image(contentsOfFile: dataRoot + "/images/rocket.jpg")
        let item = try gallery.save(picture, recipe: Recipe(), source: "test")
        let configuration = StudioConfiguration(port: 0)
        let studioGallery = StudioGallery(gallery)
        let pictures = StudioPictures(uploads: UploadedSources(capacity: 2, byteLimit: 1 << 26), gallery: studioGallery,
                                      readOptions: ImageReadOptions())
        let session = try StreamSession(configuration: configuration, images: pictures, gallery: studioGallery)
        let settings = try StreamProtocol().answer(session.receive(Recipe(stages: [.init("blend", ["source": .text("gallery:\(item.id)"), "mode": "screen"])]), quality: 100))
        #expect(settings.type == "settings", "\(settings)")
        let frame = try Image(contentsOfFile: dataRoot + "/images/coffee.png")
        let png = try frame.encoded(as: .png())
        guard case .frame(let answer, _, _) = session.process(ByteBuffer(bytes: png)) else { Issue.record("the frame was refused"); return }
        let expected = try Blend(source: picture, mode: .screen).apply(to: frame)
        let received = try Image(decoding: answer)
        func meanDifference(_ a: Image, _ b: Image) -> Double {
            var total = 0
            for (x, y) in zip(a.bytes, b.bytes) { total += abs(Int(x) - Int(y)) }
            return Double(total) / Double(a.bytes.count)
        }
        // A JPEG answer (quality 100, chroma subsampled): near the blend, far from the frame as it was.
        #expect(meanDifference(received, expected) < 3)
        #expect(meanDifference(received, frame) > 20)

        for (id, message) in [("gallery:99", "no item 99"), ("gallery:x", "names no gallery photo"), ("gallery:-1", "names no gallery photo")] {
            let refused = try StreamProtocol().answer(session.receive(Recipe(stages: [.init("blend", ["source": .text(id)])])))
            #expect(refused.type == "error")
            let text = refused.message
            #expect(text.contains(message) && !text.contains(folder), "\(text)")
        }
    }
}

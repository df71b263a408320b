import Foundation
import NIOCore
import Ocular
import OcularGallery
import OcularTestSupport
import Testing
@testable import OcularStudio

@Suite("Ocular Studio's Many Masks: the faces beside each frame, faces picked, merged and saved")
struct ManyMasksStudioTests {
    @Test("with the faces stage, every frame is followed by an annotations message listing the faces in frame coordinates; without a detection stage, none")
    func facesBesideFrames() throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0))
        #expect(session.hello.json.contains(#""name":"faces""#))
        let astronaut = try Image(contentsOfFile: dataRoot + "/faces/astronaut.png").encoded(as: .png())
        guard case .frame(_, let none, _) = session.process(ByteBuffer(bytes: astronaut)) else { Issue.record("refused"); return }
        #expect(none == nil)

        _ = try session.receive(Recipe(stages: [.init("faces")]), quality: 100)
        guard case .frame(let jpeg, let found, _) = session.process(ByteBuffer(bytes: astronaut)) else { Issue.record("refused"); return }
        let message = try StreamProtocol().answer(found)
        #expect(message.type == "annotations")
        let faces = message["faces"].list
        #expect(faces.count == 1)
        #expect(faces.first?["species"] == "human")
        let bounds = try AnswerReading.bounds(faces.first)
        // faces.json's tight cascade box: the default's square meets it at 0.72 (FaceDetectionTests).
        let label = PixelRectangle(x: 177, y: 67, width: 95, height: 95)
        #expect(PixelRectangle(x: bounds[0], y: bounds[1], width: bounds[2], height: bounds[3]).intersectionOverUnion(label) >= 0.7)
        // The frame itself carries the overlay: yellow on the box's top edge.
        let answer = try Image(decoding: jpeg)
        let top = answer.pixel(x: bounds[0] + bounds[2] / 2, y: bounds[1])
        let before = try Image(contentsOfFile: dataRoot + "/faces/astronaut.png").pixel(x: bounds[0] + bounds[2] / 2, y: bounds[1])
        // (JPEG halves the chroma of a one-pixel line: green and red are what survive of the yellow.)
        #expect(top[1] > 220 && top[2] > 220 && before[1] < 200 && before[2] < 200, "\(top), before \(before)")

        let coffee = try Image(contentsOfFile: dataRoot + "/images/coffee.png").encoded(as: .png())
        guard case .frame(_, let empty, _) = session.process(ByteBuffer(bytes: coffee)) else { Issue.record("refused"); return }
        #expect(try #require(empty).json == #"{"faces":[],"type":"annotations"}"#)
    }

    @Test("Many Masks over the stream: capture the astronaut as face 1 and chelsea as face 2, merge into a hybrid of the cat face's size, save it captioned hybrid")
    func captureMergeSave() throws {
        let folder = NSTemporaryDirectory() + "ocular-masks-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gallery = try Gallery(folder: folder)
        let session = try StreamSession(configuration: StudioConfiguration(port: 0), gallery: StudioGallery(gallery))
        let astronaut = try Image(contentsOfFile: dataRoot + "/faces/astronaut.png").encoded(as: .png())
        let chelsea = try Image(contentsOfFile: dataRoot + "/faces/chelsea.png").encoded(as: .png())
        let coffee = try Image(contentsOfFile: dataRoot + "/images/coffee.png").encoded(as: .png())

        // Nothing seen yet, nothing merged yet.
        #expect(try StreamProtocol().answer(session.receive(declared: "capture", ["slot": 1])).message
                == "no face in the frame just shown: capture while a face is listed")
        #expect(try StreamProtocol().answer(session.receive(declared: "merge")).message == "capture Face 1 and Face 2 first")
        #expect(try StreamProtocol().answer(session.receive(declared: "saveMerge")).message == "nothing to save: merge two faces first")

        _ = try session.receive(Recipe(stages: [.init("faces")]))
        _ = session.process(ByteBuffer(bytes: astronaut))
        let first = try StreamProtocol().answer(session.receive(declared: "capture", ["slot": 1]))
        #expect(first.type == "captured" && first["slot"] == 1)
        let human = first["face"]
        #expect(human["species"] == "human")
        let humanBounds = try AnswerReading.bounds(human)
        let thumbnail = try AnswerReading.picture(first["thumbnail"])
        #expect(thumbnail.width == humanBounds[2] && thumbnail.height == humanBounds[3])
        #expect(try StreamProtocol().answer(session.receive(declared: "merge")).message == "capture Face 2 first")

        // A frame without a face: nothing to capture, and face 1 stays.
        _ = session.process(ByteBuffer(bytes: coffee))
        let none = try StreamProtocol().answer(session.receive(declared: "capture", ["slot": 2]))
        #expect(none.type == "error" && none["about"] == "capture")
        #expect(try StreamProtocol().answer(session.receive(declared: "capture", ["slot": 3])).message == "slot must be 1 or 2, got 3")

        // A stream looks for close-up cats only now and then (FaceTracker): show chelsea until it is listed.
        var shown = 0
        while shown < 60 {
            shown += 1
            guard case .frame(_, let found, _) = session.process(ByteBuffer(bytes: chelsea)) else { break }
            if try !StreamProtocol().answer(found)["faces"].list.isEmpty { break }
        }
        #expect(shown < 60, "chelsea's cat was never listed")
        let second = try StreamProtocol().answer(session.receive(declared: "capture", ["slot": 2]))
        let cat = second["face"]
        #expect(cat["species"] == "cat")
        let catBounds = try AnswerReading.bounds(cat)
        // Thumbnails are at most 160 pixels across.
        #expect(max(try AnswerReading.picture(second["thumbnail"]).width, try AnswerReading.picture(second["thumbnail"]).height) == 160)

        let merged = try StreamProtocol().answer(session.receive(declared: "merge"))
        #expect(merged.type == "merged")
        #expect(merged["face"]["species"] == "hybrid")
        #expect(try AnswerReading.bounds(merged["face"]) == catBounds)
        let picture = try AnswerReading.picture(merged["image"])
        #expect(picture.width == catBounds[2] && picture.height == catBounds[3])

        let saved = try StreamProtocol().answer(session.receive(declared: "saveMerge"))
        #expect(saved.type == "saved", "\(saved)")
        let items = try gallery.items()
        #expect(items.count == 1)
        #expect(items.first?.caption == "hybrid" && items.first?.source == "many masks")
        #expect(items.first.map { [$0.width, $0.height] } == [catBounds[2], catBounds[3]])
        // The saved merge is lossless: the PNG in the gallery is the merge itself.
        // (The merge of the faces the stream followed: its first search, on a smaller copy than a
        // still's, may place them a pixel apart from what `ocular faces detect` gives.)
        let stored = try Image(contentsOfFile: gallery.path(of: try #require(items.first)))
        let expected = try #require(session.action(ManyMasksAction.self)?.merged)
        #expect(stored.width == expected.image.width && stored.height == expected.image.height)
        #expect(stored.bytes == expected.image.bytes)
    }

    @Test("Many Masks with two people in one frame: 'captureBiggest' keeps the two biggest as face 1 and 2, a capture 'at' a point keeps the face under it, and a point beside every face is refused")
    func pickFromAGroup() throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0))
        // astronaut.png, and a copy at 0.6 beside her, on a 1024 × 512 grey canvas.
        let astronaut = try Image(contentsOfFile: dataRoot + "/faces/astronaut.png").converted(to: .bgr8)
        var canvas = try Image(width: 1024, height: 512, format: .bgr8, filledWith: [128, 128, 128])
        canvas = try astronaut.warped(by: try AffineMatrix(coefficients: [1, 0, 0, 0, 1, 0]), over: canvas)
        canvas = try astronaut.warped(by: try AffineMatrix(coefficients: [0.6, 0, 600, 0, 0.6, 100]), over: canvas)
        #expect(try StreamProtocol().answer(session.receive(declared: "captureBiggest")).message
                == "no face in the frame just shown: two are needed to pick both")
        _ = try session.receive(Recipe(stages: [.init("faces", ["cats": false])]))
        guard case .frame(_, let found, _) = session.process(ByteBuffer(bytes: try canvas.encoded(as: .png()))) else {
            Issue.record("the frame was not answered")
            return
        }
        let listed = try StreamProtocol().answer(found)["faces"].list
        #expect(listed.count == 2, "\(listed)")

        let both = try StreamProtocol().answer(session.receive(declared: "captureBiggest"))
        #expect(both.type == "capturedBiggest", "\(both)")
        let picked = both["faces"].list
        #expect(picked.map(\.["slot"]) == [1, 2])
        let widths = try picked.map { try AnswerReading.bounds($0["face"])[2] }
        try #require(widths.count == 2)
        #expect(widths[0] > widths[1] && widths[1] > 0, "the bigger first: \(widths)")
        #expect(try StreamProtocol().answer(session.receive(declared: "merge")).type == "merged")

        // A tap on the smaller face (right half, 0.6 × her face's centre + the shift) keeps it as face 1.
        let smaller = try #require(try listed.map(AnswerReading.bounds).min { $0[2] < $1[2] })
        let point = [(Double(smaller[0]) + Double(smaller[2]) / 2) / 1024, (Double(smaller[1]) + Double(smaller[3]) / 2) / 512]
        let tapped = try StreamProtocol().answer(session.receive(declared: "capture", ["slot": 1, "at": [.number(point[0]), .number(point[1])]]))
        #expect(try tapped.type == "captured" && AnswerReading.bounds(tapped["face"]) == smaller, "\(tapped)")
        let beside = try StreamProtocol().answer(session.receive(declared: "capture", ["slot": 2, "at": [0.02, 0.98]]))
        #expect(beside.message == "no face where you tapped: tap inside a face's box", "\(beside)")
        let outside = try StreamProtocol().answer(session.receive(declared: "capture", ["slot": 2, "at": [1.5, 0.5]]))
        #expect(outside.type == "error" && outside.message.contains("each 0 to 1"), "\(outside)")
    }

    @Test("damaged Many Masks messages are refused by name")
    func badMasksMessages() throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0))
        // Sent as text: each is a message the studio must refuse.
        let cases = [
            (#"{"type":"capture"}"#, "a capture message needs a slot, 1 or 2"),
            (#"{"type":"capture","slot":"one"}"#, "a capture message's slot must be 1 or 2"),
            (#"{"type":"capture","slot":1,"face":2}"#, "a capture message has no 'face'; it has slot, at"),
            (#"{"type":"merge","faces":[1,2]}"#, "a merge message has no 'faces'; it has only its type"),
            (#"{"type":"saveMerge","caption":7}"#, "a saveMerge message's caption must be text"),
            (#"{"type":"capture","slot":1.5}"#, "a capture message's slot must be 1 or 2"),
            (#"{"type":"capture","slot":1e308}"#, "a capture message's slot must be 1 or 2"),
            (#"{"type":"capture","slot":9223372036854775808}"#, "a capture message's slot must be 1 or 2"),
            // A page's JSON.parse keeps a repeated key's last value, Foundation its first: neither is guessed.
            (#"{"type":"capture","slot":2,"slot":1}"#, "a capture message names 'slot' twice in one object; each key may appear once"),
            (#"{"type":"capture","slot":1,"\u0073lot":2}"#, "a capture message names 'slot' twice in one object; each key may appear once"),
            (#"{"type":"capture","slot":1,"at":[0.5,7]}"#, "a capture message's at must be [x, y], each 0 to 1 of the frame, got [0.5, 7.0]"),
            // Described, not quoted (a 33 MB list was answered with an 83 MB error spelling it out).
            (#"{"type":"capture","slot":1,"at":["# + Array(repeating: "0.5", count: 10_000).joined(separator: ",") + "]}",
             "a capture message's at must be [x, y], each 0 to 1 of the frame, got 10000 numbers"),
        ]
        for (text, reason) in cases {
            let reply = try StreamProtocol().answer(session.receive(text))
            #expect(reply.type == "error" && reply.message == reason, "\(text): \(reply)")
        }
    }
}

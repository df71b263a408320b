import Foundation
import NIOCore
import Ocular
import Testing
@testable import OcularStudio

@Suite("Ocular Studio's faces: the stage through the registry, the faces beside each frame")
struct FacesStudioTests {
    @Test("with the faces stage, every frame is followed by an annotations message listing the faces in frame coordinates; without a detection stage, none")
    func facesBesideFrames() throws {
        let session = try StreamSession(configuration: StudioConfiguration(port: 0))
        #expect(session.hello.json.contains(#""name":"faces""#))
        let astronaut = try Image(contentsOfFile: dataRoot + "/faces/astronaut.png").encoded(as: .png())
        guard case .frame(_, let none, _) = session.process(ByteBuffer(bytes: astronaut)) else { Issue.record("refused"); return }
        #expect(none == nil)

        _ = session.receive(#"{"type":"settings","recipe":{"stages":[{"stage":"faces"}]},"quality":100}"#)
        guard case .frame(let jpeg, let found, _) = session.process(ByteBuffer(bytes: astronaut)) else { Issue.record("refused"); return }
        let text = try #require(found).json
        let message = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(message["type"] as? String == "annotations")
        let faces = try #require(message["faces"] as? [[String: Any]])
        #expect(faces.count == 1)
        #expect(faces.first?["species"] as? String == "human")
        let bounds = try #require(faces.first?["bounds"] as? [Int])
        let label = PixelRectangle(x: 177, y: 67, width: 95, height: 95)  // faces.json
        #expect(PixelRectangle(x: bounds[0], y: bounds[1], width: bounds[2], height: bounds[3]).intersectionOverUnion(label) >= 0.8)
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
}

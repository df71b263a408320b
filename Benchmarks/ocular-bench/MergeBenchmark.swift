import BenchBaseline
import Foundation
import Ocular

/// The face merge row: astronaut.png's face merged with chelsea.png's cat by `Face.merged(with:)`,
/// against the textbook's getAffineTransform + warpAffine + multiply from C++ and Python cv2, on the
/// same pixels and landmarks.
struct MergeInputs {
    let human: Face
    let cat: Face

    init() throws {
        let detector = try FaceDetector()
        human = try detector.biggestFace(in: try Image(contentsOfFile: dataRoot + "/faces/astronaut.png"), named: "astronaut.png")
        cat = try detector.biggestFace(in: try Image(contentsOfFile: dataRoot + "/faces/chelsea.png"), named: "chelsea.png")
        for face in [human, cat] where face.image.format != .bgr8 || face.image.bytesPerRow != face.image.width * 3 {
            throw BenchError("the benchmark's faces must be tightly packed BGR, got \(face.image)")
        }
    }

    static func landmarks(of face: Face) -> [Double] {
        [face.leftEye, face.rightEye, face.nose].flatMap { [$0.x, $0.y] }
    }

    var operation: Operation {
        let (human, cat) = (self.human, self.cat)
        let from = Self.landmarks(of: human), to = Self.landmarks(of: cat)
        return Operation(name: "merge", size: "\(cat.image.width)x\(cat.image.height)", swift: { try human.merged(with: cat).image.bytes }) {
            baseline_merge_faces(cat.image.bytes, Int32(cat.image.width), Int32(cat.image.height), human.image.bytes,
                                 Int32(human.image.width), Int32(human.image.height), from, to, $0, $1, $2, $3)
        }
    }

    /// The faces' pixels as raw files beside the manifest, for the Python column.
    func write(to folder: String) throws {
        try Data(cat.image.bytes).write(to: URL(fileURLWithPath: folder + "/merge-bigger.bgr"))
        try Data(human.image.bytes).write(to: URL(fileURLWithPath: folder + "/merge-smaller.bgr"))
    }

    var manifest: [String: Any] {
        ["bigger": "merge-bigger.bgr", "biggerWidth": cat.image.width, "biggerHeight": cat.image.height,
         "smaller": "merge-smaller.bgr", "smallerWidth": human.image.width, "smallerHeight": human.image.height,
         "biggerLandmarks": Self.landmarks(of: cat), "smallerLandmarks": Self.landmarks(of: human)]
    }
}

import Foundation
import Testing
@testable import Ocular
@testable import OcularEvaluation
import OcularTestSupport

@Suite("Face merging")
struct FaceMergeTests {
    static func biggestFace(_ file: String) throws -> Face {
        let image = try Image(contentsOfFile: TestData.path(file))
        return try FaceDetector().biggestFace(in: image, named: "'\(file)'")
    }

    /// A black BGR picture of `size` with a soft round spot centred exactly (sub-pixel) on each point,
    /// the first red, the second green, the third blue: the brightness-weighted centre of each
    /// channel is its point.
    static func spots(at points: [Point], width: Int, height: Int) throws -> Image {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let channelOfPoint = [2, 1, 0]  // BGR order: red, green, blue
        for (index, point) in points.enumerated() {
            for y in 0..<height {
                for x in 0..<width {
                    let distance2 = (Double(x) - point.x) * (Double(x) - point.x) + (Double(y) - point.y) * (Double(y) - point.y)
                    let value = 255 * exp(-distance2 / (2 * 2.0 * 2.0))
                    if value >= 1 { bytes[(y * width + x) * 3 + channelOfPoint[index]] = UInt8(value.rounded()) }
                }
            }
        }
        return try Image(width: width, height: height, format: .bgr8, bytes: bytes)
    }

    /// The brightness-weighted centre of one channel.
    static func centre(of channel: Int, in image: Image) -> Point {
        var sum = 0.0, sumX = 0.0, sumY = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let value = Double(image.pixel(x: x, y: y)[channel])
                sum += value
                sumX += value * Double(x)
                sumY += value * Double(y)
            }
        }
        return Point(x: sumX / sum, y: sumY / sum)
    }

    static func distance(_ a: Point, _ b: Point) -> Double { hypot(a.x - b.x, a.y - b.y) }

    @Test("astronaut (human) + chelsea (cat) gives a hybrid of the cat face's size, place and landmarks")
    func hybrid() throws {
        let human = try Self.biggestFace(FaceDetectionTests.astronaut)
        let cat = try Self.biggestFace(FaceDetectionTests.chelsea)
        #expect(human.species == .human && cat.species == .cat)
        #expect(cat.bounds.area > human.bounds.area)
        for merged in [try human.merged(with: cat), try cat.merged(with: human)] {
            #expect(merged.species == .hybrid)
            #expect(merged.bounds == cat.bounds)
            #expect(merged.image.width == cat.image.width && merged.image.height == cat.image.height)
            #expect(merged.image.format == .bgr8)
            #expect(merged.leftEye == cat.leftEye && merged.rightEye == cat.rightEye && merged.nose == cat.nose)
            // A product is never brighter than the bigger face it darkens.
            let darker = zip(merged.image.channelMeans(), cat.image.channelMeans()).allSatisfy { $0 < $1 }
            #expect(darker, "\(merged.image.channelMeans()) against \(cat.image.channelMeans())")
        }
    }

    @Test("astronaut + real cats whose faces YuNet scores as people's (0.93, 0.95): each found as a cat, boxed as labelled, and merged into a hybrid of its size")
    func hybridWithRealCats() throws {
        let human = try Self.biggestFace(FaceDetectionTests.astronaut)
        let labels = try FaceLabelList(contentsOf: TestData.path("cats/labels.json"))
        for file in ["cats/CAT_00_00000011_027.jpg", "cats/CAT_00_00000005_022.jpg"] {
            let cat = try Self.biggestFace(file)
            let label = try #require(labels.entries.first { labels.path(of: $0) == TestData.path(file) }?.faces.first)
            #expect(cat.species == .cat && cat.bounds.intersectionOverUnion(label.bounds) >= 0.5, "\(file): \(cat.species) \(cat.bounds)")
            let merged = try human.merged(with: cat)
            #expect(merged.species == .hybrid && merged.bounds == cat.bounds, "\(file)")
        }
    }

    @Test("the astronaut's eyes and nose, warped by the merge onto chelsea's face, land within 1 px of the cat's")
    func landmarksLand() throws {
        let human = try Self.biggestFace(FaceDetectionTests.astronaut)
        let cat = try Self.biggestFace(FaceDetectionTests.chelsea)
        // The real faces' landmarks, with pictures that show them: spots on the human face's, and white
        // for the cat, so that the product is exactly the warped spots.
        let marked = Face(species: .human, image: try Self.spots(at: [human.leftEye, human.rightEye, human.nose],
                                                                  width: human.image.width, height: human.image.height),
                          bounds: human.bounds, leftEye: human.leftEye, rightEye: human.rightEye, nose: human.nose)
        let white = Face(species: .cat, image: try Image(width: cat.image.width, height: cat.image.height, format: .bgr8, filledWith: [255, 255, 255]),
                         bounds: cat.bounds, leftEye: cat.leftEye, rightEye: cat.rightEye, nose: cat.nose)
        let merged = try marked.merged(with: white)
        let landed = [Self.centre(of: 2, in: merged.image), Self.centre(of: 1, in: merged.image), Self.centre(of: 0, in: merged.image)]
        for (point, target) in zip(landed, [cat.leftEye, cat.rightEye, cat.nose]) {
            #expect(Self.distance(point, target) <= 1, "landed at \(point), the cat's landmark is at \(target)")
        }
        // The map itself takes each landmark onto its partner.
        let map = try Face.alignment(of: human, onto: cat)
        for (point, target) in zip([human.leftEye, human.rightEye, human.nose], [cat.leftEye, cat.rightEye, cat.nose]) {
            #expect(Self.distance(map.apply(to: point), target) < 1e-3)
        }
    }

    @Test("a face merged with itself is the face multiplied by itself, round(a·a/255) in every byte, and stays human")
    func withItself() throws {
        let face = try Self.biggestFace(FaceDetectionTests.astronaut)
        let merged = try face.merged(with: face)
        #expect(merged.species == .human)
        #expect(merged.image.width == face.image.width && merged.image.height == face.image.height && merged.image.format == face.image.format)
        var wrong = 0
        for y in 0..<face.image.height {
            for x in 0..<face.image.width {
                let expected = face.image.pixel(x: x, y: y).map { UInt8((Double(Int($0) * Int($0)) / 255).rounded()) }
                if merged.image.pixel(x: x, y: y) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels differ from a·a/255")
    }

    @Test("a picture without a face is a clear error naming it")
    func noFace() throws {
        let error = #expect(throws: FaceError.self) { try Self.biggestFace("images/coffee.png") }
        #expect(error == .noFace(in: "'images/coffee.png'"))
        #expect(error?.description == "no face found in 'images/coffee.png'")
    }

    @Test("species: human+human is human, cat+cat is cat, anything else hybrid")
    func species() {
        #expect(Species.merging(.human, .human) == .human)
        #expect(Species.merging(.cat, .cat) == .cat)
        #expect(Species.merging(.human, .cat) == .hybrid)
        #expect(Species.merging(.cat, .human) == .hybrid)
        #expect(Species.merging(.hybrid, .hybrid) == .hybrid)
        #expect(Species.merging(.hybrid, .human) == .hybrid)
    }

    @Test("a gray face and a colour one merge in colour; between two colour formats the bigger face's wins")
    func commonFormat() throws {
        #expect(Face.commonFormat(.gray8, .bgr8) == .bgr8)
        #expect(Face.commonFormat(.rgba8, .gray8) == .rgba8)
        #expect(Face.commonFormat(.rgb8, .bgr8) == .rgb8)
        #expect(Face.commonFormat(.gray8, .i420) == .bgr8)
        let face = try Self.biggestFace(FaceDetectionTests.astronaut)
        let gray = Face(species: .human, image: try face.image.converted(to: .gray8).scaled(by: 1.5), bounds: face.bounds.scaled(by: 1.5),
                        leftEye: Point(x: face.leftEye.x * 1.5, y: face.leftEye.y * 1.5),
                        rightEye: Point(x: face.rightEye.x * 1.5, y: face.rightEye.y * 1.5), nose: Point(x: face.nose.x * 1.5, y: face.nose.y * 1.5))
        let merged = try gray.merged(with: face)
        #expect(merged.image.format == .bgr8 && merged.image.width == gray.image.width)
    }

    @Test("an affine map from three points: exact on a known triangle; points on one line are refused")
    func affine() throws {
        let map = try AffineMatrix(mapping: [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 0, y: 10)],
                                   onto: [Point(x: 5, y: 5), Point(x: 5, y: 25), Point(x: -15, y: 5)])
        // A quarter turn, doubled, shifted by (5, 5).
        for (value, expected) in zip(map.coefficients, [0.0, -2, 5, 2, 0, 5]) { #expect(abs(value - expected) < 1e-9, "\(map)") }
        #expect(map.apply(to: Point(x: 1, y: 1)) == Point(x: 3, y: 7))
        #expect(throws: OcularError.self) {
            try AffineMatrix(mapping: [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2)], onto: [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1)])
        }
        let identity = try Image(width: 4, height: 3, format: .gray8, bytes: Array(0..<12)).warped(by: .identity, width: 4, height: 3)
        #expect(identity.bytes == Array(0..<12))
    }
}

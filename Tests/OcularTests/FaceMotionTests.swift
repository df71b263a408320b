import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

@Suite("Optical flow and faces in motion")
struct FaceMotionTests {
    /// A textured gray picture: the astronaut, shrunk.
    static func texture() throws -> Image {
        try Image(contentsOfFile: TestData.path(FaceDetectionTests.astronaut)).converted(to: .gray8).resized(width: 160, height: 160)
    }

    @Test("optical flow: corners of a picture shifted by (3, −2) pixels are followed there to 0.1 pixel; corners are sought only inside the region asked for")
    func flowFollowsAShift() throws {
        let before = try Self.texture()
        let after = try before.warped(by: try AffineMatrix(coefficients: [1, 0, 3, 0, 1, -2]), width: before.width, height: before.height,
                                      replicatingEdges: true)
        let region = PixelRectangle(x: 40, y: 40, width: 80, height: 80)
        let corners = try OpticalFlow.corners(in: before, within: region, maximum: 25)
        #expect(corners.count == 25)
        #expect(corners.allSatisfy { $0.x >= 40 && $0.x < 120 && $0.y >= 40 && $0.y < 120 }, "\(corners)")
        let moved = try OpticalFlow.follow(corners, from: before, to: after)
        let followed = zip(corners, moved).compactMap { start, end in end.map { (start, $0) } }
        #expect(followed.count >= 20, "\(followed.count) of 25 followed")
        for (start, end) in followed {
            #expect(abs(end.x - start.x - 3) < 0.1 && abs(end.y - start.y + 2) < 0.1, "\(start) → \(end)")
        }
    }

    @Test("optical flow: a point whose surroundings change is lost (the way back does not return to it), and what it cannot use is an error")
    func flowLosesWhatChanged() throws {
        let before = try Self.texture()
        // The same picture with its lower half replaced by another: corners there have nowhere to go.
        let other = try Image(contentsOfFile: TestData.path("images/coffee.png")).converted(to: .gray8).resized(width: 160, height: 160)
        let after = try Image(width: 160, height: 160, format: .gray8,
                              bytes: (0..<160).flatMap { y in (0..<160).map { x in (y < 80 ? before : other).pixel(x: x, y: y)[0] } })
        let upper = try OpticalFlow.corners(in: before, within: PixelRectangle(x: 20, y: 10, width: 120, height: 50), maximum: 10)
        let lower = try OpticalFlow.corners(in: before, within: PixelRectangle(x: 20, y: 100, width: 120, height: 50), maximum: 10)
        let keptUpper = try OpticalFlow.follow(upper, from: before, to: after).compactMap { $0 }.count
        let keptLower = try OpticalFlow.follow(lower, from: before, to: after).compactMap { $0 }.count
        #expect(keptUpper >= 9, "upper half: \(keptUpper) of \(upper.count)")
        #expect(keptLower <= 3, "lower half: \(keptLower) of \(lower.count)")
        let colour = try before.converted(to: .bgr8)
        #expect(throws: OcularError.self) { try OpticalFlow.follow(upper, from: colour, to: colour) }
        #expect(throws: OcularError.self) { try OpticalFlow.follow(upper, from: before, to: before.resized(width: 80, height: 80)) }
        #expect(throws: OcularError.self) { try OpticalFlow.corners(in: colour, maximum: 5) }
        #expect(try OpticalFlow.follow([], from: before, to: after).isEmpty)
        // Points outside the picture, or not numbers at all, are lost rather than followed; nonsense sizes are refused.
        let odd = [Point(x: .nan, y: 5), Point(x: 5, y: .infinity), Point(x: -3, y: 5), Point(x: 1e30, y: 1e30), Point(x: 160, y: 20)]
        #expect(try OpticalFlow.follow(odd, from: before, to: after).allSatisfy { $0 == nil })
        #expect(throws: OcularError.self) { try OpticalFlow.follow(upper, from: before, to: after, window: 100_000) }
        #expect(throws: OcularError.self) { try OpticalFlow.follow(upper, from: before, to: after, levels: -1) }
        #expect(try OpticalFlow.corners(in: before, maximum: Int.max).count > 0)
        #expect(try OpticalFlow.corners(in: before, within: PixelRectangle(x: 500, y: 500, width: 10, height: 10), maximum: 5).isEmpty)
        #expect(try OpticalFlow.corners(in: before, within: PixelRectangle(x: 0, y: 0, width: Int.max, height: Int.max), maximum: 5).count == 5)
    }

    @Test("when the stream's frames change size (another source), the followed face is looked for again instead of moved: no error, and the new picture's face is found")
    func frameSizeChanges() throws {
        let tracker = FaceTracker(detector: try FaceDetector())
        let astronaut = try Image(contentsOfFile: TestData.path(FaceDetectionTests.astronaut))
        let wider = try astronaut.padded(left: 0, top: 0, right: 200, bottom: 100, value: 128)
        for _ in 0..<3 { #expect(try tracker.faces(in: wider).count == 1) }
        let smaller = try astronaut.cropped(to: PixelRectangle(x: 100, y: 0, width: 300, height: 300))
        for number in 0..<10 {
            let faces = try tracker.faces(in: smaller)
            #expect(faces.count == 1 && faces.allSatisfy { $0.bounds.x + $0.bounds.width <= 300 }, "frame \(number): \(faces.map(\.bounds))")
        }
    }
}

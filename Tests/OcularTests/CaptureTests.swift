import Foundation
import Testing
@testable import Ocular
import OcularTestSupport

@Suite("Frame sources")
struct CaptureTests {
    @Test("a video file gives every frame at its size with its time, then an end that stays an end")
    func videoFrames() throws {
        let source = try VideoFileSource(path: TestData.path("video/astronaut_pan.avi"))
        #expect(source.width == 480 && source.height == 360 && source.frameRate == 10 && source.frameCount == 30)
        var timestamps: [Duration] = []
        while let frame = try source.nextFrame() {
            #expect(frame.image.width == 480 && frame.image.height == 360 && frame.image.format == .bgr8)
            timestamps.append(frame.timestamp)
        }
        #expect(timestamps.count == 30)
        #expect(timestamps.first == .zero)
        // 10 frames a second: frame 29 shows at 2.9 s (to the decoder's millisecond).
        #expect(abs((timestamps.last! - .milliseconds(2900)) / .milliseconds(1)) < 1)
        #expect(try source.nextFrame() == nil)
    }

    @Test("the clip's first frame is the grey background with the astronaut on its left")
    func videoPixels() throws {
        let frame = try #require(try VideoFileSource(path: TestData.path("video/astronaut_pan.avi")).nextFrame())
        // The background is grey 128 (make_astronaut_pan.py); Motion-JPEG keeps it within a few levels.
        for value in frame.image.pixel(x: 470, y: 350) { #expect(abs(Int(value) - 128) <= 3) }
        // The face's box at frame 0 is (44, 47, 66, 66): not background there.
        #expect(frame.image.pixel(x: 77, y: 80).contains { abs(Int($0) - 128) > 10 })
    }

    @Test("gray frames are the luma of the colour frames")
    func grayFromLuma() throws {
        let colour = try #require(try VideoFileSource(path: TestData.path("video/cockatoo.mp4")).nextFrame()).image
        let gray = try #require(try VideoFileSource(path: TestData.path("video/cockatoo.mp4"), colour: .gray).nextFrame()).image
        #expect(gray.format == .gray8 && gray.width == 1280 && gray.height == 720)
        for (x, y) in [(0, 0), (640, 360), (1000, 200), (1279, 719)] {
            let bgr = colour.pixel(x: x, y: y).map(Double.init)
            let luma = 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]
            #expect(abs(Double(gray.pixel(x: x, y: y)[0]) - luma) <= 1, "at (\(x), \(y))")
        }
    }

    @Test("a still repeats its picture at the chosen rate; gray from YUV is the Y plane")
    func still() throws {
        let width = 4, height = 2
        let luma: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        let chroma: [UInt8] = [200, 60, 90, 30]  // one U,V pair per 2×2 block
        let nv12 = try Image(width: width, height: height, format: .nv12, bytes: luma + chroma)
        let source = try StillSource(image: nv12, name: "still test", colour: .gray, frameRate: 4)
        for index in 0..<3 {
            let frame = try #require(try source.nextFrame())
            #expect(frame.image.format == .gray8 && frame.image.bytes == luma)
            #expect(frame.timestamp == .milliseconds(250 * index))
        }
        #expect(try StillSource(image: nv12, name: "still test").nextFrame()?.image.format == .bgr8)
    }

    @Test("a video cut short is an error naming the file and the frame, not an end")
    func truncatedVideo() throws {
        let folder = try TemporaryFolder()
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestData.path("video/astronaut_pan.avi")))
        let cut = folder.file("cut.avi")
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        let source = try VideoFileSource(path: cut)
        var frames = 0
        let error = try #require(throws: OcularError.self) {
            while try source.nextFrame() != nil { frames += 1 }
        }
        guard case .damagedVideo(let path, let frame, let count) = error else {
            Issue.record("expected damagedVideo, got \(error)"); return
        }
        #expect(path == cut && frame == frames && count == 30 && frames < 29)
        #expect(error.description.contains("cut.avi") && error.description.contains("of 30"))
    }

    @Test("what is not a video is a clear error naming it")
    func notVideos() throws {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.file("text.mp4"), contents: Data("hello, not a video\n".utf8))
        _ = FileManager.default.createFile(atPath: folder.file("empty.mp4"), contents: Data())
        #expect(throws: OcularError.unreadableMedia(path: folder.file("text.mp4"), reason: "not a video any backend can open")) {
            try VideoFileSource(path: folder.file("text.mp4"))
        }
        #expect(throws: OcularError.emptyFile(path: folder.file("empty.mp4"))) { try VideoFileSource(path: folder.file("empty.mp4")) }
        #expect(throws: OcularError.fileNotFound(path: folder.file("none.mp4"))) { try VideoFileSource(path: folder.file("none.mp4")) }
    }

    @Test("a missing camera is a clear error naming its index")
    func missingCamera() throws {
        let error = try #require(throws: OcularError.self) { try CameraSource(index: 57) }
        guard case .cameraUnavailable(index: 57, _) = error else { Issue.record("got \(error)"); return }
        #expect(error.description.hasPrefix("cannot open camera 57: "))
        #expect(throws: OcularError.self) { try CameraSource(index: -1) }
    }
}

@Suite("Switch camera")
struct CameraSwitcherTests {
    @Test("static → front → back → static with both cameras")
    func fullCycle() {
        let all: Set<CameraChoice> = [.still, .front, .back]
        #expect(CameraSwitcher.next(after: .still, available: all) == .front)
        #expect(CameraSwitcher.next(after: .front, available: all) == .back)
        #expect(CameraSwitcher.next(after: .back, available: all) == .still)
    }

    @Test("what is absent is skipped; the still is always there")
    func skipping() {
        #expect(CameraSwitcher.next(after: .still, available: [.back]) == .back)
        #expect(CameraSwitcher.next(after: .back, available: [.back]) == .still)
        #expect(CameraSwitcher.next(after: .still, available: [.front]) == .front)
        #expect(CameraSwitcher.next(after: .front, available: [.front]) == .still)
        #expect(CameraSwitcher.next(after: .still, available: []) == .still)
        // A camera that went away while shown: on to the next one that exists.
        #expect(CameraSwitcher.next(after: .front, available: []) == .still)
        #expect(CameraSwitcher.next(after: .front, available: [.still]) == .still)
    }
}

@Suite("Camera geometry")
struct CameraGeometryTests {
    @Test("letterbox fits the whole frame with bars; aspect-fill covers the view and crops")
    func layout() {
        let frame = CGSize(width: 640, height: 480)
        // A wide view: bars left and right.
        #expect(CameraGeometry.previewRect(frame: frame, view: CGSize(width: 1000, height: 600), layout: .letterbox)
            == CGRect(x: 100, y: 0, width: 800, height: 600))
        // A tall view: bars above and below.
        #expect(CameraGeometry.previewRect(frame: frame, view: CGSize(width: 320, height: 800), layout: .letterbox)
            == CGRect(x: 0, y: 280, width: 320, height: 240))
        #expect(CameraGeometry.previewRect(frame: frame, view: CGSize(width: 1000, height: 600), layout: .aspectFill)
            == CGRect(x: 0, y: -75, width: 1000, height: 750))
        let tall = CameraGeometry.previewRect(frame: frame, view: CGSize(width: 320, height: 800), layout: .aspectFill)
        // 800 / 480 scales the width to 3200 / 3, centred: x = (320 − 3200 / 3) / 2 = −1120 / 3.
        #expect(abs(tall.minX + 1120.0 / 3) < 1e-9 && abs(tall.width - 3200.0 / 3) < 1e-9 && tall.minY == 0 && tall.height == 800)
        #expect(CameraGeometry.previewRect(frame: .zero, view: CGSize(width: 10, height: 10), layout: .letterbox) == .zero)
    }

    /// The preview of the wide-view letterbox above: 800 × 600 at (100, 0). The tap is at a quarter
    /// across and a tenth down: normalised (0.25, 0.1).
    let preview = CGRect(x: 100, y: 0, width: 800, height: 600)
    let tap = CGPoint(x: 300, y: 60)

    @Test("every orientation with the back camera, computed by hand", arguments: [
        (VideoOrientation.landscapeRight, CGPoint(x: 0.25, y: 0.1)),
        (.portrait, CGPoint(x: 0.1, y: 0.75)),
        (.portraitUpsideDown, CGPoint(x: 0.9, y: 0.25)),
        (.landscapeLeft, CGPoint(x: 0.75, y: 0.9)),
    ])
    func backCamera(orientation: VideoOrientation, expected: CGPoint) throws {
        let point = try #require(CameraGeometry.pointOfInterest(tap: tap, preview: preview, orientation: orientation, position: .back))
        #expect(abs(point.x - expected.x) < 1e-12 && abs(point.y - expected.y) < 1e-12)
    }

    @Test("every orientation with the front camera: the same, mirrored in x", arguments: [
        (VideoOrientation.landscapeRight, CGPoint(x: 0.75, y: 0.1)),
        (.portrait, CGPoint(x: 0.9, y: 0.75)),
        (.portraitUpsideDown, CGPoint(x: 0.1, y: 0.25)),
        (.landscapeLeft, CGPoint(x: 0.25, y: 0.9)),
    ])
    func frontCamera(orientation: VideoOrientation, expected: CGPoint) throws {
        let point = try #require(CameraGeometry.pointOfInterest(tap: tap, preview: preview, orientation: orientation, position: .front))
        #expect(abs(point.x - expected.x) < 1e-12 && abs(point.y - expected.y) < 1e-12)
    }

    @Test("a tap on a letterbox bar or outside the view has no point")
    func outside() {
        for tap in [CGPoint(x: 50, y: 300), CGPoint(x: 950, y: 300), CGPoint(x: 500, y: -1), CGPoint(x: 500, y: 601)] {
            #expect(CameraGeometry.pointOfInterest(tap: tap, preview: preview, orientation: .portrait, position: .back) == nil)
        }
        // The edges themselves are inside.
        #expect(CameraGeometry.pointOfInterest(tap: CGPoint(x: 100, y: 600), preview: preview, orientation: .landscapeRight, position: .back)
            == CGPoint(x: 0, y: 1))
        #expect(CameraGeometry.pointOfInterest(tap: .zero, preview: .zero, orientation: .portrait, position: .back) == nil)
    }

    @Test("a tap on a shown pixel maps back to that pixel of the sensor frame", arguments: VideoOrientation.allCases, CameraPosition.allCases)
    func displayAndTapAgree(orientation: VideoOrientation, position: CameraPosition) throws {
        // A 4 × 3 sensor frame whose every pixel is distinct.
        let sensor = try Image(width: 4, height: 3, format: .gray8, bytes: (0..<12).map { UInt8($0 * 20) })
        let shown = try sensor.forDisplay(orientation: orientation, position: position)
        let turned = orientation == .portrait || orientation == .portraitUpsideDown
        #expect((shown.width, shown.height) == (turned ? (3, 4) : (4, 3)))
        let view = CGRect(x: 0, y: 0, width: shown.width, height: shown.height)
        for y in 0..<shown.height {
            for x in 0..<shown.width {
                let centre = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let point = try #require(CameraGeometry.pointOfInterest(tap: centre, preview: view, orientation: orientation, position: position))
                let sensorX = Int(point.x * 4), sensorY = Int(point.y * 3)
                #expect(sensor.pixel(x: sensorX, y: sensorY) == shown.pixel(x: x, y: y), "\(orientation) \(position) at (\(x), \(y))")
            }
        }
    }

    @Test("quarter turns and mirroring move pixels where OpenCV's rotate and flip do")
    func rotations() throws {
        let image = try Image(width: 2, height: 1, format: .gray8, bytes: [1, 2])
        #expect(try image.rotated(quarterTurns: 1).bytes == [1, 2] && image.rotated(quarterTurns: 1).height == 2)
        #expect(try image.rotated(quarterTurns: -1).bytes == [2, 1])
        #expect(try image.rotated(quarterTurns: 2).bytes == [2, 1])
        #expect(try image.rotated(quarterTurns: 4) == image)
        #expect(try image.mirrored().bytes == [2, 1])
    }
}

/// Keeps what it is given; fails at frame `failAt` when set.
private final class CollectingSink: FrameSink {
    var timestamps: [Duration] = []
    let failAt: Int?
    init(failAt: Int? = nil) { self.failAt = failAt }
    func write(_ frame: Frame) throws {
        if timestamps.count == failAt { throw OcularError.invalidArgument("the sink is full") }
        timestamps.append(frame.timestamp)
    }
}

/// A still that counts how many frames were taken from it.
private final class CountingSource: FrameSource {
    let still: StillSource
    var taken = 0
    init() throws { still = try StillSource(image: Image(width: 2, height: 2, format: .gray8, filledWith: [7]), name: "still", frameRate: 10) }
    var name: String { still.name }
    var width: Int { 2 }
    var height: Int { 2 }
    var frameRate: Double { 10 }
    var frameCount: Int? { nil }
    var colour: FrameColour { .gray }
    func nextFrame() throws(OcularError) -> Frame? { taken += 1; return try still.nextFrame() }
}

@Suite("Running frames from a source through a pipeline into a sink")
struct FrameRunTests {
    @Test("every frame, in order, up to the limit, with progress after each")
    func limitAndOrder() throws {
        let source = try CountingSource(), sink = CollectingSink()
        var reported: [Int] = []
        let done = try Pipeline(Recipe()).run(from: source, into: sink, limit: 7) { reported.append($0.framesDone) }
        #expect(done == 7 && reported == Array(1...7))
        #expect(sink.timestamps == (0..<7).map { .milliseconds(100 * $0) })
        #expect(source.taken == 7, "the read-ahead reads no frame past the limit")
    }

    @Test("a sink's error stops the run and the reading; a source's error comes after the frames before it")
    func errors() throws {
        let source = try CountingSource()
        #expect(throws: OcularError.invalidArgument("the sink is full")) {
            try Pipeline(Recipe()).run(from: source, into: CollectingSink(failAt: 3), limit: 1000)
        }
        // Read ahead by at most its capacity (2) and the frame in hand: not on to the limit.
        #expect(source.taken <= 7, "\(source.taken) frames read")

        let folder = try TemporaryFolder()
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestData.path("video/astronaut_pan.avi")))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder.file("cut.avi")))
        let sink = CollectingSink()
        let error = try #require(throws: OcularError.self) {
            try Pipeline(Recipe()).run(from: VideoFileSource(path: folder.file("cut.avi")), into: sink)
        }
        guard case .damagedVideo(_, let frame, 30) = error else { Issue.record("got \(error)"); return }
        #expect(sink.timestamps.count == frame && frame > 0)
    }
}

import Foundation
import Testing
@testable import Ocular
import OcularTestSupport

@Suite("Media info and video writing")
struct MediaTests {
    @Test("info on an image gives container, size and channels")
    func imageInfo() throws {
        guard case .image(let info) = try MediaInfo(contentsOfFile: TestData.path("images/rocket.jpg")) else {
            Issue.record("rocket.jpg should be an image"); return
        }
        #expect(info.container == "JPEG" && info.width == 640 && info.height == 427 && info.channels == 3)
    }

    @Test("info on the Motion-JPEG clip gives codec, size, rate, frames and duration")
    func aviInfo() throws {
        guard case .video(let info) = try MediaInfo(contentsOfFile: TestData.path("video/astronaut_pan.avi")) else {
            Issue.record("astronaut_pan.avi should be a video"); return
        }
        #expect(info.codec == "MJPG" && info.width == 480 && info.height == 360)
        #expect(info.framesPerSecond == 10 && info.frameCount == 30 && abs(info.duration - 3) < 1e-9)
    }

    @Test("info on the H.264 clip")
    func mp4Info() throws {
        guard case .video(let info) = try MediaInfo(contentsOfFile: TestData.path("video/cockatoo.mp4")) else {
            Issue.record("cockatoo.mp4 should be a video"); return
        }
        #expect(info.codec.lowercased() == "h264" || info.codec.lowercased() == "avc1")
        #expect(info.width == 1280 && info.height == 720 && info.framesPerSecond == 20 && info.frameCount == 280)
    }

    @Test("info on something that is neither says so")
    func notMedia() throws {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.file("x.mp4"), contents: Data("hello".utf8))
        #expect(throws: OcularError.unreadableMedia(path: folder.file("x.mp4"), reason: MediaInfo.notMediaReason)) {
            try MediaInfo(contentsOfFile: folder.file("x.mp4"))
        }
    }

    @Test("frames written to a video read back with their count and size", arguments: ["clip.avi", "clip.mp4"])
    func writeVideo(name: String) throws {
        let folder = try TemporaryFolder()
        let writer = try VideoWriter(path: folder.file(name), width: 64, height: 48, framesPerSecond: 10)
        for level in 0..<5 {
            try writer.write(Image(width: 64, height: 48, format: .rgb8, filledWith: [UInt8(level * 50), 0, 0]))
        }
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [name], "no temporary file left")
        guard case .video(let info) = try MediaInfo(contentsOfFile: folder.file(name)) else {
            Issue.record("\(name) should be a video"); return
        }
        #expect(info.width == 64 && info.height == 48 && info.frameCount == 5 && info.framesPerSecond == 10)
    }

    @Test("an MP4 of odd-sized frames keeps every column and row, the last repeated to an even size; 1×1 is written as 2×2 (a column and a row were dropped, and 1×1 failed, before)",
          arguments: [(321, 241), (1, 1)])
    func oddSizedMP4(width: Int, height: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("odd.mp4")
        let writer = try VideoWriter(path: path, width: width, height: height, framesPerSecond: 10)
        #expect(writer.writtenWidth == width + 1 && writer.writtenHeight == height + 1)
        // Black, with a white last column and a gray last row: the repeated ones must carry them.
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height { for channel in 0..<3 { bytes[(y * width + width - 1) * 3 + channel] = 255 } }
        for x in 0..<(width - 1) { for channel in 0..<3 { bytes[((height - 1) * width + x) * 3 + channel] = 128 } }
        let frame = try Image(width: width, height: height, format: .bgr8, bytes: bytes)
        for _ in 0..<3 { try writer.write(frame) }
        try writer.finish()
        let clip = try VideoFileSource(path: path)
        let first = try #require(try clip.nextFrame()).image.converted(to: .bgr8)
        #expect(first.width == width + 1 && first.height == height + 1)
        if width > 1 {
            // H.264 is lossy: within a few levels.
            #expect(first.pixel(x: width, y: height / 2).allSatisfy { $0 > 230 }, "\(first.pixel(x: width, y: height / 2))")
            #expect(first.pixel(x: width / 2, y: height).allSatisfy { (110...146).contains($0) }, "\(first.pixel(x: width / 2, y: height))")
        }
    }

    @Test("a Motion-JPEG AVI keeps its frames' pictures, a fractional rate and their order")
    func motionJPEGFrames() throws {
        let clip = try VideoFileSource(path: TestData.path("video/astronaut_pan.avi"))
        var originals: [Image] = []
        while originals.count < 12, let frame = try clip.nextFrame() { originals.append(try frame.image.converted(to: .bgr8)) }
        let folder = try TemporaryFolder()
        let path = folder.file("pan.avi")
        let writer = try VideoWriter(path: path, width: 480, height: 360, framesPerSecond: 30000.0 / 1001)
        #expect(writer.codec == "MJPG")
        for original in originals { try writer.write(original) }
        try writer.finish()

        guard case .video(let info) = try MediaInfo(contentsOfFile: path) else { Issue.record("pan.avi should be a video"); return }
        #expect(info.codec == "MJPG" && info.frameCount == 12 && abs(info.framesPerSecond - 29.97) < 0.01, "\(info)")
        func meanDifference(_ a: Image, _ b: Image) -> Double {
            Double(zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.bytes.count)
        }
        // JPEG at quality 80 loses about two levels a byte here; the camera pans, so neighbouring
        // frames differ by far more, and a frame out of order shows.
        #expect(meanDifference(originals[0], originals[1]) > 6)
        let written = try VideoFileSource(path: path)
        for (index, original) in originals.enumerated() {
            let frame = try #require(try written.nextFrame(), "frame \(index)").image.converted(to: .bgr8)
            #expect(meanDifference(frame, original) < 3, "frame \(index)")
        }
        #expect(try written.nextFrame() == nil)
    }

    @Test("an unfinished video leaves no file")
    func abandonedVideo() throws {
        let folder = try TemporaryFolder()
        do {
            let writer = try VideoWriter(path: folder.file("gone.avi"), width: 8, height: 8, framesPerSecond: 5)
            try writer.write(Image(width: 8, height: 8, format: .gray8, filledWith: [3]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(throws: OcularError.unsupportedFileType(path: "x.mov")) {
            try VideoWriter(path: "x.mov", width: 8, height: 8, framesPerSecond: 5)
        }
    }
}

import Foundation
import Ocular
import OcularGallery
import Testing

/// The mean absolute difference of two images' bytes.
private func meanDifference(_ a: Image, _ b: Image) -> Double {
    zip(a.bytes, b.bytes).reduce(0.0) { $0 + Double(abs(Int($1.0) - Int($1.1))) } / Double(a.bytes.count)
}

/// Every frame of a video file.
private func frames(of path: String, colour: FrameColour = .colour) throws -> [Image] {
    let source = try VideoFileSource(path: path, colour: colour)
    var images: [Image] = []
    while let frame = try source.nextFrame() { images.append(frame.image) }
    return images
}

@Suite("ocular process and record")
struct ProcessCLITests {
    let clip = dataRoot + "/video/astronaut_pan.avi", picture = dataRoot + "/images/rocket.jpg"

    @Test("process keeps every frame, the size and the rate, and screens the picture into each frame")
    func processBlend() throws {
        let folder = try Folder()
        let output = folder.file("screened.mp4")
        let run = try ocular("process", clip, "-o", output, "--blend", picture, "--mode", "screen")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("30 frames, 480 × 360 at 10 fps"), "\(run.output)")
        // Not a terminal: plain progress lines, the last one at 100 %.
        #expect(run.errors.contains("process 30/30 frames") && run.errors.contains("(100%)"), "\(run.errors)")
        let source = try VideoFileSource(path: output)
        #expect(source.width == 480 && source.height == 360 && source.frameRate == 10)
        let written = try frames(of: output), original = try frames(of: clip)
        #expect(written.count == 30)
        let blend = try Blend(source: Image(contentsOfFile: picture), mode: .screen)
        for index in [0, 15, 29] {
            let expected = try blend.apply(to: original[index])
            // The codec is lossy: near the expected blend, far from the frame unblended.
            #expect(meanDifference(written[index], expected) < 4, "frame \(index)")
            #expect(meanDifference(written[index], original[index]) > 20, "frame \(index)")
        }
        #expect(folder.contents == ["screened.mp4"])
    }

    @Test("process in gray with a recipe writes the recipe's frames of the luma")
    func processGrayRecipe() throws {
        let folder = try Folder()
        let output = folder.file("gray.avi")
        let run = try ocular("process", clip, "-o", output, "--recipe", #"{"stages":[{"stage":"blend","source":"\#(picture)","mode":"multiply"}]}"#, "--gray")
        #expect(run.status == 0, "\(run.errors)")
        let written = try frames(of: output), original = try frames(of: clip, colour: .gray)
        #expect(written.count == 30)
        let expected = try Blend(source: Image(contentsOfFile: picture), mode: .multiply).apply(to: original[10])
        // Written as colour; its three channels are equal, the gray frame's.
        let pixel = written[10].pixel(x: 240, y: 180)
        #expect(abs(Int(pixel[0]) - Int(pixel[2])) <= 2)
        #expect(meanDifference(try written[10].converted(to: .gray8), expected) < 4)
    }

    @Test("process refuses what it cannot do, clearly, and writes nothing")
    func processErrors() throws {
        let folder = try Folder()
        expectCleanFailure(try ocular("process", clip, "-o", folder.file("a.mp4")), mentioning: "give either --recipe R or --blend PICTURE")
        expectCleanFailure(try ocular("process", clip, "-o", folder.file("a.png"), "--blend", picture), mentioning: "-o must name an .mp4 or .avi file")
        expectCleanFailure(try ocular("process", folder.file("none.mp4"), "-o", folder.file("b.mp4"), "--blend", picture),
                           mentioning: "cannot read '\(folder.file("none.mp4"))': no such file")
        expectCleanFailure(try ocular("process", picture, "-o", folder.file("c.mp4"), "--blend", picture), mentioning: "it is a JPEG image, not a video")
        // Cut short: the frames that decode are not passed off as the whole video.
        let whole = try Data(contentsOf: URL(fileURLWithPath: clip))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder.file("cut.avi")))
        expectCleanFailure(try ocular("process", folder.file("cut.avi"), "-o", folder.file("d.mp4"), "--blend", picture),
                           mentioning: "of 30 cannot be decoded")
        #expect(folder.contents == ["cut.avi"])
    }

    @Test("record twice gives 0.mp4 and 1.mp4 in the gallery's videos, registered with their recipe")
    func recordTwice() throws {
        let folder = try Folder()
        let gallery = folder.file("gallery")
        for number in 0..<2 {
            let run = try ocular("record", "--video", clip, "--seconds", "2", "--recipe", #"{"stages":[{"stage":"gray"}]}"#, "--gallery", gallery)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("videos/\(number).mp4 (480 × 360, 2 s)"), "\(run.output)")
        }
        let opened = try Gallery(folder: gallery)
        let items = try opened.items()
        #expect(items.map(\.fileName) == ["1.mp4", "0.mp4"] && items.allSatisfy { $0.kind == .video && $0.duration == 2 })
        #expect(items[0].recipe?.stages.map(\.stage) == ["gray"])
        for item in items { try opened.verify(item) }
        let recorded = try frames(of: opened.path(of: items[1]))
        #expect(recorded.count == 20)
        let pixel = recorded[0].pixel(x: 77, y: 80)
        // Equal channels but for the codec's limited-range YUV rounding.
        #expect(abs(Int(pixel[0]) - Int(pixel[1])) <= 4 && abs(Int(pixel[1]) - Int(pixel[2])) <= 4, "gray: \(pixel)")
        // A longer wish than the video ends with the video.
        let third = try ocular("record", "--video", clip, "--seconds", "60", "--gallery", gallery)
        #expect(third.status == 0 && third.output.contains("videos/2.mp4 (480 × 360, 3 s)"), "\(third.output)\(third.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: gallery + "/videos").sorted() == ["0.mp4", "1.mp4", "2.mp4"])
    }

    @Test("record without a camera or with a bad video fails clearly and adds nothing")
    func recordErrors() throws {
        let folder = try Folder()
        let gallery = folder.file("gallery")
        expectCleanFailure(try ocular("record", "--camera", "57", "--seconds", "1", "--gallery", gallery), mentioning: "cannot open camera 57")
        expectCleanFailure(try ocular("record", "--video", picture, "--seconds", "1", "--gallery", gallery), mentioning: "image, not a video")
        expectCleanFailure(try ocular("record", "--video", clip, "--camera", "0", "--seconds", "1"), mentioning: "not both")
        expectCleanFailure(try ocular("record", "--video", clip, "--seconds", "0"), mentioning: "--seconds must be above 0")
        let videos = (try? FileManager.default.contentsOfDirectory(atPath: gallery + "/videos")) ?? []
        #expect(videos.isEmpty)
    }
}

import Foundation
import OcularTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The command line against hostile input: each case once crashed, hung, or answered in a code.
@Suite("The ocular command line under hostile input")
struct HardeningCLITests {
    @Test("the 45-byte PNG claiming 2³²−1 × 2³²−1 pixels gets a message from info and convert, not a crash")
    func forgedSize() throws {
        let folder = try Folder()
        let png = folder.file("huge.png")
        try Data(forgedHugePNG()).write(to: URL(fileURLWithPath: png))
        for arguments in [["info", png], ["convert", png, folder.file("out.png")]] {
            expectCleanFailure(try ocular(arguments), mentioning: "4294967295×4294967295 is 18446744065119.6 megapixels, over the limit of 100 megapixels")
        }
        #expect(folder.contents == ["huge.png"])
    }

    @Test("a WebM or MP4 cut short is refused by info and gallery add with the studio's words (FFmpeg's header said it was whole)",
          arguments: ["ffmpeg-vp8-silent.webm", "ffmpeg-h264-aac.mp4", "chrome-vp8-opus.webm"])
    func cutShortClips(name: String) throws {
        let folder = try Folder()
        let whole = try ClipFixtures.bytes(name)
        let cut = folder.file("cut-" + name)
        try whole.prefix(whole.count / 5).write(to: URL(fileURLWithPath: cut))
        let gallery = folder.file("gallery")
        for arguments in [["info", cut], ["info", cut, "--json"], ["gallery", "add", cut, "--gallery", gallery]] {
            let run = try ocular(arguments)
            expectCleanFailure(run, mentioning: "is not a whole WebM or MP4:")
            #expect(run.status == 65, "\(arguments): \(run.status)")
            #expect(run.errors.contains("cut short") || run.errors.contains("no 'moov' box"), "\(run.errors)")
            #expect(run.errors.split(separator: "\n").count == 1, "\(run.errors)")
        }
        #expect(try GalleryCLITests.list(gallery).isEmpty)
        // The whole clip still reads, with the container's figures.
        let info = try ocular("info", ClipFixtures.path(name))
        #expect(info.status == 0, "\(info.errors)")
    }

    @Test("a sound-only AVI is refused at once by every command that reads video, and a batch over a folder holding one writes the rest (GStreamer waited for ever for its video, in a lock every video open took)")
    func soundOnlyVideo() throws {
        let folder = try Folder()
        let sound = VideoFixtures.path("ffmpeg-sound-only.avi")
        let recipe = #"{"stages":[{"stage":"gray"}]}"#
        for arguments in [["info", sound], ["process", sound, "--output", folder.file("out.mp4"), "--recipe", recipe],
                          ["faces", "video", sound, "--output", folder.file("faces.mp4")], ["gallery", "add", sound, "--gallery", folder.file("gallery")]] {
            let run = try ocular(arguments, killedAfter: .seconds(60))
            expectCleanFailure(run, mentioning: "'\(sound)'")
            #expect(run.status == 65, "\(arguments): \(run.status) \(run.errors)")
        }
        let inputs = folder.file("inputs")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sound, toPath: inputs + "/sound.avi")
        try FileManager.default.copyItem(atPath: dataRoot + "/video/astronaut_pan.avi", toPath: inputs + "/clip.avi")
        let batch = try ocular(["batch", "run", inputs, "--output", folder.file("out"), "--recipe", recipe], killedAfter: .seconds(60))
        #expect(batch.status == 1 && batch.output.contains("2 inputs: 1 written, 0 already done, 1 failed"), "\(batch.status): \(batch.output) \(batch.errors)")
        let results = try String(contentsOfFile: folder.file("out/results.jsonl"), encoding: .utf8)
        #expect(results.contains(#""code":"media.unreadable""#) && results.contains(#""frames":30"#), "\(results)")
    }

    @Test("a browser recorder's WebM keeps its own rate through process and batch: 32 frames in 1.53 s (written at 30 frames/s, 1.07 s, before)")
    func recorderRate() throws {
        let folder = try Folder()
        let clip = ClipFixtures.path("chrome-vp8-opus.webm")
        let recipe = #"{"stages":[{"stage":"gray"}]}"#
        let processed = try ocular("process", clip, "--output", folder.file("out.mp4"), "--recipe", recipe)
        #expect(processed.status == 0 && processed.output.contains("32 frames, 320 × 240 at 20.9 fps"), "\(processed.output) \(processed.errors)")
        let batch = try ocular("batch", "run", clip, "-o", folder.file("batch"), "--recipe", recipe)
        #expect(batch.status == 0, "\(batch.errors)")
        for output in [folder.file("out.mp4"), folder.file("batch/chrome-vp8-opus.mp4")] {
            let info = try ocular("info", output)
            #expect(info.output.contains("frames      32") && info.output.contains("duration    1.53 s"), "\(output): \(info.output)")
        }
    }

    @Test("a variable-rate Matroska of 60 frames is read whole, timed by its frames (said to have 108, refused as cut short at frame 61, before)")
    func variableRateMatroska() throws {
        let folder = try Folder()
        let clip = VideoFixtures.path("ffmpeg-variable-rate.mkv")
        let info = try ocular("info", clip)
        #expect(info.status == 0 && info.output.contains("frames      60") && info.output.contains("duration    3.63 s"), "\(info.output) \(info.errors)")
        let processed = try ocular("process", clip, "--output", folder.file("out.mp4"), "--recipe", #"{"stages":[{"stage":"gray"}]}"#)
        #expect(processed.status == 0 && processed.output.contains("60 frames, 160 × 120 at 16.54 fps"), "\(processed.output) \(processed.errors)")
        let added = try ocular("gallery", "add", clip, "--gallery", folder.file("gallery"))
        #expect(added.status == 0 && added.output.contains("160 × 120 video, 3.6 s"), "\(added.output) \(added.errors)")
    }

    @Test("16-bit PNGs with alpha go through every command that reads pictures (they crashed every one with SIGSEGV)",
          arguments: ["png-rgba-16.png", "png-gray-alpha-16.png"])
    func sixteenBitAlpha(name: String) throws {
        let folder = try Folder()
        let png = folder.file(name)
        try FileManager.default.copyItem(atPath: LayoutFixtures.path(name), toPath: png)
        let coffee = dataRoot + "/images/coffee.png"
        let info = try ocular("info", png)
        #expect(info.status == 0 && info.output.contains("7 × 5") && info.output.contains("bgra8"), "\(info)")
        #expect(try ocular("convert", png, folder.file("eight.png")).status == 0)
        #expect(try ocular("convert", png, folder.file("gray.png"), "--format", "gray").status == 0)
        let added = try ocular("gallery", "add", png, "--gallery", folder.file("gallery"))
        #expect(added.status == 0, "\(added)")
        #expect(try ocular("blend", coffee, png, "-o", folder.file("blend.png")).status == 0)
        let recipe = #"{"stages":[{"stage":"blend","source":"\#(png)","mode":"multiply"}]}"#
        #expect(try ocular("apply", coffee, "-o", folder.file("applied.png"), "--recipe", recipe).status == 0)
        let list = folder.file("labels.json")
        try Data(#"{"labelDescriptions":["unidentified","dot"],"blobs":[{"imageFilename":"\#(name)","label":1}]}"#.utf8)
            .write(to: URL(fileURLWithPath: list))
        let trained = try ocular("blobs", "train", "--training", list)
        #expect(trained.status < 128, "blobs train was killed by a signal: \(trained)")
        for run in [info, added, trained] { #expect(!run.errors.contains("Fatal error")) }
    }

    @Test("a FIFO, a device and a directory are refused at once, by type")
    func specialFiles() throws {
        let folder = try Folder()
        let fifo = folder.file("pipe.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO for reading waits for a writer: before the fix `info` hung here forever. A hang is
        // killed at the deadline and then fails as a run with no message, not as a slow one.
        expectCleanFailure(try ocular(["info", fifo], killedAfter: .seconds(60)),
                           mentioning: "cannot read '\(fifo)': it is a FIFO (named pipe), not a file")
        expectCleanFailure(try ocular(["convert", fifo, folder.file("out.png")], killedAfter: .seconds(60)),
                           mentioning: "it is a FIFO (named pipe), not a file")
        expectCleanFailure(try ocular("convert", "/dev/zero", folder.file("out.png")), mentioning: "cannot read '/dev/zero': it is a device, not a file")
        expectCleanFailure(try ocular("info", folder.path), mentioning: "it is a directory, not a file")
    }

    @Test("--max-megapixels and --frames refuse values past what can be counted or read")
    func megapixelOption() throws {
        let coffee = dataRoot + "/images/coffee.png"
        for value in ["1e300", "nan", "inf", "0", "-1", "2000"] {
            let run = try ocular("info", coffee, "--max-megapixels=\(value)")
            expectCleanFailure(run, mentioning: "--max-megapixels must be a number from 0.000001 to 1073")
        }
        expectCleanFailure(try ocular("info", coffee, "--max-megapixels", "0.2"), mentioning: "600×400 is 240000 pixels, 40000 over the limit of 200000 (0.2 megapixels)")
        #expect(try ocular("info", coffee, "--max-megapixels", "0.25").status == 0)
        // frames × interval × fps once overflowed Int while sizing the progress bar.
        expectCleanFailure(try ocular("tint", coffee, "-o", "/tmp/never.mp4", "--frames", "9223372036854775807"),
                           mentioning: "--frames must be from 1 to 100000")
    }

    @Test("outputs onto a folder or into a missing folder are refused in words")
    func outputPaths() throws {
        let folder = try Folder()
        let coffee = dataRoot + "/images/coffee.png"
        expectCleanFailure(try ocular("convert", coffee, folder.path), mentioning: "cannot write '\(folder.path)': it is a directory; give a file name")
        expectCleanFailure(try ocular("convert", coffee, folder.path + "/", "--format", "gray"), mentioning: "it is a directory")
        expectCleanFailure(try ocular("tint", coffee, "-o", folder.file("missing/clip.mp4"), "--frames", "2"),
                           mentioning: "cannot write '\(folder.file("missing/clip.mp4"))': the folder '\(folder.file("missing"))' does not exist")
        #expect(folder.contents.isEmpty)
    }

    @Test("SIGINT or SIGTERM while tint writes a video leaves no partial file behind", arguments: [SIGINT, SIGTERM])
    func interruptedVideo(signal: Int32) throws {
        let folder = try Folder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ocularExecutable)
        process.arguments = ["tint", dataRoot + "/images/coffee.png", "-o", folder.file("clip.mp4"),
                             "--frames", "200", "--interval", "2", "--fps", "30", "--seed", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while !folder.contents.contains(where: { $0.hasSuffix(".partial.mp4") }), ContinuousClock.now < deadline, process.isRunning {
            usleep(20_000)
        }
        #expect(folder.contents.contains { $0.hasSuffix(".partial.mp4") }, "the video was never started")
        usleep(200_000)  // well inside the 6000 frames
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
        #expect(folder.contents.isEmpty, "left behind: \(folder.contents)")
    }
}

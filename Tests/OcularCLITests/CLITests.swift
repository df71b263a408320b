import Foundation
import Ocular
import OcularStudio
import OcularTestSupport
import Testing

@Suite("The ocular command line")
struct CLITests {
    @Test("info describes an image")
    func infoImage() throws {
        let run = try ocular("info", dataRoot + "/images/coffee.png")
        #expect(run.status == 0)
        #expect(run.output.contains("PNG image") && run.output.contains("600 × 400") && run.output.contains("channels  3"))
    }

    @Test("info --json describes a video")
    func infoVideoJSON() throws {
        let run = try ocular("info", "--json", dataRoot + "/video/astronaut_pan.avi")
        #expect(run.status == 0)
        let object = try JSON(parsing: run.output)
        #expect(object["kind"] == "video")
        #expect(object["codec"] == "MJPG")
        #expect(object["width"] == 480 && object["height"] == 360)
        #expect(object["frameCount"] == 30 && object["framesPerSecond"] == 10 && object["duration"] == 3)
    }

    @Test("info on a missing or non-media file fails cleanly")
    func infoErrors() throws {
        expectCleanFailure(try ocular("info", "/no/such/photo.png"), mentioning: "cannot read '/no/such/photo.png': no such file")
        let folder = try Folder()
        _ = FileManager.default.createFile(atPath: folder.file("notes.txt"), contents: Data("hello".utf8))
        expectCleanFailure(try ocular("info", folder.file("notes.txt")), mentioning: "not an image or video")
    }

    @Test("convert writes the requested pixel format")
    func convert() throws {
        let folder = try Folder()
        let run = try ocular("convert", dataRoot + "/images/coffee.png", folder.file("gray.png"), "--format", "gray")
        #expect(run.status == 0, "\(run.errors)")
        let gray = try Image(contentsOfFile: folder.file("gray.png"))
        #expect(gray.format == .gray8 && gray.width == 600 && gray.height == 400)
        let expected = try Image(contentsOfFile: dataRoot + "/images/coffee.png").converted(to: .gray8)
        #expect(gray == expected)
    }

    @Test("convert to .raw writes the bare bytes in exactly the layout asked for")
    func convertRaw() throws {
        let folder = try Folder()
        #expect(try ocular("convert", dataRoot + "/images/coffee.png", folder.file("frame.raw"), "--format", "rgba").status == 0)
        let raw = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.file("frame.raw"))))
        let expected = try Image(contentsOfFile: dataRoot + "/images/coffee.png").converted(to: .rgba8)
        #expect(raw == expected.bytes)
        #expect(raw.count == 600 * 400 * 4)
    }

    @Test("convert refuses what cannot be written, and writes nothing")
    func convertErrors() throws {
        let folder = try Folder()
        expectCleanFailure(try ocular("convert", dataRoot + "/images/coffee.png", folder.file("x.xyz")), mentioning: "no image format OpenCV can write")
        expectCleanFailure(try ocular("convert", dataRoot + "/images/coffee.png", folder.file("x.jpg"), "--format", "rgba"), mentioning: "JPEG cannot store alpha")
        expectCleanFailure(try ocular("convert", dataRoot + "/images/coffee.png", folder.file("x.raw")), mentioning: "needs --format")
        #expect(folder.contents.isEmpty)
    }

    @Test("whitebalance brings the channel means of a colour cast together and keeps the brightness")
    func whiteBalance() throws {
        let folder = try Folder()
        let cast = try Tint(red: 1.3, green: 1, blue: 0.7).apply(to: Image(contentsOfFile: dataRoot + "/images/coffee.png"))
        try cast.write(toFile: folder.file("cast.png"))
        // As OpenCV scales the gains (the largest 1), nothing clips and the means meet.
        let opencv = try ocular("whitebalance", folder.file("cast.png"), "-o", folder.file("opencv.png"), "--saturation-threshold", "1",
                                "--no-keep-brightness")
        #expect(opencv.status == 0, "\(opencv.errors)")
        let means = try Image(contentsOfFile: folder.file("opencv.png")).channelMeans()
        #expect(means.max()! - means.min()! < 3, "\(means)")
        // By default the mean luma is kept: the same result as the library's stage.
        let run = try ocular("whitebalance", folder.file("cast.png"), "-o", folder.file("balanced.png"), "--saturation-threshold", "1")
        #expect(run.status == 0, "\(run.errors)")
        let balanced = try Image(contentsOfFile: folder.file("balanced.png"))
        #expect(balanced == (try WhiteBalance(saturationThreshold: 1).apply(to: cast)))
        let lumaBefore = try cast.converted(to: .gray8).channelMeans()[0], lumaAfter = try balanced.converted(to: .gray8).channelMeans()[0]
        #expect(abs(lumaAfter - lumaBefore) < 0.05 * lumaBefore, "\(lumaBefore) → \(lumaAfter)")
        #expect(run.output.contains("mean luma \(Int(lumaBefore.rounded())) → \(Int(lumaAfter.rounded()))"), "\(run.output)")
        expectCleanFailure(try ocular("whitebalance", folder.file("cast.png"), "-o", folder.file("x.png"), "--saturation-threshold", "2"),
                           mentioning: "stage 'whiteBalance', parameter 'saturationThreshold': must be a number from 0 to 1, got 2")
    }

    @Test("tint with a seed is reproducible; a gray image comes out in colour")
    func tintSeed() throws {
        let folder = try Folder()
        for name in ["a.png", "b.png"] {
            let run = try ocular("tint", dataRoot + "/book/Piggy.png", "-o", folder.file(name), "--seed", "7")
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("seed 7"))
        }
        let first = try Image(contentsOfFile: folder.file("a.png"))
        #expect(first == (try Image(contentsOfFile: folder.file("b.png"))))
        #expect(first.format == .bgr8 && first.width == 965 && first.height == 1256)
        let expected = try TintSequence(seed: 7).tint(number: 0).apply(to: Image(contentsOfFile: dataRoot + "/book/Piggy.png"))
        #expect(try first == expected.converted(to: .bgr8))
    }

    @Test("tint --frames writes numbered files, each with its own tint")
    func tintFrames() throws {
        let folder = try Folder()
        let run = try ocular("tint", dataRoot + "/images/coffee.png", "-o", folder.file("t.png"), "--frames", "3", "--seed", "1")
        #expect(run.status == 0, "\(run.errors)")
        #expect(folder.contents == ["t-000.png", "t-001.png", "t-002.png"])
        let frames = try folder.contents.map { try Image(contentsOfFile: folder.file($0)) }
        #expect(frames[0] != frames[1] && frames[1] != frames[2])
    }

    @Test("tint to a video holds each tint for the interval")
    func tintVideo() throws {
        let folder = try Folder()
        let run = try ocular("tint", dataRoot + "/images/coffee.png", "-o", folder.file("t.avi"),
                             "--frames", "3", "--interval", "0.5", "--fps", "4", "--seed", "2")
        #expect(run.status == 0, "\(run.errors)")
        guard case .video(let info) = try MediaInfo(contentsOfFile: folder.file("t.avi")) else {
            Issue.record("t.avi is not a video"); return
        }
        #expect(info.frameCount == 6 && info.framesPerSecond == 4 && info.width == 600 && info.height == 400)
        #expect(folder.contents == ["t.avi"])
    }

    @Test("ocular studio's defaults are the studio configuration's, shown in its help")
    func studioDefaults() throws {
        let defaults = StudioConfiguration()
        let help = try ocular("studio", "--help").output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (option, value) in [("--host", defaults.host), ("--port", "\(defaults.port)"), ("--quality", "\(defaults.jpegQuality)"),
                                ("--max-frame-megabytes", "\(defaults.maxFrameBytes >> 20)"),
                                ("--gallery-quota-megabytes", "\(defaults.galleryQuotaBytes >> 20)"),
                                ("--max-recording-seconds", "\(Int(defaults.maxRecordingSeconds))"),
                                ("--max-clip-megabytes", "\(defaults.maxClipBytes >> 20)"),
                                ("--max-frame-seconds", "\(defaults.maxFrameWorkSeconds)")] {
            // An option's help runs from its name to the next option.
            guard let start = help.range(of: "\(option) <") else {
                Issue.record("\(option) is not in the help: \(help)")
                continue
            }
            let rest = help[start.upperBound...]
            let own = rest[..<(rest.range(of: " --")?.lowerBound ?? rest.endIndex)]
            #expect(own.contains("(default: \(value))"), "\(option): \(own)")
        }
    }

    @Test("bad options are refused with a reason")
    func badOptions() throws {
        expectCleanFailure(try ocular("tint", dataRoot + "/images/coffee.png", "-o", "/tmp/x.png", "--frames", "0"), mentioning: "--frames must be from 1 to 100000, got 0")
        expectCleanFailure(try ocular("tint", "/no/such.png", "-o", "/tmp/x.png"), mentioning: "no such file")
        expectCleanFailure(try ocular("whitebalance", dataRoot + "/images/coffee.png", "-o", "/no/such/folder/x.png"), mentioning: "does not exist")
        expectCleanFailure(try ocular("studio", "--port", "70000"), mentioning: "--port must be from 0 to 65535")
        for value in ["0", "nan", "61"] {
            expectCleanFailure(try ocular("studio", "--max-frame-seconds", value), mentioning: "--max-frame-seconds must be from 0.01 to 60")
        }
    }

    @Test("off loopback the studio prints its address with a random token, or the one given; bad tokens and names are refused")
    func studioToken() throws {
        let folder = try Folder()
        func address(_ extra: [String]) throws -> String {
            try withStudio(["--host", "0.0.0.0", "--port", "0", "--gallery", folder.file("gallery")] + extra) { $0 }
        }
        let random = try address([])
        #expect(random.contains(#/http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64} /#), "\(random)")
        #expect(try address([]) != random, "a new token each start")
        #expect(try address(["--token", "my-own-token-of-20ch"]).contains("/?token=my-own-token-of-20ch "))
        expectCleanFailure(try ocular("studio", "--token", "short"), mentioning: "--token must be at least 16 letters")
        expectCleanFailure(try ocular("studio", "--allow-host", "bad host"), mentioning: "--allow-host 'bad host' is not a host name")
    }

    @Test("a second studio on a taken port says the port is in use")
    func studioPortInUse() throws {
        let port = Int.random(in: 20000...40000)
        try withStudio(["--port", String(port)]) { printed in
            #expect(printed.contains("http://127.0.0.1:\(port)/"))
            expectCleanFailure(try ocular("studio", "--port", String(port)), mentioning: "port is in use")
        }
    }
}

@Suite("The command line's standard error")
struct LibraryMessagesCLITests {
    /// astronaut.png carries an sRGB profile libpng calls known-incorrect; libpng printed a warning
    /// about it on standard error for every command that read it, in the middle of `--json` piped 2>&1.
    @Test("libpng's and OpenCV's own warnings stay off standard error unless --verbose: astronaut.png's sRGB profile, a PNG whose CRC is wrong, a BMP OpenCV cannot read")
    func libraryWarningsAreQuiet() throws {
        let astronaut = dataRoot + "/faces/astronaut.png"
        let quiet = try ocular("info", "--json", astronaut)
        #expect(quiet.status == 0)
        #expect(quiet.errors.isEmpty, "stderr: \(quiet.errors)")
        #expect(try !JSON(parsing: quiet.output).keys.isEmpty, "\(quiet.output)")
        let verbose = try ocular("info", "--json", "--verbose", astronaut)
        #expect(verbose.status == 0 && verbose.output == quiet.output)
        #expect(verbose.errors.contains("ocular: libpng warning: iCCP: known incorrect sRGB profile"), "stderr: \(verbose.errors)")

        // A PNG whose header chunk's CRC is wrong: libpng's error, which OpenCV turns into a failed read.
        let folder = try Folder()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dataRoot + "/images/coffee.png")))
        bytes[29] ^= 0xff  // the IHDR chunk's CRC: 8 bytes of signature, 8 of length and type, 13 of data
        let damaged = folder.file("damaged.png")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let refused = try ocular("convert", damaged, folder.file("out.jpg"))
        #expect(refused.status == 65)
        #expect(refused.errors.hasPrefix("Error: ") && !refused.errors.contains("libpng"), "stderr: \(refused.errors)")
        let told = try ocular("convert", "--verbose", damaged, folder.file("out.jpg"))
        #expect(told.status == 65 && told.errors.contains("ocular: libpng error: IHDR: CRC error"), "stderr: \(told.errors)")

        // A BMP whose header names compression 99: OpenCV 4.6 writes "imdecode_('…'): can't read header"
        // to std::cerr itself, past its log level.
        var header = Data("BM".utf8)
        for value: UInt32 in [1_000, 0, 54, 40, 4, 4] { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        header.append(contentsOf: [1, 0, 24, 0])  // one plane, 24 bits
        withUnsafeBytes(of: UInt32(99).littleEndian) { header.append(contentsOf: $0) }
        header.append(Data(count: 120))
        let bitmap = folder.file("odd.bmp")
        try header.write(to: URL(fileURLWithPath: bitmap))
        let unread = try ocular("info", bitmap)
        #expect(unread.status == 65)
        #expect(unread.errors.hasPrefix("Error: cannot read") && unread.errors.split(separator: "\n").count == 1, "stderr: \(unread.errors)")
        let shown = try ocular("info", "--verbose", bitmap)
        #expect(shown.status == 65 && shown.errors.contains("imdecode_") && shown.errors.contains("Error: cannot read"), "stderr: \(shown.errors)")
    }
}

import Foundation
import OcularTestSupport
import Synchronization
import Testing
@testable import Ocular

#if canImport(Glibc)
import Glibc
#endif

@Suite("Hostile input: sizes, file types and paths")
struct HardeningTests {
    @Test("a header claiming 2³²−1 × 2³²−1 pixels is refused with a message, not an overflow")
    func forgedSize() throws {
        let png = forgedHugePNG()
        #expect(png.count == 45)
        do {
            _ = try Image(decoding: png, name: "huge.png")
            Issue.record("a 2³²−1 × 2³²−1 image was accepted")
        } catch {
            #expect(error == .tooManyPixels(path: "huge.png", width: 4_294_967_295, height: 4_294_967_295, limit: 100_000_000))
            #expect(error.description == "cannot read 'huge.png': 4294967295×4294967295 is 18446744065119.6 megapixels, over the limit of 100 megapixels")
        }
    }

    @Test("bytes without an image signature never reach OpenCV's decoders")
    func noSignature() throws {
        #expect(signaturelessJunk.count == 37)
        #expect(throws: OcularError.notAnImage(path: "junk")) { try Image(decoding: signaturelessJunk, name: "junk") }
    }

    @Test("megapixels print to one decimal, and limits as large as Int still print")
    func megapixelText() {
        #expect(OcularError.megapixels(12_000_000) == "12")
        #expect(OcularError.megapixels(250_000) == "0.3")
        #expect(OcularError.tooManyPixels(path: "x", width: 3, height: 2, limit: Int.max).description
            == "cannot read 'x': 3×2 is 0 megapixels, over the limit of 9223372036854.8 megapixels")
    }

    @Test("sizes in BMP, PNM, PFM, Sun raster and WebP headers are read, so the pixel limit applies before decoding")
    func otherHeaders() throws {
        let cases: [(String, [UInt8], Int, Int)] = [
            ("PGM", Array("P5\n# comment\n70000 80000\n255\n".utf8), 70000, 80000),
            ("PAM", Array("P7\nWIDTH 40000\nHEIGHT 30000\nDEPTH 3\nMAXVAL 255\nENDHDR\n".utf8), 40000, 30000),
            ("PFM", Array("PF\n99999999999999999999999 2\n-1.0\n".utf8), Int.max, 2),
            ("Sun raster", [0x59, 0xA6, 0x6A, 0x95, 0, 1, 0, 0, 0, 1, 0, 0] + [UInt8](repeating: 0, count: 20), 65536, 65536),
            ("BMP", Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0, 0x10, 0x27, 0, 0, 0xEF, 0xD8, 0xFF, 0xFF]
                + [UInt8](repeating: 0, count: 30), 10000, 10001),
            ("WebP", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
                + [0x10, 0x27, 0, 0x0F, 0x27, 0] + [UInt8](repeating: 0, count: 8), 10001, 10000),
        ]
        for (name, bytes, width, height) in cases {
            let header = bytes.withUnsafeBytes { ImageHeader($0) }
            #expect(header?.width == width && header?.height == height, "\(name): \(String(describing: header))")
            #expect(throws: OcularError.tooManyPixels(path: name, width: width, height: height, limit: 100_000_000)) {
                try Image(decoding: bytes, name: name)
            }
        }
    }

    @Test("directories, FIFOs, sockets and devices are refused at once, by type")
    func specialFiles() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let socketPath = folder.file("socket")
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socketPath.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        let expectations: [(String, String)] = [
            (folder.path, "it is a directory, not a file"),
            (fifo, "it is a FIFO (named pipe), not a file"),
            (socketPath, "it is a socket, not a file"),
            ("/dev/zero", "it is a device, not a file"),
        ]
        for (path, reason) in expectations {
            #expect(throws: OcularError.unreadableFile(path: path, reason: reason)) { try Image(contentsOfFile: path) }
            #expect(throws: OcularError.unreadableFile(path: path, reason: reason)) { try MediaInfo(contentsOfFile: path) }
        }
        #expect(throws: OcularError.fileNotFound(path: folder.file("missing.png"))) { try Image(contentsOfFile: folder.file("missing.png")) }
    }

    @Test("writing onto a folder, or into a missing one, says so in words")
    func outputPaths() throws {
        let folder = try TemporaryFolder()
        let image = try Image(width: 8, height: 8, format: .bgr8, filledWith: [1, 2, 3])
        #expect(throws: OcularError.writeFailed(path: folder.path, reason: "it is a directory; give a file name")) {
            try image.write(toFile: folder.path)
        }
        let missing = folder.file("missing/out.png")
        #expect(throws: OcularError.writeFailed(path: missing, reason: "the folder '\(folder.path)/missing' does not exist")) {
            try image.write(toFile: missing)
        }
        let video = folder.file("missing/out.mp4")
        #expect(throws: OcularError.writeFailed(path: video, reason: "the folder '\(folder.path)/missing' does not exist")) {
            try VideoWriter(path: video, width: 8, height: 8, framesPerSecond: 10)
        }
        #expect(throws: OcularError.writeFailed(path: folder.path + "/", reason: "it is a directory; give a file name")) {
            try image.writeRawPixels(toFile: folder.path + "/")
        }
        #expect(folder.contents.isEmpty)
    }

    @Test("info calls a text file and a file without pictures the same thing: not an image or video")
    func notMedia() throws {
        let folder = try TemporaryFolder()
        let text = folder.file("notes.txt")
        try Data("hello, this is not a picture\n".utf8).write(to: URL(fileURLWithPath: text))
        let random = folder.file("noise.bin")
        try Data(noiseBytes(count: 4096, seed: 5)).write(to: URL(fileURLWithPath: random))
        for path in [text, random] {
            #expect(throws: OcularError.unreadableMedia(path: path, reason: MediaInfo.notMediaReason)) { try MediaInfo(contentsOfFile: path) }
        }
    }

    @Test("video probes from many threads at once each get their own answer")
    func concurrentProbes() throws {
        let folder = try TemporaryFolder()
        let text = folder.file("notes.txt")
        try Data("not a video\n".utf8).write(to: URL(fileURLWithPath: text))
        let video = TestData.path("video/astronaut_pan.avi")
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let path = index.isMultiple(of: 2) ? text : video
            let outcome: String
            do {
                if case .video(let info) = try MediaInfo(contentsOfFile: path) { outcome = "video \(info.frameCount)" } else { outcome = "image" }
            } catch {
                outcome = (error as? OcularError) == .unreadableMedia(path: text, reason: MediaInfo.notMediaReason) ? "not media" : "\(error)"
            }
            outcomes.withLock { $0.append(outcome) }
        }
        #expect(outcomes.withLock { $0.sorted() } == Array(repeating: "not media", count: 4) + Array(repeating: "video 30", count: 4))
    }

    @Test("info reports images in formats OpenCV reads beyond PNG and JPEG (PFM, Sun raster, PPM) as images")
    func otherImageFormats() throws {
        let folder = try TemporaryFolder()
        let image = try Image(width: 24, height: 16, format: .bgr8, filledWith: [10, 20, 200])
        for (name, container) in [("x.pfm", "PFM"), ("x.ras", "Sun raster"), ("x.ppm", "PNM"), ("x.bmp", "BMP")] {
            let path = folder.file(name)
            try image.write(toFile: path)
            guard case .image(let info) = try MediaInfo(contentsOfFile: path) else {
                Issue.record("\(name) was not reported as an image"); continue
            }
            #expect(info.container == container && info.width == 24 && info.height == 16, "\(name): \(info)")
        }
    }

    @Test("a new video sweeps the folder's partial files of dead processes and keeps those of live ones")
    func staleParts() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("clip.mp4")
        // A pid that has exited: a child that ran `true`.
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let dead = folder.file(".clip.mp4.\(finished.processIdentifier)-\(UUID().uuidString).partial.mp4")
        let earlierVersion = folder.file(".clip.mp4.\(UUID().uuidString).partial.mp4")
        let live = folder.file(".clip.mp4.\(getpid())-\(UUID().uuidString).partial.mp4")
        let otherDead = folder.file(".other.avi.\(finished.processIdentifier)-\(UUID().uuidString).partial.avi")
        let otherLive = folder.file(".other.mp4.1-\(UUID().uuidString).partial.mp4")  // pid 1 always runs
        let lookalike = folder.file(".notes.partial.txt")
        for path in [dead, earlierVersion, live, otherDead, otherLive, lookalike] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])), "\(path) was made")
        }
        let writer = try VideoWriter(path: output, width: 16, height: 16, framesPerSecond: 5)
        try writer.write(try Image(width: 16, height: 16, format: .bgr8, filledWith: [0, 0, 255]))
        try writer.finish()
        let names = Set(folder.contents)
        #expect(names == Set(["clip.mp4", live, otherLive, lookalike].map { ($0 as NSString).lastPathComponent }), "\(names)")
    }
}

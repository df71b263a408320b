import Foundation
import OpenCVBridge
import OcularTestSupport
import OpenCVReference
import Testing
@testable import Ocular

/// A deterministic fuzz test of decoding: thousands of damaged variants of the shared images, each of
/// which must decode to exactly what OpenCV's own `cv::imdecode` returns for the same bytes, or fail
/// with a typed error. Never a crash, and never an image where OpenCV returns none (that image would be
/// uninitialised memory: another user's pixels, in the studio).
///
/// `make fuzz` runs a coverage-guided fuzzer over the bridge's side of the same promise.
@Suite("Decoding damaged images", .timeLimit(.minutes(3)))
struct DecodeFuzzTests {
    /// Small enough that thousands of decodes take seconds; forged sizes above it are refused early.
    static let options = ImageReadOptions(pixelLimit: 4_000_000)

    @Test("mutations of the shared images decode as cv::imdecode does, or fail with a typed error")
    func mutations() throws {
        var generator = SeededGenerator(seed: 20261123)
        var checked = 0, decoded = 0, refused = 0
        var failures: [String] = []
        for (name, seed) in try Self.seeds() {
            for round in 0..<Self.mutationsPerSeed {
                let (mutation, bytes) = Self.mutate(seed, round: round, using: &generator)
                let outcome = Self.check(bytes)
                checked += 1
                switch outcome {
                case .decoded: decoded += 1
                case .refused: refused += 1
                case .mismatch(let what):
                    failures.append("\(name), \(mutation): \(what)")
                }
                if failures.count >= 5 { break }
            }
        }
        for (magic, _) in Self.magicNumbers {
            for _ in 0..<40 {
                var bytes = magic
                bytes += (0..<Int.random(in: 0...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                checked += 1
                switch Self.check(bytes) {
                case .decoded: decoded += 1
                case .refused: refused += 1
                case .mismatch(let what): failures.append("random bytes behind \(magic.prefix(8)): \(what)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // The corpus must exercise both outcomes, or it tests nothing.
        #expect(checked >= (Evaluation.isFull ? 4000 : 1000))
        #expect(Double(decoded) >= 0.075 * Double(checked), "only \(decoded) of \(checked) mutations decoded")
        #expect(Double(refused) >= 0.125 * Double(checked), "only \(refused) of \(checked) mutations were refused")
        Evaluation.table("Decoding damaged images against cv::imdecode", columns: ["inputs", "decoded as cv::imdecode does", "refused with typed errors"],
                         rows: [["\(checked)", "\(decoded)", "\(refused)"]])
    }

    #if os(Linux)  // the path is built on Linux only (JPEG.cpp)
    @Test("libjpeg-turbo's BGR path (camera frames) gives cv::imdecode's pixels byte for byte, on a frame and on 600 damaged JPEGs (2,200 in make eval), and declines what OpenCV must judge: EXIF, gray, cut short")
    func jpegStraightToBGR() throws {
        /// The fast path's pixels, or nil where it declines.
        func fast(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8]? {
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            let taken = pixels.withUnsafeMutableBytes { target in
                var into = OCVImage(data: target.baseAddress, columns: Int32(width), rows: Int32(height), bytesPerRow: Int64(width * 3), type: OCV_8UC3)
                return bytes.withUnsafeBytes { ocv_decode_jpeg_as_bgr($0.baseAddress!, $0.count, &into) }
            }
            return taken ? pixels : nil
        }
        /// cv::imdecode's colour pixels, packed, or nil where it returns none.
        func opencv(_ bytes: [UInt8]) -> (pixels: [UInt8], width: Int, height: Int)? {
            var reference = ReferenceImage()
            guard reference_decode(bytes, bytes.count, Int32(OCV_READ_COLOR.rawValue), &reference) == 0 else { return nil }
            defer { reference_image_free(&reference) }
            let count = Int(reference.columns) * Int(reference.rows) * Int(reference.channels)
            return (Array(UnsafeBufferPointer(start: reference.bytes, count: count)), Int(reference.columns), Int(reference.rows))
        }
        // A camera frame as the studio gets it: the group scene of the face sweep, 1280 × 720, at the page's quality.
        let sweep = try SweepSources.sweep.get()
        let index = try #require(sweep.names.firstIndex { $0.name.hasPrefix("group-1280x720") })
        let frame = try sweep.frame(index).image.encoded(as: .jpeg(quality: 85))
        let expected = try #require(opencv(frame))
        #expect(fast(frame, width: 1280, height: 720) == expected.pixels, "a 1280 × 720 frame")
        #expect(try Image(decoding: frame).bytes == expected.pixels)
        // Declined: another size than the storage's, a gray JPEG, data cut short, a photo with EXIF.
        #expect(fast(frame, width: 1280, height: 718) == nil)
        let gray = try sweep.frame(index).image.converted(to: .gray8).encoded(as: .jpeg(quality: 85))
        #expect(fast(gray, width: 1280, height: 720) == nil)
        #expect(fast(Array(frame.prefix(frame.count / 2)), width: 1280, height: 720) == nil)
        let exif: [UInt8] = [0xFF, 0xE1, 0x00, 0x10] + Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0, count: 8)
        #expect(fast(Array(frame.prefix(2)) + exif + Array(frame.dropFirst(2)), width: 1280, height: 720) == nil)
        // Damaged colour JPEGs: wherever the fast path takes one, its pixels are cv::imdecode's.
        var generator = SeededGenerator(seed: 20261127)
        var taken = 0, declined = 0
        var failures: [String] = []
        for (name, seed) in try Self.seeds() where name.hasSuffix("as colour JPEG") {
            for round in 0..<(Self.mutationsPerSeed * 4) {
                let (mutation, bytes) = Self.mutate(seed, round: round, using: &generator)
                guard let reference = opencv(bytes) else {
                    if fast(bytes, width: 48, height: 36) != nil { failures.append("\(name), \(mutation): decoded where OpenCV decodes nothing") }
                    declined += 1
                    continue
                }
                guard let pixels = fast(bytes, width: reference.width, height: reference.height) else { declined += 1; continue }
                taken += 1
                if pixels != reference.pixels { failures.append("\(name), \(mutation): pixels differ from cv::imdecode's") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        // Both outcomes, or the corpus tests nothing: most damage makes libjpeg warn, and the path declines.
        #expect(taken >= 40 && declined >= 100, "taken \(taken), declined \(declined)")
    }

    @Test("a JPEG scaled inside the DCT (1/2, 1/4, 1/8) gives cv::imdecode's IMREAD_REDUCED pixels byte for byte, on frames whose sides are not whole blocks and on 600 damaged JPEGs; Image picks the smallest scale that keeps the pixels asked for")
    func jpegScaledInTheDCT() throws {
        /// The scaled path's pixels at 1/`denominator`, or nil where it declines.
        func scaled(_ bytes: [UInt8], denominator: Int, width: Int, height: Int) -> [UInt8]? {
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            let taken = pixels.withUnsafeMutableBytes { target in
                var into = OCVImage(data: target.baseAddress, columns: Int32(width), rows: Int32(height), bytesPerRow: Int64(width * 3), type: OCV_8UC3)
                return bytes.withUnsafeBytes { ocv_decode_jpeg_as_bgr_scaled($0.baseAddress!, $0.count, Int32(denominator), &into) }
            }
            return taken ? pixels : nil
        }
        /// cv::imdecode's pixels at IMREAD_REDUCED_COLOR_`denominator` (OpenCV asks libjpeg for the same scale), or nil.
        func opencv(_ bytes: [UInt8], denominator: Int) -> (pixels: [UInt8], width: Int, height: Int)? {
            let mode: Int32 = [2: 17, 4: 33, 8: 65][denominator]!  // cv::IMREAD_REDUCED_COLOR_2, _4, _8
            var reference = ReferenceImage()
            guard reference_decode(bytes, bytes.count, mode, &reference) == 0 else { return nil }
            defer { reference_image_free(&reference) }
            let count = Int(reference.columns) * Int(reference.rows) * Int(reference.channels)
            return (Array(UnsafeBufferPointer(start: reference.bytes, count: count)), Int(reference.columns), Int(reference.rows))
        }
        let sweep = try SweepSources.sweep.get()
        let index = try #require(sweep.names.firstIndex { $0.name.hasPrefix("group-1280x720") })
        let scene = try sweep.frame(index).image
        // 1280 × 720, and 1277 × 719: sides that are not whole blocks, rounded up at every scale.
        for image in [scene, try scene.cropped(to: PixelRectangle(x: 0, y: 0, width: 1277, height: 719))] {
            let jpeg = try image.encoded(as: .jpeg(quality: 85))
            for denominator in [2, 4, 8] {
                let width = (image.width + denominator - 1) / denominator, height = (image.height + denominator - 1) / denominator
                let expected = try #require(opencv(jpeg, denominator: denominator))
                #expect(expected.width == width && expected.height == height)
                #expect(scaled(jpeg, denominator: denominator, width: width, height: height) == expected.pixels,
                        "\(image.width) × \(image.height) at 1/\(denominator)")
                // Declined: storage of another size, a scale libjpeg's DCT does not halve to.
                #expect(scaled(jpeg, denominator: denominator, width: width - 1, height: height) == nil)
            }
            #expect(scaled(jpeg, denominator: 3, width: (image.width + 2) / 3, height: (image.height + 2) / 3) == nil)
        }
        // Image(decoding:) with the pixels wanted: the smallest scale that keeps at least them.
        let frame = try scene.encoded(as: .jpeg(quality: 85))
        for (least, size) in [(921_600, (1280, 720)), (921_599, (1280, 720)), (230_400, (640, 360)), (230_401, (1280, 720)),
                              (57_600, (320, 180)), (57_599, (320, 180)), (14_400, (160, 90)), (1, (160, 90))] {
            let decoded = try Image(decoding: frame, options: ImageReadOptions(jpegScaledToAtLeastPixels: least))
            #expect(decoded.width == size.0 && decoded.height == size.1, "at least \(least) pixels")
        }
        // What the scaled path declines is decoded whole: a gray JPEG, a PNG.
        let gray = try scene.converted(to: .gray8).encoded(as: .jpeg(quality: 85))
        #expect(try Image(decoding: gray, options: ImageReadOptions(jpegScaledToAtLeastPixels: 1)).width == 1280)
        #expect(try Image(decoding: try Self.smallImage().encoded(as: .png()), options: ImageReadOptions(jpegScaledToAtLeastPixels: 1)).width == 48)
        // Damaged colour JPEGs: wherever the scaled path takes one, its pixels are cv::imdecode's at that scale.
        var generator = SeededGenerator(seed: 20261129)
        var taken = 0, declined = 0
        var failures: [String] = []
        for (name, seed) in try Self.seeds() where name.hasSuffix("as colour JPEG") {
            for round in 0..<(Self.mutationsPerSeed * 4) {
                let (mutation, bytes) = Self.mutate(seed, round: round, using: &generator)
                let denominator = [2, 4, 8][round % 3]
                guard let reference = opencv(bytes, denominator: denominator) else {
                    if scaled(bytes, denominator: denominator, width: (48 + denominator - 1) / denominator, height: (36 + denominator - 1) / denominator) != nil {
                        failures.append("\(name), \(mutation): decoded where OpenCV decodes nothing")
                    }
                    declined += 1
                    continue
                }
                guard let pixels = scaled(bytes, denominator: denominator, width: reference.width, height: reference.height) else { declined += 1; continue }
                taken += 1
                if pixels != reference.pixels { failures.append("\(name), \(mutation): pixels at 1/\(denominator) differ from cv::imdecode's") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        #expect(taken >= 40 && declined >= 100, "taken \(taken), declined \(declined)")
    }

    #endif

    @Test("a PNG whose IHDR CRC is wrong is refused: its pixels were never written")
    func badHeaderChecksum() throws {
        var png = try Self.smallImage().encoded(as: .png())
        png[29] ^= 0xFF  // the last byte of IHDR's CRC
        #expect(throws: OcularError.corruptImage(path: "bad.png", format: "PNG",
                                                 reason: "cannot be decoded: it is damaged, or a variant OpenCV cannot read")) {
            try Image(decoding: png, name: "bad.png")
        }
    }

    // MARK: - Checking one input

    enum Outcome: Equatable {
        case decoded, refused
        case mismatch(String)
    }

    static func check(_ bytes: [UInt8]) -> Outcome {
        let image: Image
        do {
            image = try Image(decoding: bytes, name: "mutation", options: options)
        } catch {
            return .refused  // typed: `error` is an OcularError
        }
        let mode = bytes.withUnsafeBytes { Image.readMode(for: ImageHeader($0)) }
        var reference = ReferenceImage()
        guard reference_decode(bytes, bytes.count, Int32(mode.rawValue), &reference) == 0 else {
            return .mismatch("Ocular returned \(image) where cv::imdecode returns none")
        }
        defer { reference_image_free(&reference) }
        return compare(image, with: reference)
    }

    /// Whether Ocular's image is cv::imdecode's: the same size, channels and bytes.
    static func compare(_ image: Image, with reference: ReferenceImage) -> Outcome {
        guard Int(reference.columns) == image.width, Int(reference.rows) == image.height,
              Int(reference.channels) == image.format.channels else {
            return .mismatch("Ocular returned \(image), cv::imdecode \(reference.columns)×\(reference.rows)×\(reference.channels)")
        }
        let expected = UnsafeBufferPointer(start: reference.bytes, count: image.bytes.count)
        guard image.bytesPerRow == image.width * image.format.channels, image.bytes.elementsEqual(expected) else {
            return .mismatch("the pixels of \(image) differ from cv::imdecode's")
        }
        return .decoded
    }

    // MARK: - The corpus

    /// 110 a seed under `make eval`, 30 in a sample run.
    static let mutationsPerSeed = Evaluation.rounds(full: 110, sample: 30)

    /// Small crops of the shared images, encoded as colour, gray and alpha PNG and colour and gray
    /// JPEG; a crop in every other container OpenCV writes (BMP, TIFF, WebP, PPM, Sun raster, PFM);
    /// the smallest shared files as they are; and the layout fixtures (``LayoutFixtures``).
    static func seeds() throws -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        for file in ["images/coffee.png", "images/rocket.jpg", "images/camera.png", "images/coins.png", "faces/chelsea.png"] {
            let image = try Image(contentsOfFile: TestData.path(file))
            let crop = try crop(image, width: 48, height: 36)
            seeds.append(("\(file) as colour PNG", try crop.encoded(as: .png())))
            seeds.append(("\(file) as gray PNG", try crop.converted(to: .gray8).encoded(as: .png())))
            seeds.append(("\(file) as alpha PNG", try crop.converted(to: .bgra8).encoded(as: .png())))
            seeds.append(("\(file) as colour JPEG", try crop.encoded(as: .jpeg(quality: 85))))
            seeds.append(("\(file) as gray JPEG", try crop.converted(to: .gray8).encoded(as: .jpeg(quality: 85))))
        }
        // The other containers OpenCV writes, through files (the library encodes only PNG and JPEG in memory).
        let folder = try TemporaryFolder()
        let crop = try crop(try Image(contentsOfFile: TestData.path("images/coffee.png")), width: 40, height: 30)
        for fileExtension in ["bmp", "tiff", "webp", "ppm", "ras", "pfm"] {
            let path = folder.file("seed.\(fileExtension)")
            try crop.write(toFile: path)
            seeds.append(("coffee.png as \(fileExtension)", Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
            if fileExtension == "bmp" || fileExtension == "tiff" {
                let gray = folder.file("seed-gray.\(fileExtension)")
                try crop.converted(to: .gray8).write(toFile: gray)
                seeds.append(("coffee.png as gray \(fileExtension)", Array(try Data(contentsOf: URL(fileURLWithPath: gray)))))
            }
        }
        for file in ["images/coins.png", "images/rocket.jpg"] {
            seeds.append((file, Array(try Data(contentsOf: URL(fileURLWithPath: TestData.path(file))))))
        }
        // Every bit depth × channel layout of every container (a 16-bit RGBA PNG crashed every entry
        // point while no seed had that layout).
        seeds += try LayoutFixtures.all().map { ("layout \($0.name)", $0.bytes) }
        return seeds
    }

    static func smallImage() throws -> Image {
        try crop(try Image(contentsOfFile: TestData.path("images/coffee.png")), width: 48, height: 36)
    }

    /// The centre `width` × `height` pixels of a packed image.
    static func crop(_ image: Image, width: Int, height: Int) throws -> Image {
        let channels = image.format.channels
        let left = (image.width - width) / 2, top = (image.height - height) / 2
        var bytes: [UInt8] = []
        for row in top..<(top + height) {
            let start = row * image.bytesPerRow + left * channels
            bytes += image.bytes[start..<(start + width * channels)]
        }
        return try Image(width: width, height: height, format: image.format, bytes: bytes)
    }

    /// Each container's signature, followed in the test by random bytes.
    static let magicNumbers: [([UInt8], String)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG"),
        ([0xFF, 0xD8, 0xFF, 0xE0], "JPEG"),
        (Array("BM".utf8), "BMP"),
        ([0x49, 0x49, 0x2A, 0x00], "TIFF (little-endian)"),
        ([0x4D, 0x4D, 0x00, 0x2A], "TIFF (big-endian)"),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "WebP"),
        (Array("GIF89a".utf8), "GIF"),
        (Array("P6\n".utf8), "PPM"),
        (Array("P5\n64 64\n255\n".utf8), "PGM with a header"),
        (Array("P7\nWIDTH 8\nHEIGHT 8\n".utf8), "PAM"),
        (Array("PF\n".utf8), "PFM"),
        ([0x59, 0xA6, 0x6A, 0x95], "Sun raster"),
        ([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20], "JPEG 2000"),
        ([0x76, 0x2F, 0x31, 0x01], "OpenEXR"),
        (Array("#?RADIANCE\n".utf8), "Radiance HDR"),
    ]

    /// One damaged copy of `seed`, and what was done to it.
    static func mutate(_ seed: [UInt8], round: Int, using generator: inout SeededGenerator) -> (String, [UInt8]) {
        var bytes = seed
        switch round % 6 {
        case 0:
            let flips = Int.random(in: 1...8, using: &generator)
            for _ in 0..<flips {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            }
            return ("\(flips) bit flips", bytes)
        case 1:
            let length = Int.random(in: 0..<bytes.count, using: &generator)
            return ("truncated to \(length) bytes", Array(bytes.prefix(length)))
        case 2:
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            let end = min(bytes.count, start + Int.random(in: 1...64, using: &generator))
            for index in start..<end { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            return ("bytes \(start)..<\(end) overwritten", bytes)
        case 3, 4:
            let sizes: [UInt32] = [0, 1, 2, 0xFFFF, 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32.random(in: 0...5000, using: &generator)]
            let width = sizes.randomElement(using: &generator)!, height = sizes.randomElement(using: &generator)!
            let fixChecksum = round % 6 == 3
            return ("header size patched to \(width)×\(height)\(fixChecksum ? ", CRC fixed" : "")",
                    patchSize(bytes, width: width, height: height, fixChecksum: fixChecksum))
        default:
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            let length = Int.random(in: 1...256, using: &generator)
            let copied = Array(bytes[start..<min(bytes.count, start + length)])
            let at = Int.random(in: 0...bytes.count, using: &generator)
            bytes.insert(contentsOf: copied, at: at)
            return ("\(copied.count) bytes from \(start) repeated at \(at)", bytes)
        }
    }

    /// Writes a size into the PNG IHDR (optionally with a correct CRC, so that libpng reads on) or the
    /// JPEG frame header (16 bits).
    static func patchSize(_ seed: [UInt8], width: UInt32, height: UInt32, fixChecksum: Bool) -> [UInt8] {
        var bytes = seed
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), bytes.count >= 33 {
            for (offset, value) in [(16, width), (20, height)] {
                for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
            }
            if fixChecksum {
                let crc = crc32(bytes[12..<29])
                for index in 0..<4 { bytes[29 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(index))) }
            }
        } else if let frame = (2..<max(2, bytes.count - 9)).first(where: { bytes[$0] == 0xFF && [0xC0, 0xC1, 0xC2].contains(bytes[$0 + 1]) }) {
            bytes[frame + 5] = UInt8(truncatingIfNeeded: height >> 8)
            bytes[frame + 6] = UInt8(truncatingIfNeeded: height)
            bytes[frame + 7] = UInt8(truncatingIfNeeded: width >> 8)
            bytes[frame + 8] = UInt8(truncatingIfNeeded: width)
        }
        return bytes
    }
}

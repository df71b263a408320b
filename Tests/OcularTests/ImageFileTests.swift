import Foundation
import OpenCVReference
import Testing
@testable import Ocular
import OcularTestSupport

@Suite("Reading and writing image files")
struct ImageFileTests {
    let coffee = TestData.path("images/coffee.png")

    @Test("coffee.png reads as 600×400 BGR with its warm colours in the right channels")
    func readsPNG() throws {
        let image = try Image(contentsOfFile: coffee)
        #expect(image.width == 600 && image.height == 400 && image.format == .bgr8)
        let means = image.channelMeans()  // B, G, R
        #expect(means[2] > means[0] + 20, "red saucer and wood: red mean \(means[2]) should clearly exceed blue \(means[0])")
    }

    @Test("gray PNG reads as gray8")
    func readsGray() throws {
        let image = try Image(contentsOfFile: TestData.path("images/camera.png"))
        #expect(image.format == .gray8 && image.width == 512 && image.height == 512)
    }

    @Test("PNG round trip is lossless, red stays red, alpha survives", arguments: [PixelFormat.rgb8, .bgr8, .rgba8, .bgra8, .gray8])
    func pngRoundTrip(format: PixelFormat) throws {
        let folder = try TemporaryFolder()
        var bytes = noiseBytes(count: 9 * 7 * format.channels, seed: 21)
        // First pixel pure red, half transparent where there is alpha.
        if let order = format.rgbOffsets {
            bytes[order.red] = 255; bytes[order.green] = 0; bytes[order.blue] = 0
            if format.hasAlpha { bytes[3] = 128 }
        }
        let image = try Image(width: 9, height: 7, format: format, bytes: bytes)
        try image.write(toFile: folder.file("round.png"))
        let read = try Image(contentsOfFile: folder.file("round.png"))
        #expect(try read == image.converted(to: read.format))
        #expect(read.format == (format == .gray8 ? .gray8 : format.hasAlpha ? .bgra8 : .bgr8))
        if format != .gray8 {
            #expect(Array(read.pixel(x: 0, y: 0).prefix(3)) == [0, 0, 255])
            if format.hasAlpha { #expect(read.pixel(x: 0, y: 0)[3] == 128) }
        }
    }

    @Test("JPEG round trip keeps size and colour within compression error")
    func jpegRoundTrip() throws {
        let folder = try TemporaryFolder()
        let image = try Image(width: 32, height: 16, format: .rgb8, filledWith: [255, 0, 0])
        try image.write(toFile: folder.file("red.jpg"), quality: 90)
        let read = try Image(contentsOfFile: folder.file("red.jpg"))
        #expect(read.width == 32 && read.height == 16 && read.format == .bgr8)
        let pixel = read.pixel(x: 10, y: 10)
        #expect(pixel[2] >= 250 && pixel[0] <= 5 && pixel[1] <= 5, "JPEG red came back as BGR \(pixel)")
    }

    @Test("EXIF orientation is honoured")
    func exifOrientation() throws {
        // 40×20 image, white on its left half: orientation 6 means "rotate 90° clockwise to view".
        var bytes = [UInt8](repeating: 0, count: 40 * 20)
        for y in 0..<20 { for x in 0..<20 { bytes[y * 40 + x] = 255 } }
        let jpeg = try Image(width: 40, height: 20, format: .gray8, bytes: bytes).encoded(as: .jpeg(quality: 95))
        let rotated = try Image(decoding: insertingEXIFOrientation(6, into: jpeg), name: "rotated.jpg")
        #expect(rotated.width == 20 && rotated.height == 40)
        #expect(rotated.pixel(x: 10, y: 5)[0] > 200, "the white left half should now be on top")
        #expect(rotated.pixel(x: 10, y: 35)[0] < 50)
        let upright = try Image(decoding: insertingEXIFOrientation(1, into: jpeg), name: "upright.jpg")
        #expect(upright.width == 40 && upright.height == 20)
    }

    @Test("a missing file says so")
    func missingFile() {
        #expect(throws: OcularError.fileNotFound(path: "/nonexistent/photo.png")) {
            try Image(contentsOfFile: "/nonexistent/photo.png")
        }
    }

    @Test("a 0-byte file says it is empty")
    func emptyFile() throws {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.file("empty.png"), contents: Data())
        #expect(throws: OcularError.emptyFile(path: folder.file("empty.png"))) {
            try Image(contentsOfFile: folder.file("empty.png"))
        }
    }

    @Test("a text file is not an image")
    func notAnImage() throws {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.file("notes.png"), contents: Data("shopping list: beans".utf8))
        #expect(throws: OcularError.notAnImage(path: folder.file("notes.png"))) {
            try Image(contentsOfFile: folder.file("notes.png"))
        }
    }

    @Test("a truncated PNG is reported as truncated, not decoded")
    func truncatedPNG() throws {
        let folder = try TemporaryFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: coffee))
        _ = FileManager.default.createFile(atPath: folder.file("half.png"), contents: data.prefix(data.count / 2))
        #expect(throws: OcularError.corruptImage(path: folder.file("half.png"), format: "PNG",
                                                 reason: "is truncated: the file ends before the image end marker (IEND)")) {
            try Image(contentsOfFile: folder.file("half.png"))
        }
    }

    @Test("a truncated JPEG is reported as truncated")
    func truncatedJPEG() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestData.path("images/rocket.jpg")))
        #expect(throws: OcularError.corruptImage(path: "rocket-part.jpg", format: "JPEG",
                                                 reason: "is truncated: the file ends before the end-of-image marker")) {
            try Image(decoding: data.prefix(data.count - 100), name: "rocket-part.jpg")
        }
        #expect(try Image(decoding: data, name: "rocket.jpg").width == 640)
    }

    @Test("an image over the pixel limit is refused before decoding")
    func pixelLimit() throws {
        #expect(throws: OcularError.tooManyPixels(path: coffee, width: 600, height: 400, limit: 200_000)) {
            try Image(contentsOfFile: coffee, options: ImageReadOptions(pixelLimit: 200_000))
        }
        // A header claiming 30000×30000 (900 MP) is refused under the default limit without allocating.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        png += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        #expect(throws: OcularError.tooManyPixels(path: "huge.png", width: 30000, height: 30000, limit: 100_000_000)) {
            try Image(decoding: png, name: "huge.png")
        }
    }

    @Test("a colour JPEG is written as cv::imencode writes it, byte for byte: a photo, sizes that are not whole blocks, an RGB source, qualities 0 to 100")
    func jpegBytesAreOpenCVs() throws {
        let photo = try Image(contentsOfFile: coffee)
        let images = [photo,
                      try Image(width: 37, height: 5, format: .bgr8, bytes: noiseBytes(count: 37 * 5 * 3, seed: 5)),
                      try Image(width: 1, height: 1, format: .bgr8, bytes: [10, 200, 30]),
                      try photo.converted(to: .rgb8)]
        for image in images {
            let source = try image.converted(to: .bgr8)  // what OpenCV is handed: BGR
            for quality in [0, 1, 50, 85, 95, 100] {
                var bytes: UnsafeMutablePointer<UInt8>?
                var count = 0
                let status = source.bytes.withUnsafeBufferPointer {
                    reference_encode_jpeg($0.baseAddress!, Int32(source.width), Int32(source.height), Int64(source.bytesPerRow), Int32(quality), &bytes, &count)
                }
                try #require(status == 0 && bytes != nil)
                defer { free(bytes) }
                let written = try image.encoded(as: .jpeg(quality: quality))
                // Compared as a Bool: a failed #expect over two 100 kB arrays spends minutes on the diff.
                let same = written.elementsEqual(UnsafeBufferPointer(start: bytes, count: count))
                #expect(same, "\(image.width) × \(image.height) \(image.format) at quality \(quality): \(written.count) bytes, OpenCV's \(count)")
            }
        }
    }

    @Test("errors name the file and the reason")
    func messages() {
        #expect(OcularError.emptyFile(path: "a.png").description == "cannot read 'a.png': the file is empty (0 bytes)")
        #expect(OcularError.tooManyPixels(path: "b.png", width: 30000, height: 30000, limit: 100_000_000).description
            == "cannot read 'b.png': 30000×30000 is 900 megapixels, over the limit of 100 megapixels")
        // Sizes that round to the same megapixels show the difference in pixels.
        #expect(OcularError.tooManyPixels(path: "c.png", width: 7681, height: 4320, limit: 7680 * 4320).description
            == "cannot read 'c.png': 7681×4320 is 33181920 pixels, 4320 over the limit of 33177600 (33.2 megapixels)")
    }

    @Test("writing to an unknown extension or a missing folder fails and leaves nothing behind")
    func writeErrors() throws {
        let folder = try TemporaryFolder()
        let image = try Image(width: 2, height: 2, format: .gray8, bytes: [0, 1, 2, 3])
        #expect(throws: OcularError.unsupportedFileType(path: folder.file("x.xyz"))) { try image.write(toFile: folder.file("x.xyz")) }
        #expect(throws: OcularError.writeFailed(path: folder.file("no/x.png"), reason: "the folder '\(folder.file("no"))' does not exist")) {
            try image.write(toFile: folder.file("no/x.png"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("writing over an existing file replaces it whole")
    func overwrite() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("photo.png")
        try Image(width: 2, height: 2, format: .gray8, bytes: [0, 0, 0, 0]).write(toFile: path)
        let second = try Image(width: 3, height: 1, format: .gray8, bytes: [9, 8, 7])
        try second.write(toFile: path)
        #expect(try Image(contentsOfFile: path) == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["photo.png"])
    }
}

/// Inserts an APP1 EXIF segment holding only an orientation tag after the JPEG's SOI marker.
private func insertingEXIFOrientation(_ orientation: UInt8, into jpeg: [UInt8]) -> [UInt8] {
    let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,  // little-endian header, IFD at 8
                         0x01, 0x00,  // one entry
                         0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, orientation, 0x00, 0x00, 0x00,  // 0x0112 SHORT 1
                         0x00, 0x00, 0x00, 0x00]  // no next IFD
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
}

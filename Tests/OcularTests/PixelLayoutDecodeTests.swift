import Foundation
import OpenCVBridge
import OcularTestSupport
import OpenCVReference
import Testing
@testable import Ocular

/// Every bit depth × channel layout each container allows, through every read mode the library
/// uses. A 16-bit RGBA PNG once crashed every entry point (its 8-bit conversion landed in the buffer
/// lent to the decoder, through an allocator that was gone when the matrix was released); the
/// mutation fuzz test missed it because no seed had that layout.
@Suite("Decoding every pixel layout")
struct PixelLayoutDecodeTests {
    static let modes: [(OCVReadMode, String)] = [
        (OCV_READ_UNCHANGED, "unchanged"), (OCV_READ_GRAYSCALE, "grayscale"), (OCV_READ_COLOR, "colour"), (OCV_READ_ANYCOLOR, "any colour"),
    ]

    @Test("every layout decodes in every read mode exactly as cv::imdecode does, or is refused by name")
    func everyLayoutEveryMode() throws {
        let fixtures = try LayoutFixtures.all()
        #expect(fixtures.count >= 50, "the layout fixtures are missing: \(LayoutFixtures.folder)")
        var decoded = 0
        var failures: [String] = [], refused: [String] = []
        for (name, bytes) in fixtures {
            for (mode, modeName) in Self.modes {
                switch Self.check(bytes, mode: mode) {
                case .decoded: decoded += 1
                case .refused: refused.append("\(name) (\(modeName))")
                case .mismatch(let what): failures.append("\(name), \(modeName): \(what)")
                }
            }
            // And as the library picks the mode itself.
            if case .mismatch(let what) = DecodeFuzzTests.check(bytes) { failures.append("\(name), the header's mode: \(what)") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        print("pixel layouts: \(fixtures.count) files × 4 read modes, \(decoded) decoded as cv::imdecode does; refused as it refuses: \(refused.joined(separator: ", "))")
        // OpenCV 4.6 reads every one of these layouts in every mode, but 32-bit float TIFFs only
        // unchanged; the library refuses PAM with alpha.
        #expect(decoded >= fixtures.count * 4 - 17, "only \(decoded) of \(fixtures.count * 4) decodes succeeded")
    }

    @Test("16-bit RGBA and gray + alpha PNGs become 8-bit BGRA with their samples divided by 257",
          arguments: ["png-rgba-16.png", "png-gray-alpha-16.png", "png-rgba-8.png"])
    func sixteenBitAlpha(name: String) throws {
        let image = try Image(contentsOfFile: LayoutFixtures.path(name))
        try #require(image.format == .bgra8 && image.width == 7 && image.height == 5, "\(name): \(image)")
        let gray = name.contains("gray")
        for (x, y) in [(0, 0), (3, 2), (6, 4)] {
            let offset = y * image.bytesPerRow + x * 4
            let expected: [UInt8] = gray
                ? Array(repeating: LayoutFixtures.sample(x: x, y: y, channel: 0), count: 3)
                : [2, 1, 0].map { LayoutFixtures.sample(x: x, y: y, channel: $0) }
            #expect(Array(image.bytes[offset..<(offset + 3)]) == expected, "\(name) at (\(x), \(y))")
        }
        // Alpha runs 0 … full over the pixels in reading order.
        #expect(image.bytes[3] == 0)
        #expect(image.bytes[4 * image.bytesPerRow + 6 * 4 + 3] == 255)
    }

    @Test("each layout that OpenCV reads decodes through the library and names its size",
          arguments: ["png-gray-1.png", "png-gray-2.png", "png-gray-4.png", "png-palette-4-trns.png", "bmp-palette-1.bmp",
                      "bmp-palette-4.bmp", "bmp-bgra-32-bitfields.bmp", "tiff-rgba-16.tiff", "tiff-gray-16.tiff", "pnm-gray-16.pgm", "pnm-rgb-16.ppm",
                      "webp-rgba-lossless.webp", "jpeg-cmyk.jpg"])
    func readable(name: String) throws {
        let image = try Image(contentsOfFile: LayoutFixtures.path(name))
        #expect(image.width == 7 && image.height == 5, "\(name): \(image)")
    }

    /// One decode with `mode` forced, compared with cv::imdecode's answer for the same bytes and mode.
    static func check(_ bytes: [UInt8], mode: OCVReadMode) -> DecodeFuzzTests.Outcome {
        let result: Result<Image, OcularError> = bytes.withUnsafeBytes { buffer in
            do throws(OcularError) {
                return .success(try Image.decode(buffer, name: "layout", options: DecodeFuzzTests.options, mode: mode))
            } catch {
                return .failure(error)
            }
        }
        var reference = ReferenceImage()
        let referenceDecodes = reference_decode(bytes, bytes.count, Int32(mode.rawValue), &reference) == 0
        defer { if referenceDecodes { reference_image_free(&reference) } }
        guard case .success(let image) = result else {
            return referenceDecodes && ImageHeader(bytes) != nil && !refusedOnPurpose(result)
                ? .mismatch("refused (\(result)) where cv::imdecode decodes it") : .refused
        }
        guard referenceDecodes else { return .mismatch("Ocular returned \(image) where cv::imdecode returns none") }
        return DecodeFuzzTests.compare(image, with: reference)
    }

    /// Refusals the library makes before decoding, on purpose: sizes over the limit, and variants
    /// whose decoder returns garbage (2- and 4-channel PAM).
    static func refusedOnPurpose(_ result: Result<Image, OcularError>) -> Bool {
        switch result {
        case .failure(.tooManyPixels): return true
        case .failure(.corruptImage(_, _, let reason)): return reason.contains("decodes into garbage")
        default: return false
        }
    }

    @Test("a PAM with alpha is refused by name: OpenCV decodes it into uninitialised memory")
    func pamWithAlpha() throws {
        #expect {
            try Image(contentsOfFile: LayoutFixtures.path("pam-rgba-8.pam"))
        } throws: { error in
            "\(error)".contains("has 4 channels (DEPTH 4), which OpenCV") && "\(error)".contains("convert it to PNG")
        }
    }
}

extension ImageHeader {
    init?(_ bytes: [UInt8]) {
        guard let header = bytes.withUnsafeBytes({ ImageHeader($0) }) else { return nil }
        self = header
    }
}

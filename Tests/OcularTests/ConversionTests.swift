import OcularTestSupport
import Testing
@testable import Ocular

/// Pure red in each format's own byte layout (YUV: BT.601 video range, as OpenCV computes it).
private let red: [PixelFormat: [UInt8]] = [
    .rgb8: [255, 0, 0], .bgr8: [0, 0, 255], .rgba8: [255, 0, 0, 255], .bgra8: [0, 0, 255, 255],
    .i420: [82, 90, 240], .nv12: [82, 90, 240], .yuyv: [82, 90, 240],
]
private let colourFormats: [PixelFormat] = [.rgb8, .bgr8, .rgba8, .bgra8, .i420, .nv12, .yuyv]

@Suite("Pixel format conversions")
struct ConversionTests {
    /// Every colour pixel of `image` read as (R, G, B), whatever the format.
    private func rgbPixels(_ image: Image) throws -> [[UInt8]] {
        let rgb = try image.converted(to: .rgb8)
        return (0..<rgb.height).flatMap { y in (0..<rgb.width).map { x in rgb.pixel(x: x, y: y) } }
    }

    @Test("red has the expected bytes in every format", arguments: [PixelFormat.rgb8, .bgr8, .rgba8, .bgra8])
    func redBytesFromRGB(target: PixelFormat) throws {
        let source = try Image(width: 4, height: 2, format: .rgb8, filledWith: red[.rgb8]!)
        let converted = try source.converted(to: target)
        #expect(converted.format == target)
        #expect(converted.pixel(x: 3, y: 1) == red[target]!)
    }

    @Test("RGB red becomes the YUV red of BT.601", arguments: [PixelFormat.i420, .nv12, .yuyv])
    func redToYUV(target: PixelFormat) throws {
        let source = try Image(width: 4, height: 4, format: .rgb8, filledWith: red[.rgb8]!)
        let converted = try source.converted(to: target)
        let expected = try Image(width: 4, height: 4, format: target, filledWith: red[target]!)
        #expect(converted.bytes.count == expected.bytes.count)
        for (got, want) in zip(converted.bytes, expected.bytes) { #expect(abs(Int(got) - Int(want)) <= 1) }
    }

    @Test("every conversion path keeps a pure red pixel red", arguments: colourFormats, colourFormats)
    func redStaysRed(source: PixelFormat, target: PixelFormat) throws {
        let image = try Image(width: 4, height: 4, format: source, filledWith: red[source]!)
        let converted = try image.converted(to: target)
        #expect(converted.format == target)
        for pixel in try rgbPixels(converted) {
            #expect(pixel[0] >= 252 && pixel[1] <= 3 && pixel[2] <= 3, "\(source) → \(target) gave \(pixel)")
        }
    }

    @Test("gray from colour is luma; gray from YUV is the Y plane", arguments: colourFormats)
    func redToGray(source: PixelFormat) throws {
        let image = try Image(width: 4, height: 4, format: source, filledWith: red[source]!)
        let gray = try image.converted(to: .gray8)
        let expected: UInt8 = source.isYUV ? red[source]![0] : 76  // 0.299 × 255
        #expect(gray.bytes.allSatisfy { $0 == expected }, "\(source) → gray gave \(Set(gray.bytes))")
    }

    @Test("gray from I420, NV12 and YUYV equals the Y samples exactly", arguments: [PixelFormat.i420, .nv12, .yuyv])
    func grayIsTheYPlane(format: PixelFormat) throws {
        let width = 16, height = 8
        let bytes = noiseBytes(count: format.rowCount(height: height) * format.minimumBytesPerRow(width: width), seed: 7)
        let image = try Image(width: width, height: height, format: format, bytes: bytes)
        let gray = try image.converted(to: .gray8)
        let luma: [UInt8] = format == .yuyv ? stride(from: 0, to: width * height * 2, by: 2).map { bytes[$0] } : Array(bytes[0..<(width * height)])
        #expect(gray.bytes == luma)
    }

    @Test("channel reordering round trips are lossless", arguments: [PixelFormat.rgb8, .bgr8, .rgba8, .bgra8], [PixelFormat.rgb8, .bgr8, .rgba8, .bgra8])
    func reorderingRoundTrip(source: PixelFormat, via: PixelFormat) throws {
        var bytes = noiseBytes(count: 6 * 5 * source.channels, seed: 11)
        if source.hasAlpha { for index in stride(from: 3, to: bytes.count, by: 4) { bytes[index] = 255 } }
        let image = try Image(width: 6, height: 5, format: source, bytes: bytes)
        #expect(try image.converted(to: via).converted(to: source) == image)
    }

    @Test("gray → colour → gray and gray → YUV → gray are lossless", arguments: [PixelFormat.rgb8, .bgra8, .i420, .nv12, .yuyv])
    func grayRoundTrip(via: PixelFormat) throws {
        let image = try Image(width: 8, height: 6, format: .gray8, bytes: noiseBytes(count: 48, seed: 3))
        #expect(try image.converted(to: via).converted(to: .gray8) == image)
    }

    @Test("I420 ↔ NV12 is lossless")
    func planarRepackingRoundTrip() throws {
        let image = try Image(width: 8, height: 6, format: .i420, bytes: noiseBytes(count: 72, seed: 5))
        let nv12 = try image.converted(to: .nv12)
        #expect(nv12 != image)
        #expect(try nv12.converted(to: .i420) == image)
        // NV12 interleaves U and V: the first chroma pair is U[0], V[0].
        #expect(nv12.bytes[48] == image.bytes[48] && nv12.bytes[49] == image.bytes[60])
    }

    @Test("a padded row stride is honoured")
    func paddedStride() throws {
        // 2×2 BGR with 2 padding bytes per row: blue, green / red, white.
        let bytes: [UInt8] = [255, 0, 0, 0, 255, 0, 9, 9,
                              0, 0, 255, 255, 255, 255, 9, 9]
        let image = try Image(width: 2, height: 2, format: .bgr8, bytesPerRow: 8, bytes: bytes)
        let rgb = try image.converted(to: .rgb8)
        #expect(rgb.bytesPerRow == 6)
        #expect(rgb.pixel(x: 0, y: 0) == [0, 0, 255])
        #expect(rgb.pixel(x: 0, y: 1) == [255, 0, 0])
        #expect(rgb.pixel(x: 1, y: 1) == [255, 255, 255])
    }

    @Test("invalid geometry is refused with a reason")
    func invalidGeometry() {
        #expect(throws: OcularError.invalidImage(reason: "i420 needs an even width, got 3")) {
            try Image(width: 3, height: 2, format: .i420, bytes: [UInt8](repeating: 0, count: 9))
        }
        #expect(throws: OcularError.self) { try Image(width: 0, height: 2, format: .gray8, bytes: []) }
        #expect(throws: OcularError.self) { try Image(width: 4, height: 4, format: .rgb8, bytes: [1, 2, 3]) }
        #expect(throws: OcularError.invalidImage(reason: "i420 needs an even width and height, got 3×3")) {
            try Image(width: 3, height: 3, format: .rgb8, filledWith: [1, 2, 3]).converted(to: .i420)
        }
    }
}

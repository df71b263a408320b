import Foundation
import OpenCVBridge
import Testing
@testable import Ocular
import OcularTestSupport

@Suite("White balance keeps the brightness")
struct WhiteBalanceTests {
    /// BT.601 mean luma, as OpenCV's gray conversion computes it.
    func meanLuma(_ image: Image) throws -> Double { try image.converted(to: .gray8).channelMeans()[0] }

    /// OpenCV xphoto's GrayworldWB of a BGR image, through the bridge.
    func openCVGrayWorld(_ image: Image, threshold: Float) throws -> Image {
        try Image.filledByOpenCV(width: image.width, height: image.height, format: .bgr8) { (output) throws(OcularError) in
            try image.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("xphoto gray world") { ocv_gray_world_white_balance(input, output, threshold, $0) }
            }
        }
    }

    @Test("the colour photos of shared/data/images keep their mean luma; OpenCV's gains darken them",
          arguments: ["images/coffee.png", "images/rocket.jpg"])
    func keepsMeanLuma(path: String) throws {
        let photo = try Image(contentsOfFile: TestData.path(path)).converted(to: .bgr8)
        let before = try meanLuma(photo)
        let balanced = try WhiteBalance().apply(to: photo)
        let after = try meanLuma(balanced)
        // Kept up to clipping at 255, which only lowers the result.
        #expect(abs(after - before) < 0.03 * before, "\(path): mean luma \(before) → \(after)")
        let darkened = try meanLuma(WhiteBalance(keepsBrightness: false).apply(to: photo))
        #expect(darkened < after, "\(path): OpenCV's scaling gives \(darkened), Ocular's \(after)")
    }

    @Test("a warm cast: OpenCV's balancer halves coffee.png's brightness, Ocular keeps it within 3 %")
    func warmCast() throws {
        let coffee = try Image(contentsOfFile: TestData.path("images/coffee.png")).converted(to: .bgr8)
        let before = try meanLuma(coffee)
        let openCV = try meanLuma(openCVGrayWorld(coffee, threshold: 0.9))
        #expect(openCV < 0.6 * before, "xphoto: \(before) → \(openCV)")
        #expect(abs(try meanLuma(WhiteBalance().apply(to: coffee)) - before) < 0.03 * before)
    }

    @Test("the gains keep xphoto's ratios: with the largest gain 1, the result is xphoto's within its fixed-point rounding")
    func sameRatiosAsOpenCV() throws {
        let rocket = try Image(contentsOfFile: TestData.path("images/rocket.jpg")).converted(to: .bgr8)
        let ours = try WhiteBalance(saturationThreshold: 0.9, keepsBrightness: false).apply(to: rocket)
        let theirs = try openCVGrayWorld(rocket, threshold: 0.9)
        // xphoto multiplies by round(gain · 256) / 256 and truncates: at most 2 levels from a rounded product.
        let largest = zip(ours.bytes, theirs.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 2, "largest difference \(largest)")
        let ourMeans = ours.channelMeans(), theirMeans = theirs.channelMeans()
        for channel in 0..<3 { #expect(abs(ourMeans[channel] - theirMeans[channel]) < 1, "\(ourMeans) vs \(theirMeans)") }
    }

    @Test("every byte is the gain's product rounded half to even and saturated, as cv::multiply gives it (colour and with alpha)",
          arguments: [PixelFormat.bgr8, .bgra8])
    func everyByteTheRoundedProduct(format: PixelFormat) throws {
        let coffee = try Image(contentsOfFile: TestData.path("images/coffee.png")).converted(to: format)
        let gains = try #require(try WhiteBalance().gains(for: coffee))
        // A warm cast: one gain above 1 (products saturate at 255), one below.
        #expect(gains.contains { $0 > 1.2 } && gains.contains { $0 < 1 })
        let balanced = try WhiteBalance().apply(to: coffee)
        let factors = gains + [1]
        var differing = 0
        for (index, (before, after)) in zip(coffee.bytes, balanced.bytes).enumerated() {
            let product = (Double(before) * factors[index % format.channels]).rounded(.toNearestOrEven)
            if UInt8(min(max(product, 0), 255)) != after { differing += 1 }
        }
        #expect(differing == 0)
    }

    @Test("every value 0 … 255 of every channel multiplied as doubles round it: factors single-precision floats round the same way (the vector path), and ones they round otherwise (0.5 + 10⁻⁹: 0.5 as a float, so odd values would tie to even)",
          arguments: [[1.1, 0.9, 1.37, 1], [0.5 + 1e-9, 1.5, 2.000000001, 1]], [PixelFormat.bgr8, .bgra8])
    func multipliedAsDoublesRound(factors: [Double], format: PixelFormat) throws {
        // Two rows of 259 pixels (not whole steps of 16): values 0 … 255 and on, a different one in each channel.
        let width = 259, channels = format.channels
        let bytes = (0..<(2 * width * channels)).map { UInt8(truncatingIfNeeded: $0 / channels + 85 * ($0 % channels)) }
        let image = try Image(width: width, height: 2, format: format, bytes: bytes)
        let multiplied = try image.multiplyingChannels(by: factors)
        var differing = 0
        for (index, (before, after)) in zip(image.bytes, multiplied.bytes).enumerated() {
            let product = (Double(before) * factors[index % channels]).rounded(.toNearestOrEven)
            if UInt8(min(max(product, 0), 255)) != after { differing += 1 }
        }
        #expect(differing == 0)
    }

    @Test("hand-computed gains: a 2-pixel image with a blue cast")
    func handComputedGains() throws {
        // BGR pixels (100, 50, 50) and (60, 30, 30): saturation 0.5 each, counted with threshold 0.9.
        // Channel sums B 160, G 80, R 80 → inverse gains ∝ 1/160, 1/80, 1/80 = 1 : 2 : 2.
        // Mean luma before: 0.114·80 + 0.587·40 + 0.299·40 = 44.56; after the 1 : 2 : 2 gains,
        // 0.114·80 + 0.587·80 + 0.299·80 = 80, so the scale is 44.56 / 80 = 0.557.
        let image = try Image(width: 2, height: 1, format: .bgr8, bytes: [100, 50, 50, 60, 30, 30])
        let gains = try #require(try WhiteBalance().gains(for: image))
        #expect(abs(gains[0] - 0.557) < 1e-9 && abs(gains[1] - 1.114) < 1e-9 && abs(gains[2] - 1.114) < 1e-9, "\(gains)")
        // 100 · 0.557 = 55.7 → 56, 50 · 1.114 = 55.7 → 56; 60 · 0.557 = 33.42 → 33, 30 · 1.114 = 33.42 → 33.
        #expect(try WhiteBalance().apply(to: image).bytes == [56, 56, 56, 33, 33, 33])
    }

    @Test("a pixel above the saturation threshold is left out of the averages")
    func saturatedPixelsIgnored() throws {
        // Pixel 2 is pure red (saturation 1): with threshold 0.9 only pixel 1 (gray) counts, gains all equal.
        let image = try Image(width: 2, height: 1, format: .rgb8, bytes: [90, 90, 90, 255, 0, 0])
        let gains = try #require(try WhiteBalance().gains(for: image))
        #expect(abs(gains[0] - gains[1]) < 1e-12 && abs(gains[1] - gains[2]) < 1e-12)
        // With threshold 1 it counts: red's sum is largest, so red gets the smallest gain.
        let counted = try #require(try WhiteBalance(saturationThreshold: 1).gains(for: image))
        #expect(counted[0] < counted[1])
    }

    @Test("the statistics are xphoto's rule summed over every pixel, as a plain loop sums it: a photo 600 wide (not whole steps of 16) as BGR, RGB and BGRA, a 7 × 3 image, thresholds 0 to 1",
          arguments: [0.0, 0.5, 0.9, 1.0])
    func statisticsAreThePlainSums(threshold: Double) throws {
        let photo = try Image(contentsOfFile: TestData.path("images/coffee.png"))
        let images = [photo, try photo.converted(to: .rgb8), try photo.converted(to: .bgra8),
                      try Image(width: 7, height: 3, format: .bgr8, bytes: noiseBytes(count: 7 * 3 * 3, seed: 3))]
        for image in images {
            var sums = [0.0, 0.0, 0.0], means = [0.0, 0.0, 0.0]
            try image.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("gray-world statistics") { error in
                    sums.withUnsafeMutableBufferPointer { sums in
                        means.withUnsafeMutableBufferPointer { means in
                            ocv_gray_world_statistics(input, Float(threshold), sums.baseAddress!, means.baseAddress!, error)
                        }
                    }
                }
            }
            let limit = Int((Float(threshold) * 255).rounded(.toNearestOrEven))
            var counted = [0, 0, 0], all = [0, 0, 0]
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let pixel = image.pixel(x: x, y: y)
                    let low = Int(pixel[0...2].min()!), high = Int(pixel[0...2].max()!)
                    let counts = (high - low) * 255 <= limit * high
                    for channel in 0..<3 {
                        all[channel] += Int(pixel[channel])
                        if counts { counted[channel] += Int(pixel[channel]) }
                    }
                }
            }
            let label = "\(image.width) × \(image.height) \(image.format) at \(threshold)"
            #expect(sums == counted.map(Double.init), "\(label): counted sums")
            #expect(means == all.map { Double($0) * (1 / Double(image.width * image.height)) }, "\(label): means")
        }
    }

    @Test("an image with no unsaturated light in some channel is returned unchanged")
    func nothingToInfer() throws {
        let image = try Image(width: 2, height: 1, format: .rgb8, bytes: [200, 0, 0, 0, 200, 0])
        #expect(try WhiteBalance().gains(for: image) == nil)
        #expect(try WhiteBalance().apply(to: image) == image)
    }
}

import Foundation
import Ocular

/// What a robustness sweep does to a whole frame after its objects are placed (faces, beans): light,
/// compression, noise, blur. Shared by the capabilities' sweeps, so a condition means the same in each.
enum SweepFinish: Sendable {
    case none
    case exposure(Double)
    case gamma(Double)
    case contrast(Double)
    /// Light falling from the right: ×0.3 at the left edge to ×1.3 at the right.
    case sideLight
    case jpeg(quality: Int)
    case noise(sigma: Double)
    case blur

    /// A sweep value for a frame's name: "2" or "0.25".
    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    /// `image` with this finish; `seed` makes the noise repeatable.
    func apply(to image: Image, seed: String) throws(OcularError) -> Image {
        switch self {
        case .none:
            return image
        case .exposure(let factor):
            return try image.mappingBytes(table: (0...255).map { Double($0) * factor })
        case .gamma(let gamma):
            return try image.mappingBytes(table: (0...255).map { 255 * pow(Double($0) / 255, gamma) })
        case .contrast(let factor):
            return try image.mappingBytes(table: (0...255).map { 128 + (Double($0) - 128) * factor })
        case .sideLight:
            return try image.scalingPixels { x, _ in 0.3 + Double(x) / Double(image.width - 1) }
        case .jpeg(let quality):
            return try Image(decoding: try image.encoded(as: .jpeg(quality: quality)), name: "the sweep's JPEG")
        case .noise(let sigma):
            var generator = SeededGenerator(seed: seed.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 })
            return try image.mappingPixels { _, _, value in
                // Box–Muller: one normal sample from two uniform ones.
                let u = generator.uniform(in: Double.ulpOfOne..<1), v = generator.uniform(in: 0..<1)
                return Double(value) + sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
            }
        case .blur:
            // About a Gaussian of σ 1: halve with pixel averaging, and enlarge back bilinearly.
            return try image.scaled(by: 0.5, averaging: true).resized(width: image.width, height: image.height)
        }
    }
}

extension Image {
    /// Each byte replaced by `table[byte]`, rounded and clamped to 0…255 (packed formats).
    func mappingBytes(table: [Double]) throws(OcularError) -> Image {
        let lookup = table.map { Self.clampedByte($0) }
        return try mappingRows { input, output, _ in
            for index in 0..<output.count { output[index] = lookup[Int(input[index])] }
        }
    }

    /// Each byte replaced by `transform(x, y, byte)`, rounded and clamped to 0…255 (packed formats).
    func mappingPixels(_ transform: (Int, Int, UInt8) -> Double) throws(OcularError) -> Image {
        let channels = format.channels
        return try mappingRows { input, output, y in
            for index in 0..<output.count { output[index] = Self.clampedByte(transform(index / channels, y, input[index])) }
        }
    }

    /// Each pixel's bytes multiplied by `gain(x, y)`, rounded and clamped to 0…255 (packed formats):
    /// the gain is worked out once a pixel, not once a byte.
    func scalingPixels(by gain: (Int, Int) -> Double) throws(OcularError) -> Image {
        let channels = format.channels
        return try mappingRows { input, output, y in
            for x in 0..<width {
                let factor = gain(x, y)
                for index in (x * channels)..<((x + 1) * channels) { output[index] = Self.clampedByte(Double(input[index]) * factor) }
            }
        }
    }

    /// A copy whose every row `map` writes from the same row of this image (packed formats). The
    /// sweeps draw hundreds of frames with these maps in the tests' unoptimised build, so each row
    /// is one call on plain buffers rather than a generic step a byte.
    private func mappingRows(_ map: (_ input: UnsafeBufferPointer<UInt8>, _ output: UnsafeMutableBufferPointer<UInt8>, _ y: Int) -> Void) throws(OcularError) -> Image {
        guard !format.isYUV else { throw .invalidArgument("pixel maps need a packed format, not \(format)") }
        let rowBytes = width * format.channels
        var output = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    map(UnsafeBufferPointer(rebasing: input[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)]),
                        UnsafeMutableBufferPointer(rebasing: out[(y * rowBytes)..<((y + 1) * rowBytes)]), y)
                }
            }
        }
        return try Image(width: width, height: height, format: format, bytes: output)
    }

    /// `value` rounded half away from zero and clamped to a byte; not `UInt8(clamping:)`, a generic
    /// call a byte in an unoptimised build.
    private static func clampedByte(_ value: Double) -> UInt8 {
        let rounded = value.rounded()
        return rounded <= 0 ? 0 : rounded >= 255 ? 255 : UInt8(rounded)
    }
}

extension SeededGenerator {
    /// The number `Double.random(in: range, using: &self)` gives, the same bits drawn the same way,
    /// without its generic steps (the sweeps' noise draws two a byte).
    mutating func uniform(in range: Range<Double>) -> Double {
        let delta = range.upperBound - range.lowerBound
        while true {
            // 53 random bits as a fraction of 1, as the standard library draws a Double.
            let unit = Double(next() & ((1 << 53) - 1)) * (Double.ulpOfOne / 2)
            let value = delta * unit + range.lowerBound
            if value != range.upperBound { return value }
        }
    }
}

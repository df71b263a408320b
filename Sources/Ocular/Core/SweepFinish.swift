import Foundation

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
            return try image.mappingPixels { x, _, value in Double(value) * (0.3 + Double(x) / Double(image.width - 1)) }
        case .jpeg(let quality):
            return try Image(decoding: try image.encoded(as: .jpeg(quality: quality)), name: "the sweep's JPEG")
        case .noise(let sigma):
            var generator = SeededGenerator(seed: seed.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 })
            return try image.mappingPixels { _, _, value in
                // Box–Muller: one normal sample from two uniform ones.
                let u = Double.random(in: Double.ulpOfOne..<1, using: &generator), v = Double.random(in: 0..<1, using: &generator)
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
        let lookup = table.map { UInt8(clamping: Int($0.rounded())) }
        return try mappingPixels { _, _, value in Double(lookup[Int(value)]) }
    }

    /// Each byte replaced by `transform(x, y, byte)`, rounded and clamped to 0…255 (packed formats).
    func mappingPixels(_ transform: (Int, Int, UInt8) -> Double) throws(OcularError) -> Image {
        guard !format.isYUV else { throw .invalidArgument("pixel maps need a packed format, not \(format)") }
        let channels = format.channels, rowBytes = width * channels
        var output = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    for index in 0..<rowBytes {
                        let value = transform(index / channels, y, input[y * bytesPerRow + index])
                        out[y * rowBytes + index] = UInt8(clamping: Int(value.rounded()))
                    }
                }
            }
        }
        return try Image(width: width, height: height, format: format, bytes: output)
    }
}

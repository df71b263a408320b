import OpenCVBridge

/// A colour tint: red, green and blue multiplied by their own factors, saturating at 0 and 255.
public struct Tint: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The ranges random tints are drawn from, uniformly (the "cool pig" demo's).
    public static let redRange: ClosedRange<Double> = 0.5...1.5
    public static let greenRange: ClosedRange<Double> = 0.6...1.4
    public static let blueRange: ClosedRange<Double> = 0.4...1.6
    /// How long the animated tint holds each colour.
    public static let defaultInterval: Duration = .seconds(2)

    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A tint with each factor drawn uniformly from its range.
    /// - Parameter generator: The source of randomness; a ``SeededGenerator`` makes it reproducible.
    public static func random(using generator: inout some RandomNumberGenerator) -> Tint {
        // Drawn here rather than with Double.random(in:using:) so that a seed gives the same tint on
        // every platform and Swift version.
        func uniform(_ range: ClosedRange<Double>) -> Double {
            let unit = Double(generator.next() >> 11) * 0x1p-53
            return range.lowerBound + (range.upperBound - range.lowerBound) * unit
        }
        return Tint(red: uniform(redRange), green: uniform(greenRange), blue: uniform(blueRange))
    }

    public var description: String {
        func factor(_ value: Double) -> String { String(Double(Int((value * 1000).rounded())) / 1000) }
        return "Tint(red: \(factor(red)), green: \(factor(green)), blue: \(factor(blue)))"
    }

    /// Tints an image. Colour formats keep their format; a gray image becomes RGB first (so the tint
    /// shows) and YUV becomes BGR.
    /// - Parameter image: The image to tint.
    /// - Returns: The tinted image.
    public func apply(to image: Image) throws(OcularError) -> Image {
        let source: Image
        switch image.format {
        case .gray8: source = try image.converted(to: .rgb8)
        case .i420, .nv12, .yuyv: source = try image.converted(to: .bgr8)
        default: source = image
        }
        guard let order = source.format.rgbOffsets else { return source }
        var factors = [1.0, 1.0, 1.0, 1.0]
        factors[order.red] = red
        factors[order.green] = green
        factors[order.blue] = blue
        return try Image.filledByOpenCV(width: source.width, height: source.height, format: source.format) { (output) throws(OcularError) in
            try source.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("multiply (tint)") { error in
                    factors.withUnsafeBufferPointer { ocv_multiply_channels(input, output, $0.baseAddress!, error) }
                }
            }
        }
    }
}

/// The endless sequence of tints an animation shows, each held for an interval. Tint `n` depends only
/// on the seed and `n`, so any moment of the animation can be shown without replaying the ones before.
public struct TintSequence: Sendable, Equatable {
    public var seed: UInt64
    public var interval: Duration

    /// - Parameters:
    ///   - seed: Picks the sequence; the same seed gives the same tints.
    ///   - interval: How long each tint is held.
    public init(seed: UInt64, interval: Duration = Tint.defaultInterval) {
        self.seed = seed
        self.interval = interval
    }

    /// The `index`-th tint of the sequence.
    public func tint(number index: Int) -> Tint {
        var generator = SeededGenerator(seed: seed &+ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
        return .random(using: &generator)
    }

    /// The tint shown `elapsed` after the animation started.
    public func tint(at elapsed: Duration) -> Tint {
        guard interval > .zero, elapsed > .zero else { return tint(number: 0) }
        return tint(number: Int(elapsed / interval))
    }
}

/// SplitMix64: a small, fast generator whose output depends only on its seed, for reproducible
/// randomness (the standard library has no seeded generator).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

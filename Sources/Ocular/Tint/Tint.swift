internal import OpenCVBridge

/// A colour tint: red, green and blue multiplied by their own factors, saturating at 0 and 255.
public struct Tint: Sendable, Equatable, Codable, CustomStringConvertible {
    /// How long the animated tint holds each colour (the "cool pig" demo's).
    public static let defaultInterval: Duration = .seconds(2)

    /// Red's factor.
    public var red: Double
    /// Green's factor.
    public var green: Double
    /// Blue's factor.
    public var blue: Double

    /// Creates a tint.
    /// - Parameters:
    ///   - red: Red's factor.
    ///   - green: Green's factor.
    ///   - blue: Blue's factor.
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A tint with each factor drawn uniformly from its range.
    /// - Parameters:
    ///   - ranges: Where each factor is drawn from.
    ///   - generator: The source of randomness; a ``SeededGenerator`` makes it reproducible.
    /// - Returns: The tint.
    public static func random(in ranges: TintRanges = .coolPig, using generator: inout some RandomNumberGenerator) -> Tint {
        // Drawn here rather than with Double.random(in:using:) so that a seed gives the same tint on
        // every platform and Swift version.
        func uniform(_ range: ClosedRange<Double>) -> Double {
            let unit = Double(generator.next() >> 11) * 0x1p-53
            return range.lowerBound + (range.upperBound - range.lowerBound) * unit
        }
        return Tint(red: uniform(ranges.red), green: uniform(ranges.green), blue: uniform(ranges.blue))
    }

    /// The three factors, rounded.
    public var description: String {
        func factor(_ value: Double) -> String { String(Double(Int((value * 1000).rounded())) / 1000) }
        return "Tint(red: \(factor(red)), green: \(factor(green)), blue: \(factor(blue)))"
    }

    /// Tints an image. Colour formats keep their format; a gray image becomes RGB first (so the tint
    /// shows) and YUV becomes BGR.
    /// - Parameter image: The image to tint.
    /// - Returns: The tinted image.
    /// - Throws: ``OcularError`` when the image cannot be converted or OpenCV fails.
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
    /// The seed: the same seed gives the same tints.
    public var seed: UInt64
    /// How long each tint lasts.
    public var interval: Duration
    /// The ranges the factors are drawn from.
    public var ranges: TintRanges

    /// - Parameters:
    ///   - seed: Picks the sequence; the same seed gives the same tints.
    ///   - interval: How long each tint is held.
    ///   - ranges: Where each tint's factors are drawn from.
    public init(seed: UInt64, interval: Duration = Tint.defaultInterval, ranges: TintRanges = .coolPig) {
        self.seed = seed
        self.interval = interval
        self.ranges = ranges
    }

    /// The `index`-th tint of the sequence.
    /// - Parameter index: The tint's number, from 0.
    /// - Returns: The tint.
    public func tint(number index: Int) -> Tint {
        var generator = SeededGenerator(seed: seed &+ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
        return .random(in: ranges, using: &generator)
    }

    /// The tint shown `elapsed` after the animation started.
    /// - Parameter elapsed: The time since the start.
    /// - Returns: The tint.
    public func tint(at elapsed: Duration) -> Tint {
        guard interval > .zero, elapsed > .zero else { return tint(number: 0) }
        return tint(number: Int(elapsed / interval))
    }
}

/// The ranges a random tint's red, green and blue factors are drawn from.
public struct TintRanges: Sendable, Equatable {
    /// A colour channel a tint scales.
    public enum Channel: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The three colour channels.
        case red, green, blue
        /// The channel's name, capitalised.
        public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
        /// The channel's name.
        public var description: String { rawValue }
    }

    /// The range red's factor is drawn from.
    public var red: ClosedRange<Double>
    /// The range green's factor is drawn from.
    public var green: ClosedRange<Double>
    /// The range blue's factor is drawn from.
    public var blue: ClosedRange<Double>

    /// Creates ranges.
    /// - Parameters:
    ///   - red: Red's range.
    ///   - green: Green's range.
    ///   - blue: Blue's range.
    public init(red: ClosedRange<Double>, green: ClosedRange<Double>, blue: ClosedRange<Double>) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The textbook's "cool pig" ranges: red 0.5 … 1.5, green 0.6 … 1.4, blue 0.4 … 1.6.
    public static let coolPig = TintRanges(red: 0.5...1.5, green: 0.6...1.4, blue: 0.4...1.6)

    /// The range of one channel.
    /// - Parameter channel: The channel.
    /// - Returns: The channel's range.
    public subscript(channel: Channel) -> ClosedRange<Double> {
        get {
            switch channel {
            case .red: red
            case .green: green
            case .blue: blue
            }
        }
        set {
            switch channel {
            case .red: red = newValue
            case .green: green = newValue
            case .blue: blue = newValue
            }
        }
    }
}

/// SplitMix64: a small, fast generator whose output depends only on its seed, for reproducible
/// randomness (the standard library has no seeded generator).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator.
    /// - Parameter seed: The seed: the same seed gives the same numbers.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next number (SplitMix64).
    /// - Returns: 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

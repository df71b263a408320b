import Foundation

/// A synthetic slanted-edge target with a known MTF: a straight edge between two levels, blurred by a
/// Gaussian, optionally integrated over each pixel's area (as a sensor's pixels collect light) and
/// with Gaussian noise. Used to check ``SlantedEdge`` against the analytic answer and to stand in for
/// a sensor in `ocular zoom prove`.
///
/// Sampled at the pixel centres, an edge blurred by a Gaussian of σ pixels has the MTF
/// exp(−2π²σ²f²), so MTF50 = √(ln 2 / 2) / (πσ) ≈ 0.1874 / σ cycles per pixel. Integrating over the
/// pixel multiplies that by the pixel's own response, sin(πf) / (πf).
public struct SlantedEdgeChart: Sendable, Hashable {
    /// How the chart's pixels are sampled from the ideal edge.
    public enum Sampling: String, Sendable, Hashable {
        /// Each pixel is the edge's value at its centre.
        case pointCentre
        /// Each pixel is the edge's mean over its square (8 × 8 samples near the edge).
        case pixelArea
    }

    /// The edge's angle clockwise from vertical, in degrees (dark on the left at 0°).
    public var degrees: Double
    /// The Gaussian blur's σ in pixels; 0 for a perfect step.
    public var blur: Double
    /// The dark side's level, 0–255.
    public var dark: Double
    /// The light side's level, 0–255.
    public var light: Double
    /// The noise's standard deviation, in levels.
    public var noise: Double
    /// How pixels are sampled from the ideal edge.
    public var sampling: Sampling
    /// The noise's seed: the same chart every time.
    public var seed: UInt64

    /// Creates a chart.
    /// - Parameters:
    ///   - degrees: The edge's tilt from vertical.
    ///   - blur: The lens blur, a Gaussian's sigma in pixels.
    ///   - dark: The dark side's level.
    ///   - light: The light side's level.
    ///   - noise: Gaussian noise's sigma, in levels.
    ///   - sampling: How pixels are sampled.
    ///   - seed: The noise's seed.
    public init(degrees: Double = 5, blur: Double = 1, dark: Double = 51, light: Double = 204, noise: Double = 0,
                sampling: Sampling = .pointCentre, seed: UInt64 = 1) {
        (self.degrees, self.blur, self.dark, self.light, self.noise, self.sampling, self.seed) =
            (degrees, blur, dark, light, noise, sampling, seed)
    }

    /// The MTF50 the chart's blur alone gives at the pixel centres, in cycles per pixel: 0.1874 / σ.
    /// - Parameter sigma: The blur's sigma in pixels.
    /// - Returns: MTF50 in cycles per pixel.
    public static func gaussianMTF50(sigma: Double) -> Double { (log(2.0) / 2).squareRoot() / (Double.pi * sigma) }

    /// The chart as an 8-bit gray picture, the edge through `centre` (pixels; the middle by default).
    /// - Parameters:
    ///   - width: The picture's width.
    ///   - height: The picture's height.
    ///   - centre: A point on the edge; nil for the middle.
    /// - Returns: The chart.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a size below one pixel or above 100 MP.
    public func rendered(width: Int, height: Int, centre: Point? = nil) throws(OcularError) -> Image {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 1, height >= 1, !overflow, pixels <= ImageReadOptions.defaultPixelLimit else {
            throw .invalidArgument("cannot render a \(width)×\(height) chart")
        }
        let middle = centre ?? Point(x: Double(width - 1) / 2, y: Double(height - 1) / 2)
        let radians = degrees * .pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        // Beyond this distance from the edge the blur has left the light within 1/1000 of a level.
        let reach = 0.75 + 5 * blur
        var random = SeededGenerator(seed: seed)
        var bytes = [UInt8](repeating: 0, count: pixels)
        for y in 0..<height {
            for x in 0..<width {
                // The signed distance from the edge along its normal; light on the positive side.
                let distance = (Double(x) - middle.x) * cosine - (Double(y) - middle.y) * sine
                var level: Double
                if distance > reach {
                    level = light
                } else if distance < -reach {
                    level = dark
                } else if sampling == .pointCentre {
                    level = value(at: distance)
                } else {
                    var sum = 0.0
                    for j in 0..<8 {
                        for i in 0..<8 {
                            let (dx, dy) = ((Double(i) + 0.5) / 8 - 0.5, (Double(j) + 0.5) / 8 - 0.5)
                            sum += value(at: distance + dx * cosine - dy * sine)
                        }
                    }
                    level = sum / 64
                }
                if noise > 0 { level += noise * random.nextGaussian() }
                bytes[y * width + x] = UInt8(max(0, min(255, level.rounded())))
            }
        }
        return try Image(width: width, height: height, format: .gray8, bytes: bytes)
    }

    private func value(at distance: Double) -> Double {
        let fraction = blur > 0 ? 0.5 * erfc(-distance / (blur * 2.0.squareRoot())) : (distance > 0 ? 1 : distance < 0 ? 0 : 0.5)
        return dark + (light - dark) * fraction
    }
}

extension SeededGenerator {
    /// A standard normal number (Box–Muller on two uniform numbers in (0, 1]).
    mutating func nextGaussian() -> Double {
        func unit() -> Double { (Double(next() >> 11) + 1) / Double(1 << 53) }
        return (-2 * log(unit())).squareRoot() * cos(2 * .pi * unit())
    }
}

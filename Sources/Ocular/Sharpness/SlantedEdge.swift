import Foundation
internal import OpenCVBridge

/// The sharpness of a picture as the imaging industry measures it: the modulation transfer function
/// (MTF) by the ISO 12233 slanted-edge method, after Burns' sfrmat.
///
/// A straight edge a few degrees off the pixel grid is sampled by every row at a slightly different
/// phase, so projecting all the pixels onto the edge's normal gives its edge-spread function (ESF)
/// four times finer than the pixels. Its derivative is the line-spread function (LSF); the magnitude
/// of the LSF's Fourier transform, normalised to 1 at zero frequency, is the MTF: how much of a
/// pattern's contrast survives at each frequency, in cycles per pixel (0.5 is the Nyquist frequency,
/// the finest pattern the pixels can hold). MTF50, the frequency where half survives, is the usual
/// single figure.
public enum SlantedEdge {
    /// The ESF's bins per pixel (ISO 12233: 4).
    public static let oversampling = 4
    /// The region's smallest side, in pixels: room for the edge and some flat on either side.
    public static let smallestSide = 20
    /// The region's largest area, in pixels (2048 × 2048): a slanted-edge region holds one edge and
    /// some flat either side, a few hundred pixels across; a whole photograph holds many edges and
    /// would cost gigabytes of samples.
    public static let largestRegion = 2048 * 2048
    /// The curve is reported (and the derivative correction applied) up to this frequency, in cycles
    /// per pixel: twice Nyquist, where the correction is still under 1.6×.
    public static let highestFrequency = 1.0

    /// Measures the edge in `region` of `image` (all of it by default). Colour pictures are measured
    /// on their luma (Rec. 601 weights, as OpenCV converts to gray).
    /// - Parameters:
    ///   - image: The picture of a slanted edge.
    ///   - region: Where the edge is; nil for the whole picture.
    /// - Returns: MTF50, MTF10, MTF at Nyquist, the angle and the curve.
    /// - Throws: ``SharpnessError`` for a region that is outside the picture, too small or too large,
    ///   holds no edge or no straight one, or an edge that runs along the pixel grid or out of the
    ///   region; ``OcularError`` when the picture cannot be converted.
    public static func measure(_ image: Image, region: PixelRectangle? = nil) throws -> SharpnessMeasurement {
        let region = region ?? PixelRectangle(x: 0, y: 0, width: image.width, height: image.height)
        guard region.x >= 0, region.y >= 0, region.width >= 1, region.height >= 1,
              region.x <= image.width - region.width, region.y <= image.height - region.height else {
            throw SharpnessError.regionOutside(region, pictureWidth: image.width, pictureHeight: image.height)
        }
        guard region.width >= smallestSide, region.height >= smallestSide else {
            throw SharpnessError.regionTooSmall(region, minimum: smallestSide)
        }
        guard region.width * region.height <= largestRegion else {
            throw SharpnessError.regionTooLarge(region, maximum: largestRegion)
        }
        let gray = try image.cropped(to: region).converted(to: .gray8)
        var samples = Samples(gray)
        // The method wants an edge that crosses the rows (nearly vertical); a nearly horizontal one is
        // measured on the picture turned a quarter.
        let horizontal = samples.verticalVariation > samples.horizontalVariation
        if horizontal { samples = samples.transposed }
        let contrast = samples.spread
        guard contrast >= 10 else { throw SharpnessError.noContrast(levels: contrast) }

        let fit = try EdgeFit(samples)
        let esf = try fit.edgeSpread(samples)
        let (frequencies, modulation) = try transfer(of: esf)
        let curve = stride(from: 0.0, through: highestFrequency + 1e-9, by: 0.01).map { frequency in
            MTFPoint(frequency: (frequency * 100).rounded() / 100, modulation: interpolate(frequencies, modulation, at: frequency))
        }
        let sides = esf.plateaus
        return SharpnessMeasurement(
            region: region, edge: horizontal ? .horizontal : .vertical, degrees: fit.degrees,
            rowsUsed: fit.rowsUsed, dark: min(sides.0, sides.1), light: max(sides.0, sides.1),
            mtf50: crossing(frequencies, modulation, level: 0.5), mtf10: crossing(frequencies, modulation, level: 0.1),
            curve: curve)
    }

    /// The MTF of an edge-spread function sampled `oversampling` times per pixel: LSF by central
    /// differences, a Hamming window centred on the LSF, the DFT's magnitudes normalised at zero, then
    /// divided by the central difference's own response sin(ω)/ω. Frequencies in cycles per pixel.
    static func transfer(of esf: EdgeSpread) throws -> (frequencies: [Double], modulation: [Double]) {
        let values = esf.values
        let count = values.count
        var lsf = [Double](repeating: 0, count: count)
        for k in 1..<(count - 1) { lsf[k] = (values[k + 1] - values[k - 1]) / 2 }
        (lsf[0], lsf[count - 1]) = (lsf[1], lsf[count - 2])
        if lsf.reduce(0, +) < 0 { lsf = lsf.map { -$0 } }   // light to dark: the same edge mirrored

        // A Hamming window centred on the LSF's middle (its 50 % point), reaching 16 pixels or seven
        // 10–90 % rises either way, whichever is more, and zero beyond: the line itself is kept (at
        // three σ of a Gaussian the window still passes 94 %), while the flat far from the edge, which
        // holds only noise, is cut. sfrmat windows the whole ESF; on a 128-pixel region that let noise
        // at a signal-to-noise ratio of 20 move MTF50 by ±6 % (±2 % with this window; five rises
        // instead of seven: ±2 %, but 1.2 % too high from the window itself).
        let (low, middle, high) = Self.quantiles(lsf, 0.1, 0.5, 0.9)
        let binsPerPixel = Double(oversampling)
        let halfWidth = max(16 * binsPerPixel, 7 * (high - low))
        for k in lsf.indices {
            let distance = (Double(k) - middle) / halfWidth
            lsf[k] *= abs(distance) >= 1 ? 0 : 0.54 + 0.46 * cos(Double.pi * distance)
        }

        // Zero-padded to at least 2048 samples: finer frequency steps for reading MTF50 off the curve.
        var length = 2048
        while length < count { length *= 2 }
        var padded = [Double](repeating: 0, count: length)
        padded.replaceSubrange(0..<count, with: lsf)
        var magnitudes = [Double](repeating: 0, count: length / 2 + 1)
        try OpenCV.call("dft of \(length) samples") { error in
            padded.withUnsafeBufferPointer { input in
                magnitudes.withUnsafeMutableBufferPointer { ocv_dft_magnitudes(input.baseAddress!, Int32(length), $0.baseAddress!, error) }
            }
        }
        guard magnitudes[0] > 0 else { throw SharpnessError.noStraightEdge(scatter: .infinity) }
        var frequencies: [Double] = [], modulation: [Double] = []
        for k in magnitudes.indices {
            let frequency = Double(k) * binsPerPixel / Double(length)
            if frequency > highestFrequency + 1e-9 { break }
            // The central difference over ±1 bin answers sin(ω)/ω of a true derivative, ω = 2πf / binsPerPixel.
            let omega = 2 * Double.pi * frequency / binsPerPixel
            let response = omega == 0 ? 1 : sin(omega) / omega
            frequencies.append(frequency)
            modulation.append(magnitudes[k] / magnitudes[0] / response)
        }
        return (frequencies, modulation)
    }

    /// Where the running sum of `values` first reaches each of three fractions of their total, in indices.
    static func quantiles(_ values: [Double], _ a: Double, _ b: Double, _ c: Double) -> (Double, Double, Double) {
        let total = values.reduce(0, +)
        var running = 0.0
        var found: [Double?] = [nil, nil, nil]
        for (index, value) in values.enumerated() {
            running += value
            for (slot, fraction) in [a, b, c].enumerated() where found[slot] == nil && running >= fraction * total {
                found[slot] = Double(index)
            }
        }
        let end = Double(values.count - 1)
        return (found[0] ?? 0, found[1] ?? end / 2, found[2] ?? end)
    }

    /// The first frequency where `modulation` falls below `level`, between samples by straight line;
    /// nil when it stays above it up to ``highestFrequency``.
    static func crossing(_ frequencies: [Double], _ modulation: [Double], level: Double) -> Double? {
        for k in 1..<modulation.count where modulation[k] < level {
            let (f0, f1, m0, m1) = (frequencies[k - 1], frequencies[k], modulation[k - 1], modulation[k])
            return f0 + (f1 - f0) * (m0 - level) / (m0 - m1)
        }
        return nil
    }

    static func interpolate(_ xs: [Double], _ ys: [Double], at x: Double) -> Double {
        guard let upper = xs.firstIndex(where: { $0 >= x }) else { return ys.last ?? 0 }
        guard upper > 0 else { return ys[0] }
        let t = (x - xs[upper - 1]) / (xs[upper] - xs[upper - 1])
        return ys[upper - 1] + t * (ys[upper] - ys[upper - 1])
    }
}

/// One point of an MTF curve.
public struct MTFPoint: Sendable, Hashable, Codable {
    /// Cycles per pixel.
    public let frequency: Double
    /// The fraction of contrast kept, 1 at zero frequency.
    public let modulation: Double
}

/// What the slanted-edge method found.
public struct SharpnessMeasurement: Sendable, Codable {
    /// Which way the edge runs.
    public enum Edge: String, Sendable, Codable {
        /// Nearly vertical: the MTF is across the columns.
        case vertical
        /// Nearly horizontal: the MTF is across the rows.
        case horizontal
    }

    /// The region measured, in the picture's pixels.
    public let region: PixelRectangle
    /// Which way the edge runs.
    public let edge: Edge
    /// The edge's angle from the pixel grid (from vertical, or from horizontal for a horizontal edge).
    public let degrees: Double
    /// The rows (columns for a horizontal edge) used: a whole number of the edge's phase cycles.
    public let rowsUsed: Int
    /// The levels on the edge's dark and light sides (0–255 luma).
    public let dark: Double
    /// The light side's level, 0–255.
    public let light: Double
    /// The frequency where half the contrast is kept, in cycles per pixel; nil beyond ``SlantedEdge/highestFrequency``.
    public let mtf50: Double?
    /// The frequency where a tenth is kept; nil beyond ``SlantedEdge/highestFrequency``.
    public let mtf10: Double?
    /// The MTF from 0 to ``SlantedEdge/highestFrequency`` cycles per pixel in steps of 0.01.
    public let curve: [MTFPoint]

    /// The MTF at the Nyquist frequency (0.5 cycles per pixel).
    public var atNyquist: Double { curve.first { abs($0.frequency - 0.5) < 1e-9 }?.modulation ?? 0 }
}

/// A region's luma as numbers, row by row.
struct Samples {
    let width: Int
    let height: Int
    let values: [Double]

    init(width: Int, height: Int, values: [Double]) {
        (self.width, self.height, self.values) = (width, height, values)
    }

    init(_ gray: Image) {
        var values = [Double](repeating: 0, count: gray.width * gray.height)
        for y in 0..<gray.height {
            for x in 0..<gray.width { values[y * gray.width + x] = Double(gray.bytes[y * gray.bytesPerRow + x]) }
        }
        self.init(width: gray.width, height: gray.height, values: values)
    }

    subscript(x: Int, y: Int) -> Double { values[y * width + x] }

    var transposed: Samples {
        var turned = [Double](repeating: 0, count: values.count)
        for y in 0..<height { for x in 0..<width { turned[x * height + y] = values[y * width + x] } }
        return Samples(width: height, height: width, values: turned)
    }

    /// The mean step between neighbours along the rows and along the columns.
    var horizontalVariation: Double {
        var sum = 0.0
        for y in 0..<height { for x in 1..<width { sum += abs(self[x, y] - self[x - 1, y]) } }
        return sum / Double(height * (width - 1))
    }

    var verticalVariation: Double {
        var sum = 0.0
        for y in 1..<height { for x in 0..<width { sum += abs(self[x, y] - self[x, y - 1]) } }
        return sum / Double((height - 1) * width)
    }

    /// The difference between the 98th and 2nd percentiles: the light's range, a few outliers apart.
    var spread: Double {
        let sorted = values.sorted()
        return sorted[sorted.count * 98 / 100] - sorted[sorted.count * 2 / 100]
    }
}

/// The edge as a line x = offset + slope·y, fitted to each row's centroid of the derivative.
struct EdgeFit {
    let offset: Double
    let slope: Double
    let rowsUsed: Int

    var degrees: Double { atan(slope) * 180 / .pi }

    init(_ samples: Samples) throws {
        let (width, height) = (samples.width, samples.height)
        // Each row's derivative, between pixels x and x + 1 (at x + ½); its sign set so the edge is positive.
        var derivative = [Double](repeating: 0, count: (width - 1) * height)
        var total = 0.0
        for y in 0..<height {
            for x in 0..<(width - 1) {
                let step = samples[x + 1, y] - samples[x, y]
                derivative[y * (width - 1) + x] = step
                total += step
            }
        }
        if total < 0 { derivative = derivative.map { -$0 } }
        let columns = width - 1
        func row(_ y: Int) -> ArraySlice<Double> { derivative[(y * columns)..<((y + 1) * columns)] }

        // First guess per row: the centroid near the row's strongest (5-pixel smoothed) rise.
        var centres = [Double](repeating: 0, count: height)
        let reach = max(4, columns / 8)
        for y in 0..<height {
            let values = Array(row(y))
            var best = 0, bestSum = -Double.infinity
            for x in 0..<columns {
                let sum = values[max(0, x - 2)...min(columns - 1, x + 2)].reduce(0, +)
                if sum > bestSum { (best, bestSum) = (x, sum) }
            }
            centres[y] = Self.centroid(values, from: max(0, best - reach), to: min(columns - 1, best + reach), window: nil)
        }
        var line = Self.fitLine(centres)
        // Then three times: centroids under a Hamming window centred on the fitted line (sfrmat). The
        // window spans about three times the edge's 10–90 % rise either way rather than the whole row
        // (sfrmat's choice): noise far from the edge would otherwise move each row's centroid by
        // pixels, tilt the fitted line and blur the edge-spread function it builds.
        let halfWidth = min(max(3 * Self.rise(derivative, columns: columns, rows: height, along: line) + 3, 6), Double(columns) / 2)
        for _ in 0..<3 {
            for y in 0..<height {
                let middle = line.offset + line.slope * Double(y) - 0.5
                let from = max(0, Int((middle - halfWidth).rounded(.up))), to = min(columns - 1, Int((middle + halfWidth).rounded(.down)))
                centres[y] = from <= to ? Self.centroid(Array(row(y)), from: from, to: to, window: (middle, halfWidth)) : middle + 0.5
            }
            line = Self.fitLine(centres)
        }
        let residuals = centres.indices.map { centres[$0] - (line.offset + line.slope * Double($0)) }
        let scatter = (residuals.reduce(0) { $0 + $1 * $1 } / Double(height)).squareRoot()
        guard scatter <= max(1.0, 0.05 * Double(width)) else {
            // Rows at the top or bottom without the step: an edge that leaves the region through a side.
            let rises = (0..<height).map { row($0).reduce(0, +) }
            let median = rises.sorted()[height / 2]
            let missing = rises.indices.filter { rises[$0] < median / 2 }
            if median >= 10, let first = missing.first, let last = missing.last, missing.count == last - first + 1,
               first == 0 || last == height - 1 {
                throw SharpnessError.edgeLeavesRegion
            }
            throw SharpnessError.noStraightEdge(scatter: scatter)
        }
        let top = line.offset, bottom = line.offset + line.slope * Double(height - 1)
        guard min(top, bottom) >= 2, max(top, bottom) <= Double(width - 3) else { throw SharpnessError.edgeLeavesRegion }

        // A whole number of phase cycles (rows over which the edge moves a whole pixel), so every
        // phase is sampled equally often.
        let shift = abs(line.slope) * Double(height)
        guard shift >= 1, abs(line.slope) <= 1 else {
            throw SharpnessError.edgeAlongPixelGrid(degrees: abs(atan(line.slope) * 180 / .pi), shift: shift)
        }
        let cycles = (shift + 1e-9).rounded(.down)
        (offset, slope, rowsUsed) = (line.offset, line.slope, min(height, Int((cycles / abs(line.slope)).rounded())))
    }

    /// The distance over which the edge rises from 10 % to 90 % of its step, in pixels: the rows'
    /// derivatives shifted (by whole pixels) onto the fitted line and summed.
    private static func rise(_ derivative: [Double], columns: Int, rows: Int, along line: (offset: Double, slope: Double)) -> Double {
        var profile = [Double](repeating: 0, count: 2 * columns + 1)
        for y in 0..<rows {
            let shift = Int((line.offset + line.slope * Double(y) - 0.5).rounded())
            for x in 0..<columns {
                let index = x - shift + columns
                if index >= 0, index < profile.count { profile[index] += derivative[y * columns + x] }
            }
        }
        guard profile.reduce(0, +) > 0 else { return Double(columns) / 6 }
        let (low, _, high) = SlantedEdge.quantiles(profile, 0.1, 0.5, 0.9)
        return high - low
    }

    /// The centroid (in pixel-centre coordinates, where the step between x and x + 1 sits at x + ½)
    /// of `values[from...to]`, optionally under a Hamming window (centre, half-width).
    private static func centroid(_ values: [Double], from: Int, to: Int, window: (centre: Double, halfWidth: Double)?) -> Double {
        var sum = 0.0, moment = 0.0
        for x in from...to {
            var weight = values[x]
            if let window {
                let distance = (Double(x) - window.centre) / window.halfWidth
                weight *= abs(distance) >= 1 ? 0 : 0.54 + 0.46 * cos(.pi * distance)
            }
            sum += weight
            moment += weight * (Double(x) + 0.5)
        }
        return sum > 0 ? moment / sum : Double(from + to + 1) / 2
    }

    private static func fitLine(_ centres: [Double]) -> (offset: Double, slope: Double) {
        let count = Double(centres.count)
        let meanY = (count - 1) / 2
        let meanX = centres.reduce(0, +) / count
        var covariance = 0.0, variance = 0.0
        for (y, x) in centres.enumerated() {
            covariance += (Double(y) - meanY) * (x - meanX)
            variance += (Double(y) - meanY) * (Double(y) - meanY)
        }
        let slope = variance > 0 ? covariance / variance : 0
        return (meanX - slope * meanY, slope)
    }

    /// Every pixel of the rows used, binned by its distance from the edge along the edge's normal
    /// into ``SlantedEdge/oversampling`` bins per pixel, averaged.
    func edgeSpread(_ samples: Samples) throws -> EdgeSpread {
        let bins = SlantedEdge.oversampling
        let cosine = 1 / (1 + slope * slope).squareRoot()
        let count = bins * samples.width * 2
        var sums = [Double](repeating: 0, count: count), hits = [Int](repeating: 0, count: count)
        for y in 0..<rowsUsed {
            let edge = offset + slope * Double(y)
            for x in 0..<samples.width {
                let distance = (Double(x) - edge) * cosine
                let bin = Int((distance * Double(bins)).rounded(.down)) + count / 2
                guard bin >= 0, bin < count else { continue }
                sums[bin] += samples[x, y]
                hits[bin] += 1
            }
        }
        guard let first = hits.firstIndex(where: { $0 > 0 }), let last = hits.lastIndex(where: { $0 > 0 }), last - first >= 4 * bins else {
            throw SharpnessError.noStraightEdge(scatter: .infinity)
        }
        var values = [Double](repeating: .nan, count: last - first + 1)
        for bin in first...last where hits[bin] > 0 { values[bin - first] = sums[bin] / Double(hits[bin]) }
        // Bins no pixel fell in (rare once a whole phase cycle is used) take their neighbours' mean.
        let empty = values.indices.filter { values[$0].isNaN }
        guard empty.count * 10 <= values.count else { throw SharpnessError.edgeAlongPixelGrid(degrees: abs(degrees), shift: abs(slope) * Double(rowsUsed)) }
        for index in empty {
            let before = values[..<index].lastIndex { !$0.isNaN }.map { values[$0] }
            let after = values[(index + 1)...].firstIndex { !$0.isNaN }.map { values[$0] }
            values[index] = ((before ?? after!) + (after ?? before!)) / 2
        }
        return EdgeSpread(values: values)
    }
}

/// The edge-spread function, ``SlantedEdge/oversampling`` values per pixel.
struct EdgeSpread {
    let values: [Double]

    /// The mean levels of the first and last eighth: the two sides of the edge.
    var plateaus: (Double, Double) {
        let part = max(1, values.count / 8)
        return (values.prefix(part).reduce(0, +) / Double(part), values.suffix(part).reduce(0, +) / Double(part))
    }
}

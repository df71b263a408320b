import Foundation

/// A point-wise colour operation: what a colour filter does to each pixel, alone, independent of its
/// neighbours. Pipelines fuse runs of them (``ColourProgram``): matrices compose, curves compose into one
/// lookup table per channel, and the whole run is one pass over the pixels.
///
/// Values are red, green and blue from 0 to 1 (8-bit levels ÷ 255), as the picture stores them (sRGB
/// encoded); alpha is never touched.
public enum ColourOperation: Sendable, Equatable {
    /// out = matrix · (r, g, b) + bias: linear mixes such as sepia, hue rotation, saturation.
    case matrix(ColourMatrix)
    /// One curve per channel, tabulated at the 256 input levels: exposure, gamma, tone curves.
    case curves(ChannelCurves)
    /// Channels mixed non-linearly, pixel by pixel.
    case mix(ColourMix)
}

/// A 3×4 colour matrix over red, green, blue in 0…1: out = m · in + bias.
public struct ColourMatrix: Sendable, Equatable, CustomStringConvertible {
    /// Rows red, green, blue out; columns red, green, blue in.
    public var rows: [SIMD3<Double>]
    /// Added to each output channel, 0…1.
    public var bias: SIMD3<Double>

    /// Creates a matrix.
    /// - Parameters:
    ///   - rows: Red, green, blue out; each row the weights of red, green, blue in.
    ///   - bias: Added to each output channel.
    public init(rows: [SIMD3<Double>], bias: SIMD3<Double> = .zero) {
        precondition(rows.count == 3, "a colour matrix has three rows")
        self.rows = rows
        self.bias = bias
    }

    /// The matrix that changes nothing.
    public static let identity = ColourMatrix(rows: [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)])

    /// A matrix that scales each channel.
    /// - Parameter factors: Red's, green's and blue's factors.
    /// - Returns: The matrix.
    public static func scaling(_ factors: SIMD3<Double>) -> ColourMatrix {
        ColourMatrix(rows: [SIMD3(factors.x, 0, 0), SIMD3(0, factors.y, 0), SIMD3(0, 0, factors.z)])
    }

    /// This matrix applied to a colour.
    /// - Parameter colour: Red, green, blue, 0…1.
    /// - Returns: The transformed colour (not clamped).
    public func apply(_ colour: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((rows[0] * colour).sum(), (rows[1] * colour).sum(), (rows[2] * colour).sum()) + bias
    }

    /// `self` after `first`: one matrix doing both.
    /// - Parameter first: The matrix applied first.
    /// - Returns: The product.
    public func after(_ first: ColourMatrix) -> ColourMatrix {
        let columns = (0..<3).map { column in SIMD3(first.rows[0][column], first.rows[1][column], first.rows[2][column]) }
        let rows = self.rows.map { row in SIMD3((row * columns[0]).sum(), (row * columns[1]).sum(), (row * columns[2]).sum()) }
        return ColourMatrix(rows: rows, bias: apply(first.bias))
    }

    /// How far an error can grow through the matrix: the largest row sum of magnitudes (the ∞-norm).
    var gain: Double { rows.map { abs($0).sum() }.max() ?? 0 }

    /// Whether every colour in the unit cube stays in it, so clamping after the matrix changes nothing.
    var keepsColoursInRange: Bool {
        for corner in 0..<8 {
            let colour = SIMD3<Double>(Double(corner & 1), Double(corner >> 1 & 1), Double(corner >> 2 & 1))
            let mapped = apply(colour)
            if mapped.min() < -1e-9 || mapped.max() > 1 + 1e-9 { return false }
        }
        return true
    }

    /// The rows and bias, rounded.
    public var description: String {
        let row = { (index: Int) in
            let values = (0..<3).map { Self.format(self.rows[index][$0]) } + [Self.format(self.bias[index])]
            return "[" + values.joined(separator: " ") + "]"
        }
        return "\(row(0)) \(row(1)) \(row(2))"
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == 0 ? "0" : String(rounded)
    }
}

private func abs(_ vector: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(Swift.abs(vector.x), Swift.abs(vector.y), Swift.abs(vector.z))
}

/// Three 256-entry tables, red, green, blue: each input level's output level.
public struct ChannelCurves: Sendable, Equatable {
    /// Red's 256 output values, by input value.
    public var red: [UInt8]
    /// Green's 256 output values, by input value.
    public var green: [UInt8]
    /// Blue's 256 output values, by input value.
    public var blue: [UInt8]

    /// Tabulates a curve per channel: `curve(channel, x)` for x in 0…1 and channel 0 (red), 1, 2,
    /// rounded to the nearest level and kept within 0…255.
    /// - Parameter curve: The curve per channel.
    public init(_ curve: (Int, Double) -> Double) {
        func table(_ channel: Int) -> [UInt8] {
            (0...255).map { level in ColourProgram.level(255 * curve(channel, Double(level) / 255)) }
        }
        red = table(0)
        green = table(1)
        blue = table(2)
    }

    /// The same curve on every channel.
    /// - Parameter curve: The curve, 0…1 to 0…1.
    public init(every curve: (Double) -> Double) {
        let table = (0...255).map { level in ColourProgram.level(255 * curve(Double(level) / 255)) }
        red = table
        green = table
        blue = table
    }

    init(red: [UInt8], green: [UInt8], blue: [UInt8]) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `self` after `first`: exactly what applying both tables one after the other gives.
    func after(_ first: ChannelCurves) -> ChannelCurves {
        ChannelCurves(red: first.red.map { red[Int($0)] }, green: first.green.map { green[Int($0)] },
                      blue: first.blue.map { blue[Int($0)] })
    }

    /// The most two outputs differ for inputs at most `spread` levels apart.
    func spread(_ spread: Int) -> Int {
        guard spread > 0 else { return 0 }
        var widest = 0
        for table in [red, green, blue] {
            for low in 0..<256 {
                for high in low...min(255, low + spread) {
                    widest = max(widest, abs(Int(table[high]) - Int(table[low])))
                }
            }
        }
        return widest
    }
}

/// Colour operations that mix the channels non-linearly, computed per pixel.
public enum ColourMix: Sendable, Equatable {
    /// Saturation raised (amount > 0) or lowered most where colours are dull, sparing saturated ones
    /// (skin): out = c + (max − c)·(max − mean)·(−3·amount).
    case vibrance(amount: Double)
    /// Each pixel scaled by how its luma L moves: shadows lifted (shadowAmount > 0) or deepened, highlights
    /// pulled down (highlightAmount < 1); hue and saturation kept.
    case highlightShadow(highlightAmount: Double, shadowAmount: Double)

    /// The mix applied to one colour, each channel 0…1 (not clamped).
    /// - Parameter colour: Red, green, blue, 0…1.
    /// - Returns: The mixed colour.
    public func apply(_ colour: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .vibrance(let amount):
            let maximum = colour.max()
            let mean = (colour.x + colour.y + colour.z) / 3
            let weight = (maximum - mean) * Float(-3 * amount)
            return colour + (SIMD3(repeating: maximum) - colour) * weight
        case .highlightShadow(let highlightAmount, let shadowAmount):
            let luma = Float(Self.luma.x) * colour.x + Float(Self.luma.y) * colour.y + Float(Self.luma.z) * colour.z
            guard luma > 0 else { return colour }
            let target = Self.toned(luma, highlightAmount: Float(highlightAmount), shadowAmount: Float(shadowAmount))
            return colour * (target / luma)
        }
    }

    /// Rec. 709 luma weights of red, green and blue, as Core Image weighs them.
    static let luma = SIMD3<Double>(0.2126, 0.7152, 0.0722)

    /// The new luma: shadows move by a bump that peaks in the dark quarter and vanishes at black and at
    /// mid-gray; highlights by its mirror image.
    static func toned(_ luma: Float, highlightAmount: Float, shadowAmount: Float) -> Float {
        // The bump of GPUImage's highlight/shadow filter: x^(1/(a+1)) − 0.76·x^(2/(a+1)) − x, clipped at 0.
        func bump(_ x: Float, _ amount: Float) -> Float {
            let power = 1 / (amount + 1)
            return max(0, powf(x, power) - 0.76 * powf(x, 2 * power) - x)
        }
        let shadow = shadowAmount >= 0 ? bump(luma, shadowAmount) : -bump(luma, -shadowAmount) * 0.5
        let highlight = -bump(1 - luma, 1 - highlightAmount)
        return luma + shadow + highlight
    }
}

/// A stage whose whole work is one ``ColourOperation``: a pipeline fuses it with its neighbours.
public protocol ColourOperationStage: Stage {
    /// What the stage does to each pixel.
    var operation: ColourOperation { get }
}

extension ColourOperationStage {
    /// The operation alone, in one pass: exactly what a fused run does when the stage stands alone.
    /// - Parameter frame: The frame, in any pixel format.
    /// - Returns: The frame with the operation applied to its image.
    /// - Throws: ``OcularError`` when the image cannot be converted or OpenCV fails.
    public func process(_ frame: Frame) throws -> Frame {
        var frame = frame
        frame.image = try ColourProgram([(Self.name, operation)]).apply(to: frame.image)
        return frame
    }
}

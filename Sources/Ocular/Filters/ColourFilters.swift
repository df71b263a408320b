import Foundation

/// The Core Image–style colour filters. Names and parameters follow Core Image's (CISepiaTone's
/// inputIntensity is `intensity`); angles are in degrees where Core Image takes radians. Each is one
/// ``ColourOperation`` on red, green, blue in 0…1 as stored (sRGB encoded) — exposure alone works in
/// linear light, as a camera's exposure does — so a pipeline fuses runs of them into one pass.

/// Marks the Core Image–style filters, which the studio's Filters page lists.
public protocol FilterStage: Stage {}

/// The sepia matrix of the classic definition (R′ = .393 R + .769 G + .189 B …), faded in by intensity.
public struct SepiaToneFilter: ColourOperationStage, FilterStage {
    public static let name = "sepiaTone"
    public static let title = "Sepia tone"
    public static let category = StageCategory.colourEffect
    public static let summary = "Tones the picture brown like an old photograph; intensity fades it in from the original."
    /// The “Intensity” parameter: 0 leaves the picture as it is, 1 is full sepia.
    public static let intensity = Key<Double>.number("intensity", title: "Intensity", in: 0...1, step: 0.01, default: 1,
                                                     help: "0 leaves the picture as it is, 1 is full sepia.")
    public static let parameters = declared(intensity)

    /// Rows red, green, blue out; columns red, green, blue in.
    public static let sepia = ColourMatrix(rows: [SIMD3(0.393, 0.769, 0.189), SIMD3(0.349, 0.686, 0.168), SIMD3(0.272, 0.534, 0.131)])

    /// The value of the `intensity` parameter this stage was built with.
    public let intensity: Double

    public init(_ values: StageValues) {
        intensity = values[Self.intensity]
    }

    public var operation: ColourOperation {
        let rows = (0..<3).map { row in Self.sepia.rows[row] * intensity + ColourMatrix.identity.rows[row] * (1 - intensity) }
        return .matrix(ColourMatrix(rows: rows))
    }
}

/// Saturation, brightness and contrast: saturation mixes each colour with its luma, then
/// out = (in − 0.5)·contrast + 0.5 + brightness.
public struct ColourControlsFilter: ColourOperationStage, FilterStage {
    public static let name = "colorControls"
    public static let title = "Colour controls"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Saturation, brightness and contrast in one filter, as a photo editor's three basic sliders."
    /// The “Saturation” parameter: 0 is gray (each colour's luma), 1 unchanged, 2 twice as far from gray.
    public static let saturation = Key<Double>.number("saturation", title: "Saturation", in: 0...2, step: 0.01, default: 1,
                                                      help: "0 is gray (each colour's luma), 1 unchanged, 2 twice as far from gray.")
    /// The “Brightness” parameter: Added to every channel (1 is the full range).
    public static let brightness = Key<Double>.number("brightness", title: "Brightness", in: -1...1, step: 0.01, default: 0,
                                                      help: "Added to every channel (1 is the full range).")
    /// The “Contrast” parameter: Stretches values away from mid-gray (0.5) by this factor.
    public static let contrast = Key<Double>.number("contrast", title: "Contrast", in: 0.25...4, step: 0.01, default: 1,
                                                    help: "Stretches values away from mid-gray (0.5) by this factor.")
    public static let parameters = declared(saturation, brightness, contrast)

    /// The values of the `saturation`, `brightness`, `contrast` parameters this stage was built with.
    public let saturation, brightness, contrast: Double

    public init(_ values: StageValues) {
        saturation = values[Self.saturation]
        brightness = values[Self.brightness]
        contrast = values[Self.contrast]
    }

    public var operation: ColourOperation {
        let luma = ColourMix.luma
        let rows = (0..<3).map { row in
            var weights = luma * (1 - saturation)
            weights[row] += saturation
            return weights * contrast
        }
        return .matrix(ColourMatrix(rows: rows, bias: SIMD3(repeating: 0.5 - 0.5 * contrast + brightness)))
    }
}

/// Any linear mix of the channels plus a bias: out.r = rVector · (r, g, b) + bias.r, and so on.
public struct ColourMatrixFilter: ColourOperationStage, FilterStage {
    public static let name = "colorMatrix"
    public static let title = "Colour matrix"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Each output channel a weighted sum of red, green and blue plus a bias: swaps, mixes and channel tricks."

    private static func weight(_ vector: String, _ channel: String, _ value: Double) -> Key<Double> {
        .number("\(vector)Vector\(channel)", title: "\(vector.uppercased()) from \(channel)", in: -2...2, step: 0.01, default: value,
                help: "How much of input \(channel == "R" ? "red" : channel == "G" ? "green" : "blue") goes into output "
                    + (vector == "r" ? "red" : vector == "g" ? "green" : "blue") + ".")
    }

    private static func bias(_ channel: String) -> Key<Double> {
        .number("biasVector\(channel)", title: "Bias \(channel)", in: -1...1, step: 0.01, default: 0,
                help: "Added to output \(channel == "R" ? "red" : channel == "G" ? "green" : "blue") (1 is the full range).")
    }

    /// The red output's weights: `rVectorR` × red + `rVectorG` × green + `rVectorB` × blue.
    public static let rVectorR = weight("r", "R", 1), rVectorG = weight("r", "G", 0), rVectorB = weight("r", "B", 0)
    /// The green output's weights.
    public static let gVectorR = weight("g", "R", 0), gVectorG = weight("g", "G", 1), gVectorB = weight("g", "B", 0)
    /// The blue output's weights.
    public static let bVectorR = weight("b", "R", 0), bVectorG = weight("b", "G", 0), bVectorB = weight("b", "B", 1)
    /// What is added to each output channel (1 is the full range).
    public static let biasVectorR = bias("R"), biasVectorG = bias("G"), biasVectorB = bias("B")
    public static let parameters = declared(rVectorR, rVectorG, rVectorB, gVectorR, gVectorG, gVectorB, bVectorR, bVectorG, bVectorB,
                                            biasVectorR, biasVectorG, biasVectorB)

    /// The matrix the parameters make.
    public let matrix: ColourMatrix

    public init(_ values: StageValues) {
        matrix = ColourMatrix(rows: [SIMD3(values[Self.rVectorR], values[Self.rVectorG], values[Self.rVectorB]),
                                     SIMD3(values[Self.gVectorR], values[Self.gVectorG], values[Self.gVectorB]),
                                     SIMD3(values[Self.bVectorR], values[Self.bVectorG], values[Self.bVectorB])],
                              bias: SIMD3(values[Self.biasVectorR], values[Self.biasVectorG], values[Self.biasVectorB]))
    }

    public var operation: ColourOperation { .matrix(matrix) }
}

/// Light multiplied by 2^EV, in linear light (sRGB decoded, scaled, encoded again), as opening the
/// lens by EV stops would.
public struct ExposureAdjustFilter: ColourOperationStage, FilterStage {
    public static let name = "exposureAdjust"
    public static let title = "Exposure"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Brightens or darkens as a camera's exposure would: every +1 EV doubles the light."
    /// The “EV” parameter: Stops: the light is multiplied by 2 to this power.
    public static let ev = Key<Double>.number("ev", title: "EV", in: -10...10, step: 0.05, default: 0,
                                              help: "Stops: the light is multiplied by 2 to this power.")
    public static let parameters = declared(ev)

    /// The value of the `ev` parameter this stage was built with.
    public let ev: Double

    public init(_ values: StageValues) {
        ev = values[Self.ev]
    }

    public var operation: ColourOperation {
        let factor = pow(2, ev)
        return .curves(ChannelCurves(every: { sRGBEncoded(sRGBDecoded($0) * factor) }))
    }
}

/// out = in^power on each channel.
public struct GammaAdjustFilter: ColourOperationStage, FilterStage {
    public static let name = "gammaAdjust"
    public static let title = "Gamma"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Raises every value to a power: above 1 darkens the mid-tones, below 1 lightens them; black and white stay."
    /// The “Power” parameter: The exponent: 1 leaves the picture as it is.
    public static let power = Key<Double>.number("power", title: "Power", in: 0.25...4, step: 0.01, default: 1,
                                                 help: "The exponent: 1 leaves the picture as it is.")
    public static let parameters = declared(power)

    /// The value of the `power` parameter this stage was built with.
    public let power: Double

    public init(_ values: StageValues) {
        power = values[Self.power]
    }

    public var operation: ColourOperation {
        let power = power
        return .curves(ChannelCurves(every: { Foundation.pow($0, power) }))
    }
}

/// Colours turned around the gray axis by an angle: a rotation of RGB space about (1, 1, 1), so at
/// 120° red becomes green, green blue and blue red, and grays stay.
public struct HueAdjustFilter: ColourOperationStage, FilterStage {
    public static let name = "hueAdjust"
    public static let title = "Hue"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Turns every hue around the colour wheel by an angle; grays stay gray."
    /// The “Angle” parameter: Degrees around the wheel (Core Image takes radians): 120 takes red to green.
    public static let angle = Key<Double>.number("angle", title: "Angle", in: -180...180, step: 1, default: 0,
                                                 help: "Degrees around the wheel (Core Image takes radians): 120 takes red to green.")
    public static let parameters = declared(angle)

    /// The value of the `angle` parameter this stage was built with.
    public let angle: Double

    public init(_ values: StageValues) {
        angle = values[Self.angle]
    }

    public var operation: ColourOperation {
        // Rodrigues' rotation about the unit vector (1, 1, 1)/√3.
        let radians = angle * .pi / 180
        let (c, s) = (cos(radians), sin(radians))
        let third = (1 - c) / 3, axis = s / 3.0.squareRoot()
        return .matrix(ColourMatrix(rows: [SIMD3(c + third, third - axis, third + axis),
                                           SIMD3(third + axis, c + third, third - axis),
                                           SIMD3(third - axis, third + axis, c + third)]))
    }
}

/// Shadows lifted or deepened and highlights pulled down by how each pixel's luma moves, colours kept.
/// (Core Image's filter also looks at a neighbourhood, by a radius; this one is point-wise, so it fuses.)
public struct HighlightShadowAdjustFilter: ColourOperationStage, FilterStage {
    public static let name = "highlightShadowAdjust"
    public static let title = "Highlights and shadows"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Brings back detail at both ends: lifts the shadows and pulls the highlights down, keeping colours."
    /// The “Highlights” parameter: 1 leaves highlights as they are; lower pulls them down.
    public static let highlightAmount = Key<Double>.number("highlightAmount", title: "Highlights", in: 0.3...1, step: 0.01, default: 1,
                                                           help: "1 leaves highlights as they are; lower pulls them down.")
    /// The “Shadows” parameter: Above 0 lifts the shadows, below 0 deepens them.
    public static let shadowAmount = Key<Double>.number("shadowAmount", title: "Shadows", in: -1...1, step: 0.01, default: 0,
                                                        help: "Above 0 lifts the shadows, below 0 deepens them.")
    public static let parameters = declared(highlightAmount, shadowAmount)

    /// The values of the `highlightAmount`, `shadowAmount` parameters this stage was built with.
    public let highlightAmount, shadowAmount: Double

    public init(_ values: StageValues) {
        highlightAmount = values[Self.highlightAmount]
        shadowAmount = values[Self.shadowAmount]
    }

    public var operation: ColourOperation { .mix(.highlightShadow(highlightAmount: highlightAmount, shadowAmount: shadowAmount)) }
}

/// White balance by colour temperature: the white of the light the picture was taken in (neutral) is
/// taken to the white of the target, channel by channel in linear light (von Kries).
public struct TemperatureAndTintFilter: ColourOperationStage, FilterStage {
    public static let name = "temperatureAndTint"
    public static let title = "Temperature and tint"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Corrects the colour of the light: say what light the picture was taken in and what it should look like."
    /// The “Neutral temperature” parameter: Kelvin of the light the picture was taken in (tungsten about 3000, daylight 6500).
    public static let neutralTemperature = Key<Double>.number(
        "neutralTemperature", title: "Neutral temperature", in: 2000...12000, step: 50, default: 6500,
        help: "Kelvin of the light the picture was taken in (tungsten about 3000, daylight 6500).")
    /// The “Neutral tint” parameter: That light's tint: above 0 magenta, below 0 green.
    public static let neutralTint = Key<Double>.number(
        "neutralTint", title: "Neutral tint", in: -150...150, step: 1, default: 0, help: "That light's tint: above 0 magenta, below 0 green.")
    /// The “Target temperature” parameter: Kelvin the picture should look lit by; lower than neutral warms it.
    public static let targetTemperature = Key<Double>.number(
        "targetTemperature", title: "Target temperature", in: 2000...12000, step: 50, default: 6500,
        help: "Kelvin the picture should look lit by; lower than neutral warms it.")
    /// The “Target tint” parameter: The tint it should look lit by.
    public static let targetTint = Key<Double>.number("targetTint", title: "Target tint", in: -150...150, step: 1, default: 0,
                                                      help: "The tint it should look lit by.")
    public static let parameters = declared(neutralTemperature, neutralTint, targetTemperature, targetTint)

    /// The temperature (kelvin) and tint of the light the picture was taken in.
    public let neutral: (temperature: Double, tint: Double)
    /// The temperature (kelvin) and tint it is shown as.
    public let target: (temperature: Double, tint: Double)

    public init(_ values: StageValues) {
        neutral = (values[Self.neutralTemperature], values[Self.neutralTint])
        target = (values[Self.targetTemperature], values[Self.targetTint])
    }

    public var operation: ColourOperation {
        let from = Self.white(neutral.temperature, tint: neutral.tint), to = Self.white(target.temperature, tint: target.tint)
        // Scaling linear light by k scales sRGB-encoded values by about k^(1/2.2): one matrix, fusable.
        let factors = to / from
        return .matrix(.scaling(SIMD3(pow(factors.x, 1 / 2.2), pow(factors.y, 1 / 2.2), pow(factors.z, 1 / 2.2))))
    }

    /// The linear-sRGB colour of white light of `kelvin` on the Planckian locus (Kim et al.'s cubic fit),
    /// moved toward magenta by `tint` (green scaled by 1 − tint/500), normalised to green 1 at 0 tint.
    static func white(_ kelvin: Double, tint: Double) -> SIMD3<Double> {
        let t = kelvin, t2 = t * t, t3 = t2 * t
        let x = t <= 4000 ? -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910
            : -3.0258469e9 / t3 + 2.1070379e6 / t2 + 0.2226347e3 / t + 0.240390
        let x2 = x * x, x3 = x2 * x
        let y = t <= 2222 ? -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683
            : t <= 4000 ? -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867
            : 3.0817580 * x3 - 5.87338670 * x2 + 3.75112997 * x - 0.37001483
        let (X, Z) = (x / y, (1 - x - y) / y)
        var rgb = SIMD3(3.2406 * X - 1.5372 - 0.4986 * Z, -0.9689 * X + 1.8758 + 0.0415 * Z, 0.0557 * X - 0.2040 + 1.0570 * Z)
        rgb /= rgb.y
        rgb.y *= 1 - tint / 500
        return rgb
    }
}

/// Tone curve through five points, a monotone cubic (Fritsch–Carlson) between them: it never
/// overshoots, so a rising curve keeps the order of values.
public struct ToneCurveFilter: ColourOperationStage, FilterStage {
    public static let name = "toneCurve"
    public static let title = "Tone curve"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Reshapes the tones through five points, from shadows to highlights (an S-curve adds contrast)."
    /// The “Point 0” parameter: Input and output of the darkest point.
    public static let point0 = Key<Point>.point("point0", title: "Point 0", default: Point(x: 0, y: 0), help: "Input and output of the darkest point.")
    /// The “Point 1” parameter: The shadows' point.
    public static let point1 = Key<Point>.point("point1", title: "Point 1", default: Point(x: 0.25, y: 0.25), help: "The shadows' point.")
    /// The “Point 2” parameter: The mid-tones' point.
    public static let point2 = Key<Point>.point("point2", title: "Point 2", default: Point(x: 0.5, y: 0.5), help: "The mid-tones' point.")
    /// The “Point 3” parameter: The highlights' point.
    public static let point3 = Key<Point>.point("point3", title: "Point 3", default: Point(x: 0.75, y: 0.75), help: "The highlights' point.")
    /// The “Point 4” parameter: Input and output of the lightest point.
    public static let point4 = Key<Point>.point("point4", title: "Point 4", default: Point(x: 1, y: 1), help: "Input and output of the lightest point.")
    public static let parameters = declared(point0, point1, point2, point3, point4)

    /// The curve's five points, x and y in 0…1.
    public let points: [Point]

    public init(_ values: StageValues) throws(StageError) {
        points = [values[Self.point0], values[Self.point1], values[Self.point2], values[Self.point3], values[Self.point4]]
        for index in 1..<points.count where points[index].x <= points[index - 1].x {
            throw StageError(stage: Self.name, parameter: "point\(index)",
                             reason: "the points' inputs (x) must rise from point0 to point4; point\(index) has x \(points[index].x), point\(index - 1) \(points[index - 1].x)")
        }
    }

    public var operation: ColourOperation {
        let spline = MonotoneCubic(points)
        return .curves(ChannelCurves(every: spline.value))
    }
}

/// A monotone cubic Hermite spline (Fritsch–Carlson) through points with rising x; flat beyond the ends.
struct MonotoneCubic: Sendable {
    let xs: [Double], ys: [Double], slopes: [Double]

    init(_ points: [Point]) {
        xs = points.map(\.x)
        ys = points.map(\.y)
        let count = points.count
        var secants: [Double] = []
        for index in 0..<(count - 1) { secants.append((ys[index + 1] - ys[index]) / (xs[index + 1] - xs[index])) }
        var slopes = [Double](repeating: 0, count: count)
        slopes[0] = secants[0]
        slopes[count - 1] = secants[count - 2]
        for index in 1..<(count - 1) {
            slopes[index] = secants[index - 1] * secants[index] <= 0 ? 0 : (secants[index - 1] + secants[index]) / 2
        }
        for index in 0..<(count - 1) {
            if secants[index] == 0 {
                slopes[index] = 0
                slopes[index + 1] = 0
                continue
            }
            let a: Double = slopes[index] / secants[index], b: Double = slopes[index + 1] / secants[index]
            let length: Double = a * a + b * b
            if length > 9 {
                let scale: Double = 3 / length.squareRoot()
                slopes[index] = scale * a * secants[index]
                slopes[index + 1] = scale * b * secants[index]
            }
        }
        self.slopes = slopes
    }

    func value(_ x: Double) -> Double {
        if x <= xs[0] { return ys[0] }
        if x >= xs[xs.count - 1] { return ys[ys.count - 1] }
        var index = 0
        while x > xs[index + 1] { index += 1 }
        let width = xs[index + 1] - xs[index], t = (x - xs[index]) / width
        let t2: Double = t * t, t3: Double = t2 * t
        let startWeight: Double = 2 * t3 - 3 * t2 + 1, endWeight: Double = 3 * t2 - 2 * t3
        let startSlope: Double = (t3 - 2 * t2 + t) * width, endSlope: Double = (t3 - t2) * width
        return startWeight * ys[index] + startSlope * slopes[index] + endWeight * ys[index + 1] + endSlope * slopes[index + 1]
    }
}

/// More saturation where colours are dull, less change where they are already vivid (skin tones stay).
public struct VibranceFilter: ColourOperationStage, FilterStage {
    public static let name = "vibrance"
    public static let title = "Vibrance"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Saturates dull colours more than vivid ones, so skin stays natural while a gray sky turns blue."
    /// The “Amount” parameter: Above 0 more vivid, below 0 more muted.
    public static let amount = Key<Double>.number("amount", title: "Amount", in: -1...1, step: 0.01, default: 0,
                                                  help: "Above 0 more vivid, below 0 more muted.")
    public static let parameters = declared(amount)

    /// The value of the `amount` parameter this stage was built with.
    public let amount: Double

    public init(_ values: StageValues) {
        amount = values[Self.amount]
    }

    public var operation: ColourOperation { .mix(.vibrance(amount: amount)) }
}

/// Every channel scaled so that white becomes the given colour.
public struct WhitePointAdjustFilter: ColourOperationStage, FilterStage {
    public static let name = "whitePointAdjust"
    public static let title = "White point"
    public static let category = StageCategory.colourAdjustment
    public static let summary = "Moves white to a colour, scaling everything with it (a warm white warms the whole picture)."
    /// The “White becomes” parameter: The colour white turns into; each channel is scaled by it.
    public static let colour = Key<Colour>.colour("color", title: "White becomes", default: .white,
                                                 help: "The colour white turns into; each channel is scaled by it.")
    public static let parameters = declared(colour)

    /// The value of the `color` parameter this stage was built with.
    public let colour: Colour

    public init(_ values: StageValues) {
        colour = values[Self.colour]
    }

    public var operation: ColourOperation {
        .matrix(.scaling(SIMD3(Double(colour.red), Double(colour.green), Double(colour.blue)) / 255))
    }
}

/// sRGB's transfer function, 0…1 both ways.
func sRGBDecoded(_ value: Double) -> Double {
    value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
}

func sRGBEncoded(_ value: Double) -> Double {
    value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
}

/// The tutorial's image filtering samples: sepia, negative, and contrast with brightness. Each keeps the
/// frame's format (YUV becomes BGR) and its alpha.

/// The classic sepia tone: each colour a fixed mix of red, green and blue (the tutorial's matrix).
public struct SepiaStage: Stage {
    public static let name = "sepia"
    public static let title = "Sepia"
    public static let category = StageCategory.sample
    public static let summary = "Brown-toned like an old photograph (the classic 3×3 sepia matrix); use it for a vintage look."
    public static let parameters: [ParameterDescriptor] = []

    /// The tutorial's rows, for blue, green and red out; each row's columns weigh red, green and blue in,
    /// as the classic definition (R′ = .393 R + .769 G + .189 B): the numbers of ``SepiaToneFilter/sepia``,
    /// which at intensity 1 is the same tone through the filters' fused colour pass.
    public static let matrix: [[Float]] = [2, 1, 0].map { out in (0..<3).map { Float(SepiaToneFilter.sepia.rows[out][$0]) } }

    public init(_ values: StageValues) {}

    /// The matrix for `format`'s channel order (and alpha kept), rows out × columns in.
    static func matrix(for format: PixelFormat) -> [Float] {
        guard let order = format.rgbOffsets else { return [] }
        let channels = format.channels
        var matrix = [Float](repeating: 0, count: channels * channels)
        let rows = [order.blue: Self.matrix[0], order.green: Self.matrix[1], order.red: Self.matrix[2]]
        for (out, weights) in rows {
            matrix[out * channels + order.red] = weights[0]
            matrix[out * channels + order.green] = weights[1]
            matrix[out * channels + order.blue] = weights[2]
        }
        if format.hasAlpha { matrix[3 * channels + 3] = 1 }
        return matrix
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        // A gray frame has no colour to tone: it becomes BGR first.
        let image = frame.image.format.rgbOffsets == nil ? try frame.image.converted(to: .bgr8) : frame.image
        frame.image = try image.transformed(by: Self.matrix(for: image.format), into: image.format)
        return frame
    }
}

/// Every value inverted: 255 − v.
public struct NegativeStage: Stage {
    public static let name = "negative"
    public static let title = "Negative"
    public static let category = StageCategory.sample
    public static let summary = "Inverts every colour (255 − value), like a film negative; use it to read dark detail or to scan negatives."
    public static let parameters: [ParameterDescriptor] = []

    public init(_ values: StageValues) {}

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        frame.image = try frame.image.inverted()
        return frame
    }
}

/// out = contrast × in + brightness, rounded and kept within 0…255 (OpenCV's convertTo).
public struct ContrastBrightnessStage: Stage {
    public static let name = "contrastBrightness"
    public static let title = "Contrast and brightness"
    public static let category = StageCategory.sample
    public static let summary = "Stretches (contrast above 1) or flattens values and shifts them brighter or darker; "
        + "use it to rescue a dull or badly exposed frame."

    /// The “Contrast” parameter: Multiplies every value: 0 is flat gray at the brightness, 1 unchanged, 2 double.
    public static let contrast = Key<Double>.number("contrast", title: "Contrast", in: 0...2, step: 0.05, default: 1,
                                                    help: "Multiplies every value: 0 is flat gray at the brightness, 1 unchanged, 2 double.")
    /// The “Brightness” parameter: Added to every value after the contrast.
    public static let brightness = Key<Double>.number("brightness", title: "Brightness", in: -128...128, step: 1, default: 0,
                                                      help: "Added to every value after the contrast.")
    public static let parameters = declared(contrast, brightness)

    /// The value of the `contrast` parameter this stage was built with.
    public let contrast: Double
    /// The value of the `brightness` parameter this stage was built with.
    public let brightness: Double

    public init(_ values: StageValues) {
        contrast = values[Self.contrast]
        brightness = values[Self.brightness]
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        frame.image = try frame.image.scaledValues(contrast: contrast, brightness: brightness)
        return frame
    }
}

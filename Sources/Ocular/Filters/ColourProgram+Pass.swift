import Foundation

extension ColourProgram {
    /// The program run over an image in one pass, rows spread over the cores. Alpha is kept; a gray or
    /// YUV image becomes BGR first (colour filters give colour).
    /// - Parameter image: The image.
    /// - Returns: The processed image.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func apply(to image: Image) throws(OcularError) -> Image {
        let source = image.format.rgbOffsets == nil ? try image.converted(to: .bgr8) : image
        guard let order = source.format.rgbOffsets else { return source }
        // Curves alone are one table per channel: cv::LUT gives exactly what the pass would, faster.
        if steps.count == 1, case .curves(let curves) = steps[0].work {
            return try source.mapped(red: curves.red, green: curves.green, blue: curves.blue)
        }
        let kernel = Kernel(steps)
        let (width, height, channels, inputStride) = (source.width, source.height, source.format.channels, source.bytesPerRow)
        let outputStride = source.format.minimumBytesPerRow(width: width)
        return try Image(width: width, height: height, format: source.format) { (output) throws(OcularError) in
            source.bytes.withUnsafeBufferPointer { input in
                // Each band writes its own rows only.
                guard let base = input.baseAddress, let target = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                nonisolated(unsafe) let (input, output) = (base, target)
                // Bands of rows: enough for the cores to share evenly, few enough to cost nothing.
                let pixels = width * height
                let bands = pixels < 1 << 16 ? 1 : min(height, ProcessInfo.processInfo.activeProcessorCount * 4)
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let rows = (height * band / bands)..<(height * (band + 1) / bands)
                    kernel.run(rows: rows, width: width, channels: channels, order: order,
                               input: input, inputStride: inputStride, output: output, outputStride: outputStride)
                }
            }
        }
    }
}

/// The steps laid out for the pass: coefficients in levels (0…255), tables as floats.
private struct Kernel {
    enum Step {
        /// Rows red, green, blue of (r, g, b, bias), bias in levels.
        case matrix([Float], rounds: Bool)
        /// 256 entries each for red, green, blue.
        case tables([Float])
        case vibrance(Float, rounds: Bool)
        case highlightShadow(highlightAmount: Float, shadowAmount: Float, rounds: Bool)
    }

    let steps: [Step]

    init(_ steps: [ColourProgram.Step]) {
        self.steps = steps.enumerated().map { index, step in
            // A table's lookup and the final store round as they read (byte(_:)); only a step that
            // computes with the value next needs it rounded here.
            let rounds: Bool
            switch steps.dropFirst(index + 1).first?.work {
            case .matrix, .mix: rounds = true
            case .curves, nil: rounds = false
            }
            switch step.work {
            case .matrix(let matrix):
                return .matrix((0..<3).flatMap { row in
                    [Float(matrix.rows[row].x), Float(matrix.rows[row].y), Float(matrix.rows[row].z), Float(255 * matrix.bias[row])]
                }, rounds: rounds)
            case .curves(let curves):
                return .tables((curves.red + curves.green + curves.blue).map(Float.init))
            case .mix(.vibrance(let amount)):
                return .vibrance(Float(amount), rounds: rounds)
            case .mix(.highlightShadow(let highlightAmount, let shadowAmount)):
                return .highlightShadow(highlightAmount: Float(highlightAmount), shadowAmount: Float(shadowAmount), rounds: rounds)
            }
        }
    }

    /// Pixels taken through the steps at a time: three planes of this many floats stay in the L1 cache.
    static let chunk = 512

    func run(rows: Range<Int>, width: Int, channels: Int, order: (red: Int, green: Int, blue: Int),
             input: UnsafePointer<UInt8>, inputStride: Int, output: UnsafeMutablePointer<UInt8>, outputStride: Int) {
        // The common layouts with their offsets as constants, so that the loops moving pixels in and out vectorise.
        switch (channels, order.red, order.blue) {
        case (3, 2, 0): run(rows, width, 3, (2, 1, 0), input, inputStride, output, outputStride)
        case (3, 0, 2): run(rows, width, 3, (0, 1, 2), input, inputStride, output, outputStride)
        case (4, 2, 0): run(rows, width, 4, (2, 1, 0), input, inputStride, output, outputStride)
        default: run(rows, width, channels, order, input, inputStride, output, outputStride)
        }
    }

    @inline(__always)
    private func run(_ rows: Range<Int>, _ width: Int, _ channels: Int, _ order: (red: Int, green: Int, blue: Int),
                     _ input: UnsafePointer<UInt8>, _ inputStride: Int, _ output: UnsafeMutablePointer<UInt8>, _ outputStride: Int) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * Self.chunk) { planes in
            let red = planes.baseAddress!, green = red + Self.chunk, blue = green + Self.chunk
            for row in rows {
                var start = 0
                while start < width {
                    let count = min(Self.chunk, width - start)
                    let from = input + row * inputStride + start * channels
                    let to = output + row * outputStride + start * channels
                    for index in 0..<count {
                        red[index] = Float(from[index * channels + order.red])
                        green[index] = Float(from[index * channels + order.green])
                        blue[index] = Float(from[index * channels + order.blue])
                    }
                    for step in steps { Self.apply(step, red, green, blue, count) }
                    // Every step leaves whole levels within 0…255: the byte is the float's low mantissa bits.
                    for index in 0..<count {
                        to[index * channels + order.red] = Self.byte(red[index])
                        to[index * channels + order.green] = Self.byte(green[index])
                        to[index * channels + order.blue] = Self.byte(blue[index])
                    }
                    if channels == 4 {
                        for index in 0..<count { to[index * 4 + 3] = from[index * 4 + 3] }
                    }
                    start += count
                }
            }
        }
    }

    /// A whole level 0…255 held in a float, as its byte: adding 1.5·2²³ puts it in the low mantissa bits.
    /// (No trap, unlike UInt8(_:), so the loops vectorise.)
    @inline(__always)
    static func byte(_ level: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (level + 12_582_912).bitPattern)
    }

    /// Kept within 0…255 and rounded to the nearest level, ties to even (as OpenCV's saturate_cast):
    /// adding and taking away 1.5·2²³ leaves no fraction in a float, and unlike `rounded()` it vectorises.
    @inline(__always)
    static func level(_ value: Float) -> Float {
        let kept = value < 0 ? 0 : (value > 255 ? 255 : value)
        return (kept + 12_582_912) - 12_582_912
    }

    /// Kept within 0…255, left unrounded for a step that rounds as it reads.
    @inline(__always)
    static func kept(_ value: Float) -> Float {
        value < 0 ? 0 : (value > 255 ? 255 : value)
    }

    private static func apply(_ step: Step, _ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                              _ blue: UnsafeMutablePointer<Float>, _ count: Int) {
        switch step {
        case .matrix(let m, let rounds):
            let (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11])
            if rounds {
                for index in 0..<count {
                    let (r, g, b) = (red[index], green[index], blue[index])
                    red[index] = level(m0 * r + m1 * g + m2 * b + m3)
                    green[index] = level(m4 * r + m5 * g + m6 * b + m7)
                    blue[index] = level(m8 * r + m9 * g + m10 * b + m11)
                }
            } else {
                for index in 0..<count {
                    let (r, g, b) = (red[index], green[index], blue[index])
                    red[index] = kept(m0 * r + m1 * g + m2 * b + m3)
                    green[index] = kept(m4 * r + m5 * g + m6 * b + m7)
                    blue[index] = kept(m8 * r + m9 * g + m10 * b + m11)
                }
            }
        case .tables(let tables):
            tables.withUnsafeBufferPointer { table in
                let table = table.baseAddress!
                for index in 0..<count {
                    red[index] = table[Int(byte(red[index]))]
                    green[index] = table[256 + Int(byte(green[index]))]
                    blue[index] = table[512 + Int(byte(blue[index]))]
                }
            }
        case .vibrance(let amount, let rounds):
            // In levels: the weight (max − mean)·(−3·amount) reads max and mean as 0…1.
            let scale = -3 * amount / 255
            if rounds {
                for index in 0..<count {
                    let (r, g, b) = (red[index], green[index], blue[index])
                    let largest = r > g ? (r > b ? r : b) : (g > b ? g : b)
                    let weight = (largest - (r + g + b) * (1 / 3)) * scale
                    red[index] = level(r + (largest - r) * weight)
                    green[index] = level(g + (largest - g) * weight)
                    blue[index] = level(b + (largest - b) * weight)
                }
            } else {
                for index in 0..<count {
                    let (r, g, b) = (red[index], green[index], blue[index])
                    let largest = r > g ? (r > b ? r : b) : (g > b ? g : b)
                    let weight = (largest - (r + g + b) * (1 / 3)) * scale
                    red[index] = kept(r + (largest - r) * weight)
                    green[index] = kept(g + (largest - g) * weight)
                    blue[index] = kept(b + (largest - b) * weight)
                }
            }
        case .highlightShadow(let highlightAmount, let shadowAmount, _):
            let mix = ColourMix.highlightShadow(highlightAmount: Double(highlightAmount), shadowAmount: Double(shadowAmount))
            for index in 0..<count {
                let colour = mix.apply(SIMD3(red[index], green[index], blue[index]) / 255) * 255
                red[index] = level(colour.x)
                green[index] = level(colour.y)
                blue[index] = level(colour.z)
            }
        }
    }
}

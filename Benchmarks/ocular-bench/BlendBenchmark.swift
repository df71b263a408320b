// Blending: Ocular's one-pass blend against the textbook's op-by-op OpenCV sequence in C++ and in
// Python (cv2, Pillow's ImageChops), and every mode against the memory limit (a memcpy of the frame).
import BenchBaseline
import Foundation
import Ocular

/// The frames the blend rows use: a frame and a picture of the same size, BGRA, and what the textbook
/// caches of the picture (255 − picture for Screen, 255 − tinted edges for HUD).
struct BlendInputs {
    static let width = 1920, height = 1080
    let frame: [UInt8]
    let picture: [UInt8]
    let invertedPicture: [UInt8]
    let invertedEdges: [UInt8]
    /// The frame and the picture as Ocular images, for the Swift side.
    let frameImage: Image
    let pictureImage: Image
    var size: String { "\(Self.width)x\(Self.height)" }

    init(framePath: String, picturePath: String) throws {
        frame = try makeFrame(framePath, width: Self.width, height: Self.height)
        picture = try makeFrame(picturePath, width: Self.width, height: Self.height)
        invertedPicture = try Self.prepare(picture, baseline_invert)
        invertedEdges = try Self.prepare(picture, baseline_hud_inverted_edges)
        frameImage = try Image(width: Self.width, height: Self.height, format: .bgra8, bytes: frame)
        pictureImage = try Image(width: Self.width, height: Self.height, format: .bgra8, bytes: picture)
    }

    private static func prepare(_ bgra: [UInt8], _ body: (UnsafePointer<UInt8>, Int32, Int32, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<BaselineError>) -> Bool) throws -> [UInt8] {
        var error = BaselineError()
        var output = [UInt8](repeating: 0, count: bgra.count)
        let made = bgra.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { body(input.baseAddress!, Int32(width), Int32(height), $0.baseAddress!, &error) }
        }
        guard made else { throw BenchError(error) }
        return output
    }

    /// The modes timed against the textbook: Ocular's blend of the frame with the picture (its prepared
    /// source cached, as in a live stream), and the op-by-op sequence with the textbook's cached inverse.
    func operations() throws -> [Operation] {
        let (frameImage, pictureImage) = (frameImage, pictureImage)
        let (frame, picture, invertedPicture, invertedEdges) = (frame, picture, invertedPicture, invertedEdges)
        let (width, height) = (Int32(Self.width), Int32(Self.height))
        func ocular(_ mode: BlendMode) throws -> () throws -> [UInt8] {
            let blend = try Blend(source: pictureImage, mode: mode)
            return { try blend.apply(to: frameImage).bytes }
        }
        return [
            Operation(name: "screen", size: size, swift: try ocular(.screen)) {
                baseline_screen_textbook(frame, invertedPicture, width, height, $0, $1, $2, $3)
            },
            Operation(name: "hud", size: size, swift: try ocular(.hud)) {
                baseline_screen_textbook(frame, invertedEdges, width, height, $0, $1, $2, $3)
            },
            Operation(name: "multiply", size: size, swift: try ocular(.multiply)) {
                baseline_multiply_textbook(frame, picture, width, height, $0, $1, $2, $3)
            },
            Operation(name: "hue", size: size, swift: try ocular(.hue)) {
                baseline_hue_op_by_op(frame, picture, width, height, $0, $1, $2, $3)
            },
        ]
    }

    /// Every mode that reads the picture, Ocular only, for the memory-limit column.
    func everyMode() throws -> [(BlendMode, () throws -> [UInt8])] {
        let (frameImage, pictureImage) = (frameImage, pictureImage)
        return try BlendMode.allCases.filter { $0 != .none }.map { mode in
            let blend = try Blend(source: pictureImage, mode: mode)
            return (mode, { try blend.apply(to: frameImage).bytes })
        }
    }

    /// Median ns of a memcpy of the frame into a buffer allocated once.
    func copyNanoseconds(iterations: Int) throws -> Double {
        var samples = [Double](repeating: 0, count: iterations)
        var error = BaselineError()
        let copied = samples.withUnsafeMutableBufferPointer {
            baseline_copy_frame(frame, Int32(Self.width), Int32(Self.height), Int32(iterations), $0.baseAddress!, &error)
        }
        guard copied else { throw BenchError(error) }
        return median(samples)
    }
}

/// Times a Swift closure: warm-up, then `iterations` single calls; the median in ns.
func medianNanoseconds(iterations: Int, _ body: () throws -> [UInt8]) rethrows -> Double {
    for _ in 0..<2 { sink &+= try body().count }
    var samples = [Double]()
    for _ in 0..<iterations {
        let start = nanosecondsNow()
        sink &+= try body().count
        samples.append(Double(nanosecondsNow() - start))
    }
    return median(samples)
}

/// Prints the blending tables; returns what missed its target.
func reportBlending(_ inputs: BlendInputs, measurements: [Measurement], python: PythonReport, quick: Bool) throws -> [String] {
    let iterations = quick ? 10 : 60
    // The copy is timed between the modes too, so that drift in the machine's speed shows.
    var copies = [try inputs.copyNanoseconds(iterations: iterations * 2)]
    var modes = [(BlendMode, Double)]()
    for (mode, body) in try inputs.everyMode() {
        modes.append((mode, try medianNanoseconds(iterations: iterations, body)))
        copies.append(try inputs.copyNanoseconds(iterations: iterations))
    }
    let copy = median(copies)
    let limit = 2 * copy  // read two frames and write one ≈ two copies' traffic

    print("")
    print("Blending at \(BlendInputs.width)×\(BlendInputs.height) BGRA: Ocular's one pass against the textbook's op-by-op OpenCV calls")
    print("(memcpy of the frame: \(milliseconds(copy)) ms, so the memory limit, two copies, is \(milliseconds(limit)) ms)")
    print([pad("mode", 9, right: false), pad("Ocular ms", 10), pad("C++ ms", 9), pad("speed-up", 9), pad("cv2 ms", 9),
           pad("Pillow ms", 10), pad("Ocular/limit", 13), "  same"].joined(separator: " "))
    print(String(repeating: "-", count: 84))
    var missed = [String]()
    for measurement in measurements {
        let name = measurement.operation.name, key = measurement.operation.key
        let ocular = median(measurement.swift), cxx = median(measurement.cxx)
        let speedUp = cxx / ocular
        let columns = [
            pad(name, 9, right: false), pad(milliseconds(ocular), 10), pad(milliseconds(cxx), 9), pad(String(format: "%.2f×", speedUp), 9),
            pad(python.medians["blend-\(key)"].map(milliseconds) ?? "n/a", 9),
            pad(python.medians["pillow-\(key)"].map(milliseconds) ?? "n/a", 10),
            pad(String(format: "%.2f", ocular / limit), 13), "  " + (measurement.sameOutput ? "yes" : "no"),
        ]
        FigureLog.shared.record("blend \(name) speed-up over the textbook's C++", speedUp, better: .higher, kind: .alternated,
                                spread: measurement.roundSpread)
        let needsDouble = name == "screen" || name == "hud"
        if needsDouble && speedUp < 2 { missed.append("\(name) speed-up \(String(format: "%.2f", speedUp)) < 2") }
        print(columns.joined(separator: " ") + (needsDouble && speedUp < 2 ? "  <-- below 2×" : ""))
    }
    print("")
    print("Every mode, Ocular per frame against the memory limit (goal ≤ 1.5; soft light, a square root a channel, ≤ 3):")
    for (mode, nanoseconds) in modes {
        let ratio = nanoseconds / limit
        let goal = mode == .softLight ? 3.0 : 1.5
        // The copies timed between the modes show how far the machine's speed drifted over the table.
        FigureLog.shared.record("blend \(mode.rawValue)/memory limit", ratio, better: .lower, kind: .alternated, spread: spread(copies))
        if ratio > goal { missed.append("\(mode.rawValue) at \(String(format: "%.2f", ratio))× the memory limit") }
        print("  " + pad(mode.rawValue, 12, right: false) + pad(milliseconds(nanoseconds), 8) + " ms  "
              + String(format: "%.2f", ratio) + (ratio > goal ? "  <-- over \(goal)" : ""))
    }
    print("""

      C++: Screen and HUD = cv::subtract(255, frame), cv::multiply(·, cached 255 − picture (or − edges), scale 1/255),
      cv::subtract(255, ·); multiply = cv::multiply(frame, picture, scale 1/255); hue = W3C hue in float cv::Mat operations.
      cv2: the same calls; hue in NumPy. Pillow: ImageChops.screen / .multiply on RGBA images (HUD: screen with the edges).
      "same": Ocular's output hashes like the C++ sequence's (hue differs in float rounding).
    """)
    return missed
}

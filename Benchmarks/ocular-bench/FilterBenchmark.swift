import BenchBaseline
import Foundation
import Ocular

/// The Core Image–style filters at 1920×1080 BGR: the five-filter colour chain (colour controls,
/// exposure, gamma, hue, vibrance) fused by Ocular's pipeline, against each filter alone, the same stages
/// one pass each in Ocular, the same chain as OpenCV calls in C++ (two cv::transform, two cv::LUT and
/// float Mat arithmetic for vibrance) and in Python with Pillow's ImageEnhance and NumPy
/// (Benchmarks/python/bench_filters.py); and Gaussian blur against cv::GaussianBlur.
struct FilterBenchmark {
    static let width = 1920, height = 1080
    static let chain = #"""
        {"stages":[{"stage":"colorControls","saturation":1.2,"brightness":0.05,"contrast":1.1},{"stage":"exposureAdjust","ev":0.5},
        {"stage":"gammaAdjust","power":0.8},{"stage":"hueAdjust","angle":20},{"stage":"vibrance","amount":0.4}]}
        """#
    static let blurRadius = 10.0

    let frame: Image
    let pipeline: Pipeline

    init(picture: String) throws {
        frame = try Image(width: Self.width, height: Self.height, format: .bgra8,
                          bytes: makeFrame(picture, width: Self.width, height: Self.height)).converted(to: .bgr8)
        pipeline = try Pipeline(Recipe(json: Self.chain))
    }

    /// What the C++ side is given: the matrices in BGR order with the bias in levels, and the tables.
    struct Arguments {
        var controls: [Float], hue: [Float], exposure: [UInt8], gamma: [UInt8], vibrance: Float
    }

    func arguments() throws -> Arguments {
        let operations = pipeline.steps.compactMap { ($0.stage as? any ColourOperationStage)?.operation }
        func bgr(_ operation: ColourOperation) -> [Float] {
            guard case .matrix(let matrix) = operation else { return [] }
            return (0..<3).flatMap { row -> [Float] in
                let source = matrix.rows[2 - row]
                return [Float(source.z), Float(source.y), Float(source.x), Float(255 * matrix.bias[2 - row])]
            }
        }
        func table(_ operation: ColourOperation) -> [UInt8] {
            guard case .curves(let curves) = operation else { return [] }
            return curves.red
        }
        guard operations.count == 5, case .mix(.vibrance(let amount)) = operations[4] else {
            throw OcularError.invalidArgument("the benchmark's chain is five colour filters ending in vibrance")
        }
        return Arguments(controls: bgr(operations[0]), hue: bgr(operations[3]), exposure: table(operations[1]), gamma: table(operations[2]),
                         vibrance: Float(amount))
    }

    func operations() throws -> [Operation] {
        let size = "\(Self.width)x\(Self.height)"
        let arguments = try arguments()
        let (frame, pipeline) = (frame, pipeline)
        func cxx(_ which: Int32) -> (Int32, UnsafeMutablePointer<Double>, UnsafeMutablePointer<UInt64>?, UnsafeMutablePointer<BaselineError>) -> Bool {
            { iterations, samples, checksum, error in
                baseline_filters(which, frame.bytes, Int32(Self.width), Int32(Self.height), arguments.controls, arguments.exposure, arguments.gamma,
                                 arguments.hue, arguments.vibrance, Self.blurRadius, iterations, samples, checksum, error)
            }
        }
        var operations: [Operation] = []
        for (index, step) in pipeline.steps.enumerated() {
            let stage = step.stage
            operations.append(Operation(name: type(of: stage).name, size: size, swift: { try stage.process(Frame(image: frame)).image.bytes },
                                        cxx: cxx(Int32(2 + index))))
        }
        operations.append(Operation(name: "chain fused", size: size, swift: { try pipeline.process(frame).bytes }, cxx: cxx(0)))
        operations.append(Operation(name: "chain one by one", size: size, swift: {
            var image = frame
            for step in pipeline.steps { image = try step.stage.process(Frame(image: image)).image }
            return image.bytes
        }, cxx: cxx(0)))
        let blur = try GaussianBlurFilter.with(GaussianBlurFilter.radius(Self.blurRadius))
        operations.append(Operation(name: "gaussianBlur", size: size, swift: { try blur.process(Frame(image: frame)).image.bytes }, cxx: cxx(1)))
        return operations
    }

    /// Prints the table and the goals; returns what misses them.
    static func report(_ measurements: [Measurement], pillow: Double?, pillowLabel: String) -> [String] {
        print("Filters at \(width)×\(height), BGR. The chain: colorControls (saturation 1.2, brightness 0.05, contrast 1.1),")
        print("exposureAdjust 0.5 EV, gammaAdjust 0.8, hueAdjust 20°, vibrance 0.4. C++: the same work as OpenCV calls, one after another.")
        print([pad("row", 18, right: false), pad("Swift ms", 10), pad("C++ ms", 10), pad("Swift/C++", 10)].joined(separator: " "))
        print(String(repeating: "-", count: 52))
        var medians: [String: Double] = [:]
        for measurement in measurements {
            let name = measurement.operation.name
            medians[name] = median(measurement.swift)
            medians["C++ " + name] = median(measurement.cxx)
            FigureLog.shared.record("filter \(name) Swift/C++", measurement.ratio, better: .lower, kind: .alternated, spread: measurement.roundSpread)
            print([pad(name, 18, right: false), pad(milliseconds(median(measurement.swift)), 10), pad(milliseconds(median(measurement.cxx)), 10),
                   pad(String(format: "%.3f", measurement.ratio), 10)].joined(separator: " "))
        }
        if let pillow { print("  \(pillowLabel): the chain one step at a time, \(milliseconds(pillow)) ms") }
        var missed: [String] = []
        guard let fused = medians["chain fused"], let oneByOne = medians["chain one by one"], let cxxChain = medians["C++ chain fused"] else { return ["no chain figures"] }
        let singles = ["colorControls", "exposureAdjust", "gammaAdjust", "hueAdjust", "vibrance"].compactMap { name in medians[name].map { (name, $0) } }
        for (name, single) in singles {
            print(String(format: "  chain fused / %@ alone: %.2f", name, fused / single))
        }
        let slowest = singles.max { $0.1 < $1.1 }
        if let slowest { FigureLog.shared.record("filter chain fused/slowest filter alone", fused / slowest.1, better: .lower, kind: .alternated) }
        if let slowest, fused / slowest.1 > 1.3 { missed.append(String(format: "fused chain %.2f× its slowest filter alone (%@), goal ≤ 1.3", fused / slowest.1, slowest.0)) }
        let rivals = [("Ocular one by one", oneByOne), ("OpenCV C++ one by one", cxxChain)] + (pillow.map { [("Pillow + NumPy", $0)] } ?? [])
        let best = rivals.min { $0.1 < $1.1 }!
        FigureLog.shared.record("filter chain fused speed-up over the best one-by-one", best.1 / fused, better: .higher,
                                kind: best.0.contains("Pillow") ? .separate : .alternated)
        print(String(format: "  fused is %.2f× faster than the best one-by-one (%@); against each: ", best.1 / fused, best.0)
              + rivals.map { String(format: "%@ %.2f×", $0.0, $0.1 / fused) }.joined(separator: ", "))
        if best.1 / fused < 3 { missed.append(String(format: "fused chain only %.2f× faster than %@, goal ≥ 3×", best.1 / fused, best.0)) }
        if let blur = measurements.first(where: { $0.operation.name == "gaussianBlur" }), blur.ratio > 1.05 {
            missed.append(String(format: "gaussianBlur %.3f× C++, goal ≤ 1.05", blur.ratio))
        }
        print("")
        return missed
    }
}

extension OcularBench {
    /// The filters' rows; returns what misses the goals, nil when nothing was measured.
    static func benchmarkFilters(python: String, options: OcularBench) -> [String]? {
        print("Filters: measuring at \(FilterBenchmark.width)×\(FilterBenchmark.height) …")
        flushOutput()
        do {
            let inputs = try FilterBenchmark(picture: options.image)
            let measurements = measureAll(try inputs.operations(), label: "filter ", ratio: "Swift/C++", options: options)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-bench-filters-\(getpid())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Data(inputs.frame.bytes).write(to: URL(fileURLWithPath: folder + "/filter-frame.bgr"))
            let result = runPythonScript(python, "bench_filters.py", [folder, String(FilterBenchmark.width), String(FilterBenchmark.height),
                                                                      String(options.secondsPerSide), String(options.rounds)])
            let pillow = (result?["results"] as? [String: Any])?["chain"].flatMap { ($0 as? NSNumber)?.doubleValue }
            let label = "Python \(result?["pillow"] as? String ?? "?") Pillow + NumPy \(result?["numpy"] as? String ?? "?")"
            if pillow == nil { print("  Python: n/a in \(python) (no Pillow)") }
            let missed = FilterBenchmark.report(measurements, pillow: pillow, pillowLabel: label)
            flushOutput()
            return missed
        } catch {
            print("  filters benchmark failed: \(error)")
            return nil
        }
    }
}

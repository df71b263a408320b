import BenchBaseline
import Foundation
import Ocular

/// The OpenCV tutorial's samples at 1280×720: each stage at its defaults (contrastBrightness at
/// 1.5, −30) on a BGR frame, against the same calls from C++ (Benchmarks/BenchBaseline) and Python cv2
/// (Benchmarks/python/bench_samples.py). Tracking follows 200 points between the frame and the same
/// frame moved 3 px right and 2 px down, alternately.
struct SampleBenchmark {
    static let width = 1280, height = 720
    /// In the baseline's order.
    static let recipes: [(name: String, json: String)] = [
        ("edges", ""), ("corners", ""), ("sepia", ""), ("negative", ""), ("contrastBrightness", #", "contrast": 1.5, "brightness": -30"#),
        ("contours", ""), ("cartoon", ""), ("features", ""), ("tracking", ""), ("totalVariation", ""), ("drawingCanvas", ""),
    ]

    let frame: Image
    let moved: Image

    init(picture: String) throws {
        let (sourceWidth, sourceHeight) = (Self.width + 3, Self.height + 2)
        let source = try makeFrame(picture, width: sourceWidth, height: sourceHeight)
        func crop(x: Int, y: Int) throws -> Image {
            try Image(width: Self.width, height: Self.height, format: .bgra8,
                      bytes: source.chunked(width: sourceWidth, height: sourceHeight, keeping: PixelRectangle(x: x, y: y, width: Self.width, height: Self.height)))
                .converted(to: .bgr8)
        }
        // The moved frame shows the picture 3 px right and 2 px down of where the frame shows it.
        frame = try crop(x: 3, y: 2)
        moved = try crop(x: 0, y: 0)
    }

    func operations() throws -> [Operation] {
        try Self.recipes.enumerated().map { index, recipe in
            let pipeline = try Pipeline(Recipe(json: #"{"stages":[{"stage":"\#(recipe.name)"\#(recipe.json)}]}"#))
            let (frame, moved) = (frame, moved)
            let calls = Counter()
            return Operation(name: recipe.name, size: "\(Self.width)x\(Self.height)", swift: {
                let image = recipe.name == "tracking" && calls.next() % 2 == 1 ? moved : frame
                return try pipeline.process(image).bytes
            }) {
                baseline_sample(Int32(index), frame.bytes, moved.bytes, Int32(Self.width), Int32(Self.height), $0, $1, $2, $3)
            }
        }
    }

    func write(to folder: String) throws {
        try Data(frame.bytes).write(to: URL(fileURLWithPath: folder + "/sample-frame.bgr"))
        try Data(moved.bytes).write(to: URL(fileURLWithPath: folder + "/sample-moved.bgr"))
    }

    /// Python's medians by sample, and which cv2 made them.
    struct PythonColumn {
        var label: String
        var medians: [String: Double]
    }

    /// Prints the table; returns what misses the goals (≤ 1.05× C++, ≤ 1.0× the first Python column).
    static func report(_ measurements: [Measurement], python: [PythonColumn]) -> [String] {
        print("Samples at \(width)×\(height), BGR, each stage at its defaults (contrastBrightness 1.5, −30)")
        for (index, column) in python.enumerated() { print("  Py\(index + 1): \(column.label)") }
        var header = [pad("sample", 19, right: false), pad("Swift ms", 10), pad("C++ ms", 10), pad("Swift/C++", 10)]
        for index in python.indices { header += [pad("Py\(index + 1) ms", 10), pad("Swift/Py\(index + 1)", 12)] }
        print((header + ["  same"]).joined(separator: " "))
        print(String(repeating: "-", count: 60 + 23 * python.count))
        var missed: [String] = []
        for measurement in measurements {
            let name = measurement.operation.name
            let swift = median(measurement.swift), cxx = median(measurement.cxx)
            var marks: [String] = []
            FigureLog.shared.record("sample \(name) Swift/C++", measurement.ratio, better: .lower, kind: .alternated, spread: measurement.roundSpread)
            for (index, column) in python.enumerated() {
                if let value = column.medians[name] {
                    FigureLog.shared.record("sample \(name) Swift/Py\(index + 1)", swift / value, better: .lower, kind: .separate)
                }
            }
            if measurement.ratio > 1.05 { marks.append("over 1.05× C++") }
            if let first = python.first?.medians[name], swift / first > 1.0 { marks.append("slower than Py1") }
            missed += marks.map { "\(name): \($0)" }
            var columns = [pad(name, 19, right: false), pad(milliseconds(swift), 10), pad(milliseconds(cxx), 10),
                           pad(String(format: "%.3f", measurement.ratio), 10)]
            for column in python {
                let value = column.medians[name]
                columns += [pad(value.map(milliseconds) ?? "n/a", 10), pad(value.map { String(format: "%.2f", swift / $0) } ?? "n/a", 12)]
            }
            columns.append("  " + (measurement.sameOutput ? "yes" : name == "tracking" ? "n/a" : "NO"))
            print(columns.joined(separator: " ") + (marks.isEmpty ? "" : "  <-- " + marks.joined(separator: ", ")))
        }
        if let tracking = measurements.first(where: { $0.operation.name == "tracking" }) {
            print(String(format: "  tracking: %.2f ms a frame following 200 points (gray conversion, Lucas–Kanade both ways, drawing)",
                         median(tracking.swift) / 1e6))
        }
        print("  same: the Swift and C++ outputs hash alike (tracking's differ by its state: each side's tracks grow over its own calls).")
        print("  totalVariation: Ocular denoises the channels on two threads (OpenCV's TV-L1 uses one); the C++ and Python rows are sequential.")
        print("")
        return missed
    }
}

/// Counts calls from a closure that cannot mutate what it captures.
final class Counter: @unchecked Sendable {
    private var count = 0
    func next() -> Int {
        defer { count += 1 }
        return count
    }
}

extension Array where Element == UInt8 {
    /// The pixels of `region` from tightly packed BGRA of `width` × `height`.
    func chunked(width: Int, height: Int, keeping region: PixelRectangle) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(region.width * region.height * 4)
        for y in region.y..<(region.y + region.height) {
            let start = (y * width + region.x) * 4
            out += self[start..<(start + region.width * 4)]
        }
        return out
    }
}

extension OcularBench {
    /// The samples' rows; returns what misses the goals, nil when nothing was measured.
    static func benchmarkSamples(python: String, options: OcularBench) -> [String]? {
        print("Samples: measuring at \(SampleBenchmark.width)×\(SampleBenchmark.height) …")
        flushOutput()
        do {
            let inputs = try SampleBenchmark(picture: options.image)
            let measurements = measureAll(try inputs.operations(), label: "sample ", ratio: "Swift/C++", options: options)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-bench-samples-\(getpid())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try inputs.write(to: folder)
            // The pip wheel the other rows use, and Debian's python3-opencv: the same OpenCV as Ocular's.
            var columns: [SampleBenchmark.PythonColumn] = []
            for (interpreter, kind) in [(python, "pip wheel"), ("/usr/bin/python3", "Debian python3-opencv, the OpenCV Ocular links")] {
                let result = runPythonScript(interpreter, "bench_samples.py", [folder, String(SampleBenchmark.width), String(SampleBenchmark.height),
                                                                              String(options.secondsPerSide), String(options.rounds)])
                guard let result, let medians = (result["results"] as? [String: Any])?.compactMapValues({ ($0 as? NSNumber)?.doubleValue }) else {
                    print("  Python: n/a in \(interpreter) (no cv2)")
                    continue
                }
                columns.append(.init(label: "\(interpreter): cv2 \(result["opencv"] as? String ?? "?") (\(kind))", medians: medians))
            }
            let missed = SampleBenchmark.report(measurements, python: columns)
            flushOutput()
            return missed
        } catch {
            print("  samples benchmark failed: \(error)")
            return nil
        }
    }
}

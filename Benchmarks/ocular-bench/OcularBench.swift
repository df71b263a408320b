// ocular-bench: how Ocular's Swift API compares with the same OpenCV calls made from C++ and from
// Python cv2, and how fast Ocular Studio answers a client streaming JPEG frames over loopback.
//
//     swift run -c release ocular-bench [--quick] [--python PATH]
//
// Swift and C++ run in this process on the same pixels, in alternating rounds so that drift in the
// machine's speed hits both alike; Python runs once, as a subprocess, on the same pixels (raw files).
import ArgumentParser
import BenchBaseline
import Foundation
import Ocular

@main
struct OcularBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocular-bench",
        abstract: "Time Ocular's Swift API against the same OpenCV calls from C++ and Python cv2, and Ocular Studio end to end.")

    @Flag(help: "A short run: rough figures, for checking that everything works.")
    var quick = false

    @Flag(help: "Only the whole-video row (ocular process against the Python cv2 loop).")
    var videoOnly = false

    @Flag(help: "Only the face detection rows (Ocular's profiles against the textbook pipeline in C++ and Python cv2).")
    var facesOnly = false

    @Flag(help: "Only the bean-counting rows (every object of 10-object scenes found and named, against the textbook pipeline in C++ and Python cv2).")
    var beansOnly = false

    @Flag(help: "Only the samples' rows (the OpenCV tutorial's stages against the same calls in C++ and Python cv2).")
    var samplesOnly = false

    @Flag(help: "Only the studio end to end (every stage at its defaults over loopback, one frame in flight).")
    var studioOnly = false

    @Flag(help: "Only the filters' rows (the fused five-filter colour chain against one filter, Ocular one by one, OpenCV C++ and Pillow).")
    var filtersOnly = false

    @Flag(help: "Only the blend modes, each against the memory limit (no C++ or Python columns).")
    var blendOnly = false

    @Flag(help: "Only the row behind keeping Ocular's pixel loops in C++: Screen's arithmetic written in Swift against Ocular's.")
    var arithmeticOnly = false

    @Flag(help: "Only the first table and what it measures: each op against C++ and Python cv2, the textbook's blends, every blend mode, the bean counter's detection.")
    var tableOnly = false

    @Option(help: "Write every figure of the run (ratios, rates) as JSON to this file, for scripts/bench-compare.py.")
    var figures: String?

    @Option(help: "The Python with cv2 for the Python column (default: the package's .venv-bench/bin/python if it exists, else python3).")
    var python: String?

    @Option(help: "The picture the benchmark frames are made from.")
    var image = dataRoot + "/images/coffee.png"

    /// The studio streams these, resized to 640×480. (Not astronaut.png or chelsea.png: Debian's
    /// libpng warns about their colour profiles on every read.)
    var studioImages: [String] {
        ["images/coffee.png", "images/rocket.jpg", "book/Piggy.png"].map { dataRoot + "/" + $0 }
    }

    /// Rounds of alternating Swift / C++ runs per op, and the time each side spends per op.
    var rounds: Int { quick ? 4 : 10 }
    var secondsPerSide: Double { quick ? 0.3 : 2.0 }
    var studioSeconds: Double { quick ? 1.0 : 5.0 }
    var minimumIterationsPerRound: Int { quick ? 2 : 3 }

    mutating func run() async throws {
        try await runSelected()
        if let figures {
            do {
                try FigureLog.shared.write(to: figures)
            } catch {
                fail("cannot write the figures to \(figures): \(error)")
            }
        }
    }

    /// Runs what the flags ask for (everything by default), printing the tables and recording each figure.
    func runSelected() async throws {
        // As `ocular` does; the Python subprocess gets the same through glibc's environment variables.
        let keepsFrames = FrameMemory.keepFreedFramesForReuse()
        let options = self
        let python = options.python ?? defaultPython()
        if options.videoOnly {
            _ = Self.benchmarkVideo(python: python, quick: options.quick)
            return
        }
        if options.facesOnly {
            _ = Self.benchmarkFaces(python: python, quick: options.quick)
            return
        }
        if options.beansOnly {
            _ = Self.benchmarkBeanCount(python: python, quick: options.quick)
            return
        }
        if options.samplesOnly {
            _ = Self.benchmarkSamples(python: python, options: options)
            return
        }
        if options.filtersOnly {
            _ = Self.benchmarkFilters(python: python, options: options)
            return
        }
        if options.blendOnly {
            let inputs = try BlendInputs(framePath: options.image, picturePath: dataRoot + "/images/rocket.jpg")
            let missed = try reportBlending(inputs, measurements: [], python: PythonReport(), quick: options.quick)
            print(missed.isEmpty ? "every mode met its goal" : "NOT met: " + missed.joined(separator: "; "))
            return
        }
        if options.arithmeticOnly {
            try SwiftScreen.report(BlendInputs(framePath: options.image, picturePath: dataRoot + "/images/rocket.jpg"), quick: options.quick)
            return
        }
        if options.studioOnly {
            _ = await Self.benchmarkStudioStages(options: options, jpegSize: (640, 480))
            return
        }
        for path in [options.image] + options.studioImages where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no picture at \(path) (set OCULAR_TEST_DATA to the shared data folder)")
        }
        let sizes = [(1280, 720), (1920, 1080)]
        let jpegSize = (width: 640, height: 480)
        let jpegQuality = 80
        let tint = Tint(red: 1.3, green: 0.9, blue: 0.7)
        let zoom = try ZoomStage.with(ZoomStage.factor(2), ZoomStage.interpolation(.bicubic))
        let whiteBalance = WhiteBalance()
        let started = nanosecondsNow()

        print("Ocular benchmark\(options.quick ? " (--quick: rough figures)" : "")")
        print("  machine:  \(machineDescription())")
        print("  Swift:    Ocular \(OcularVersion.current) on OpenCV \(OcularVersion.openCV)")
        print("  C++:      OpenCV \(String(cString: baseline_opencv_version())) (the same libraries, in this process); "
            + "threads \(baseline_opencv_threads()), parallel framework \(String(cString: baseline_parallel_framework()))")
        print("  input:    \(options.image) resized (INTER_AREA) to each size as BGRA; JPEG: \(jpegSize.width)×\(jpegSize.height) and the sizes above, quality 90 in, \(jpegQuality) out")
        print("  memory:   freed blocks up to \(FrameMemory.keptBlockBytes >> 20) MiB kept for reuse (glibc M_MMAP_THRESHOLD) in all three: "
            + (keepsFrames ? "yes" : "not available here"))
        print("  timing:   median of single calls; \(options.rounds) rounds alternating Swift and C++, ~\(options.secondsPerSide) s per side per row")
        flushOutput()

        var operations = [Operation]()
        var blendOperations = [Operation]()
        var blendInputs: BlendInputs?
        var beanInputs: BeanInputs?
        var folder = ""
        do {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-bench-\(getpid())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var manifestFrames = [[String: Any]]()
            for (width, height) in sizes {
                let bytes = try makeFrame(options.image, width: width, height: height)
                let file = "frame-\(width)x\(height).bgra"
                try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + file))
                manifestFrames.append(["file": file, "width": width, "height": height])
                let image = try Image(width: width, height: height, format: .bgra8, bytes: bytes)
                let size = "\(width)x\(height)"
                operations.append(Operation(name: "gray", size: size, swift: { try image.converted(to: .gray8).bytes }) {
                    baseline_gray(bytes, Int32(width), Int32(height), $0, $1, $2, $3)
                })
                operations.append(Operation(name: "whitebalance", size: size, swift: { try whiteBalance.apply(to: image).bytes }) {
                    baseline_white_balance(bytes, Int32(width), Int32(height), Float(whiteBalance.saturationThreshold), $0, $1, $2, $3)
                })
                operations.append(Operation(name: "tint", size: size, swift: { try tint.apply(to: image).bytes }) {
                    baseline_tint(bytes, Int32(width), Int32(height), tint.red, tint.green, tint.blue, $0, $1, $2, $3)
                })
                operations.append(Operation(name: "zoom", size: size, swift: { try zoom.process(Frame(image: image)).image.bytes }) {
                    baseline_zoom(bytes, Int32(width), Int32(height), zoom.factor, $0, $1, $2, $3)
                })
            }
            // The studio's frames are 640×480; a camera's whole frames are 720p and 1080p.
            var jpegFiles = [[String: Any]]()
            for (width, height) in [(jpegSize.width, jpegSize.height)] + sizes {
                let jpeg = try encodeJPEG(try makeFrame(options.image, width: width, height: height), width: width, height: height, quality: 90)
                let file = "frame-\(width)x\(height).jpg"
                try Data(jpeg).write(to: URL(fileURLWithPath: folder + "/" + file))
                jpegFiles.append(["file": file, "width": width, "height": height])
                operations.append(Operation(name: "jpeg", size: "\(width)x\(height)", swift: {
                    try Image(decoding: jpeg, name: "frame.jpg").encoded(as: .jpeg(quality: jpegQuality))
                }) {
                    baseline_jpeg_round_trip(jpeg, jpeg.count, Int32(jpegQuality), $0, $1, $2, $3)
                })
            }
            let merge = try MergeInputs()
            operations.append(merge.operation)
            try merge.write(to: folder)
            let beans = try BeanInputs()
            beanInputs = beans
            operations += beans.operations
            try beans.write(to: folder)
            let blend = try BlendInputs(framePath: options.image, picturePath: dataRoot + "/images/rocket.jpg")
            blendInputs = blend
            blendOperations = try blend.operations()
            try Data(blend.frame).write(to: URL(fileURLWithPath: folder + "/blend-frame.bgra"))
            try Data(blend.picture).write(to: URL(fileURLWithPath: folder + "/blend-picture.bgra"))
            try Data(blend.invertedEdges).write(to: URL(fileURLWithPath: folder + "/blend-inverted-edges.bgra"))
            let manifest: [String: Any] = [
                "frames": manifestFrames,
                "blend": ["frame": "blend-frame.bgra", "picture": "blend-picture.bgra", "invertedEdges": "blend-inverted-edges.bgra",
                          "width": BlendInputs.width, "height": BlendInputs.height],
                "jpegs": jpegFiles,
                "merge": merge.manifest,
                "beans": beans.manifest,
                "jpegQuality": jpegQuality,
                "tint": [tint.red, tint.green, tint.blue],
                "zoomFactor": zoom.factor,
                "saturationThreshold": Double(whiteBalance.saturationThreshold),
                "targetSeconds": options.secondsPerSide,
                "rounds": options.rounds,
                "minimumIterations": options.minimumIterationsPerRound,
            ]
            try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            fail("cannot prepare the frames: \(error)")
        }

        // Swift and C++, then blending (Ocular against the textbook's sequence).
        let measurements = measureAll(operations, label: "", ratio: "Swift/C++", options: options)
        let blendMeasurements = measureAll(blendOperations, label: "blend ", ratio: "Ocular/textbook", options: options)

        // Python.
        print("  measuring Python cv2 (\(python)) …")
        flushOutput()
        let pythonReport = runPython(python, folder: folder)
        try? FileManager.default.removeItem(atPath: folder)

        // The table.
        print("")
        if let problem = pythonReport.problem {
            print("Python: n/a — \(problem)")
            print("  Install it with:  python3 -m venv .venv-bench && .venv-bench/bin/pip install \"opencv-contrib-python-headless<5\" numpy")
            print("  (or run scripts/bench.sh), or pass --python PATH to a Python that has cv2.")
        } else {
            print("Python: \(pythonReport.python), cv2 \(pythonReport.version) (pip wheel), threads \(pythonReport.threads), parallel framework \(pythonReport.parallel)")
            if pythonReport.version != OcularVersion.openCV {
                print("  NOTE: cv2 \(pythonReport.version) is not Debian's OpenCV \(OcularVersion.openCV): Swift/Python compares two OpenCV")
                print("        builds (version, compiler flags, SIMD dispatch, bundled libjpeg) as well as the languages.")
            }
            for note in pythonReport.notes { print("  NOTE: \(note)") }
        }
        print("")
        let header = [pad("op", 12, right: false), pad("size", 9, right: false), pad("Swift ms", 10), pad("C++ ms", 10),
                      pad("Swift/C++", 10), pad("rounds", 13), pad("Python ms", 10), pad("Swift/Py", 9), pad("n", 6), "  same"]
        print(header.joined(separator: " "))
        print(String(repeating: "-", count: 100))
        var over = [String]()
        for measurement in measurements {
            let operation = measurement.operation
            let swiftMedian = median(measurement.swift), cxxMedian = median(measurement.cxx)
            let ratio = measurement.ratio
            let roundRange = String(format: "%.2f–%.2f", measurement.roundRatios.min()!, measurement.roundRatios.max()!)
            let pythonMedian = pythonReport.medians[operation.key]
            let columns = [
                pad(operation.name, 12, right: false), pad(operation.size, 9, right: false),
                pad(milliseconds(swiftMedian), 10), pad(milliseconds(cxxMedian), 10),
                pad(String(format: "%.3f", ratio), 10), pad(roundRange, 13),
                pad(pythonMedian.map(milliseconds) ?? "n/a", 10),
                pad(pythonMedian.map { String(format: "%.2f", swiftMedian / $0) } ?? "n/a", 9),
                pad("\(measurement.swift.count)", 6),
                "  " + (measurement.sameOutput ? "yes" : "NO"),
            ]
            FigureLog.shared.record("\(operation.key) Swift/C++", ratio, better: .lower, kind: .alternated, spread: measurement.roundSpread)
            if let pythonMedian {
                FigureLog.shared.record("\(operation.key) Swift/cv2", swiftMedian / pythonMedian, better: .lower, kind: .separate)
            }
            let mark = ratio > 1.05 ? "  <-- over 1.05" : ""
            if ratio > 1.05 { over.append(operation.key) }
            print(columns.joined(separator: " ") + mark)
        }
        print("""

          Swift ms / C++ ms: medians of single calls (n each); Swift/C++ is their ratio, "rounds" the range of
          the per-round ratios. "same": the Swift and C++ outputs hash alike (the same work was done).
          gray = cvtColor BGRA→GRAY; whitebalance = gray-world sums (xphoto's rule, threshold 0.9, parallel_for_ rows),
          mean, gains keeping the mean luma, multiply;
          tint = multiply by (\(tint.blue), \(tint.green), \(tint.red), 1); zoom = the zoom stage at \(ZoomPlanner.format(zoom.factor))× about the middle:
          warpAffine (bicubic, edges replicated) of the middle 1/\(ZoomPlanner.format(zoom.factor)) onto the frame's size;
          jpeg = imdecode (COLOR) + imencode (.jpg, quality \(jpegQuality));
          merge = Face.merged(with:) of astronaut.png's face and chelsea.png's cat (BGR) against getAffineTransform +
          warpAffine (bilinear, edges replicated) onto the cat's size + multiply (scale 1/255);
          blobs = BlobDetector.detect(in:) of the demo coins-and-beans scene (BGR) against the textbook's resize, meanStdDev,
          inRange, erode, Canny, findContours (tree), boundingRect, with Ocular's one blob per object and each blob copied;
          classify = the textbook profile naming the scene's biggest blob against the 7 shared training pictures:
          calcHist 32³ + CLAHE + ORB, then compareHist (chi-square alt) and BFMatcher (Hamming) per reference.
        """)
        flushOutput()

        var blendMissed = [String]()
        if let blendInputs {
            do {
                blendMissed = try reportBlending(blendInputs, measurements: blendMeasurements, python: pythonReport, quick: options.quick)
                try SwiftScreen.report(blendInputs, quick: options.quick)
            } catch {
                fail("blending: \(error)")
            }
            flushOutput()
        }

        var beansMissed = [String]()
        if let beanInputs {
            beansMissed = BeanInputs.report(beanInputs, measurements: measurements, python: python, quick: options.quick)
            flushOutput()
        }
        if options.tableOnly { return }

        // Whole videos.
        let videoMissed = Self.benchmarkVideo(python: python, quick: options.quick)

        // Faces.
        let facesMissed = Self.benchmarkFaces(python: python, quick: options.quick)

        // Counting beans.
        let countMissed = Self.benchmarkBeanCount(python: python, quick: options.quick)

        // The tutorial's samples.
        let samplesMissed = Self.benchmarkSamples(python: python, options: options)

        // The Core Image–style filters.
        let filtersMissed = Self.benchmarkFilters(python: python, options: options)

        // Studio.
        let studioResults = await Self.benchmarkStudioStages(options: options, jpegSize: jpegSize)

        // Targets.
        print("")
        print("Targets:")
        print("  Swift/C++ ≤ 1.05 on every op: " + (over.isEmpty ? "met" : "NOT met (\(over.joined(separator: ", ")))"))
        print("  blending: Screen and HUD ≥ 2× the textbook's op-by-op, every mode ≤ 1.5× the memory limit (soft light ≤ 3×): "
              + (blendMissed.isEmpty ? "met" : "NOT met (\(blendMissed.joined(separator: "; ")))"))
        print("  whole video: Ocular's process ≥ the Python loop's frames/s: "
              + (videoMissed.map { $0.isEmpty ? "met" : "NOT met (\($0.joined(separator: ", ")))" } ?? "not measured"))
        print("  faces: Ocular's textbook ≤ 1.05× C++; default ≥ 3× faster than the textbook's C++ finding the same faces, at equal or better recall and precision; a 720p still ≤ 80 ms; a group followed ≥ 3× faster than plain OpenCV on each frame: "
              + (facesMissed.map { $0.isEmpty ? "met" : "NOT met (\($0.joined(separator: "; ")))" } ?? "not measured"))
        print("  bean counter: detection ≤ 1.05× C++, one blob classified in ≤ 100 ms: "
              + (beanInputs == nil ? "not measured" : beansMissed.isEmpty ? "met" : "NOT met (\(beansMissed.joined(separator: "; ")))"))
        print("  counting beans: Ocular's textbook ≤ 1.05× C++; the live stage ≥ 25 frames/s at 1280×720; a ring photographed at 2592×1936 counted in ≤ 400 ms, at 1280×720 in ≤ 60 ms: "
              + (countMissed.map { $0.isEmpty ? "met" : "NOT met (\($0.joined(separator: "; ")))" } ?? "not measured"))
        print("  samples: each ≤ 1.05× C++ and ≤ 1.0× Python cv2: "
              + (samplesMissed.map { $0.isEmpty ? "met" : "NOT met (\($0.joined(separator: "; ")))" } ?? "not measured"))
        print("  filters: the five-filter chain fused ≤ 1.3× its slowest filter alone and ≥ 3× faster than the best one-by-one; "
              + "gaussianBlur ≤ 1.05× C++: " + (filtersMissed.map { $0.isEmpty ? "met" : "NOT met (\($0.joined(separator: "; ")))" } ?? "not measured"))
        if studioResults.isEmpty {
            print("  studio ≥ 30 frames/s, p95 ≤ 50 ms: not measured")
        } else {
            let missed = studioResults.filter { $0.framesPerSecond < 30 || percentile($0.roundTrips, 0.95) > 50e6 }.map(\.effect)
            print("  studio ≥ 30 frames/s, p95 ≤ 50 ms: " + (missed.isEmpty ? "met for every effect" : "NOT met for \(missed.joined(separator: ", "))"))
        }
        print(String(format: "(run took %.0f s)", Double(nanosecondsNow() - started) / 1e9))
    }
}

extension OcularBench {
    /// The face detection rows; returns what misses the figures, nil when nothing was measured.
    static func benchmarkFaces(python: String, quick: Bool) -> [String]? {
        let rounds = quick ? 3 : 15
        print("Faces per frame at 1280×720: astronaut_pan doubled onto a grey 1280×720 canvas, its 30 frames in order,")
        print("median of \(rounds) rounds (a fresh tracker each); recall and precision against its labels (IoU ≥ 0.5).")
        flushOutput()
        var missed: [String]?
        do {
            let rows = try FaceBenchmark(python: python, rounds: rounds).measure()
            missed = FaceBenchmark.report(rows)
            let group = GroupFaceBenchmark(rounds: rounds)
            missed = (missed ?? []) + GroupFaceBenchmark.report(try group.measure())
            missed = (missed ?? []) + GroupFaceBenchmark.reportFolder(try group.measureFolder())
        } catch {
            print("  faces benchmark failed: \(error)")
        }
        print("")
        flushOutput()
        return missed
    }

    /// The whole-video rows; returns the videos that miss the figure, nil when nothing was measured.
    static func benchmarkVideo(python: String, quick: Bool) -> [String]? {
        print("Whole video: `ocular process --blend rocket.jpg --mode screen` (decode, blend, Motion-JPEG encode), median of \(quick ? 1 : 3) runs,")
        print("against the same loop in Python cv2 (read, bitwise_not/multiply screen, write), runs alternating.")
        flushOutput()
        var missed: [String]?
        do {
            let rows = try VideoBenchmark(python: python, runs: quick ? 1 : 3).measure()
            missed = VideoBenchmark.report(rows)
        } catch {
            print("  video benchmark failed: \(error)")
        }
        print("")
        flushOutput()
        return missed
    }
}

/// The shared test pictures beside the repository (override with OCULAR_TEST_DATA).
let dataRoot = ProcessInfo.processInfo.environment["OCULAR_TEST_DATA"]
    ?? URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent("shared/data").path

/// Measures each operation, printing its ratio as it goes; a failure ends the run with its reason.
func measureAll(_ operations: [Operation], label: String, ratio: String, options: OcularBench) -> [Measurement] {
    operations.map { operation in
        print("  measuring \(label)\(operation.key) …", terminator: "")
        flushOutput()
        do {
            let measurement = try measure(operation, options: options)
            print(String(format: " \(ratio) %.3f", measurement.ratio))
            return measurement
        } catch {
            fail("\(label)\(operation.key): \(error)")
        }
    }
}

extension OcularBench {
    /// The studio end to end: every stage at its defaults over loopback; prints the table and returns
    /// its rows (none when the run failed, which it says).
    static func benchmarkStudioStages(options: OcularBench, jpegSize: (width: Int, height: Int)) async -> [StudioResult] {
        let effects = ["none"] + StageRegistry.standard.names  // every stage at its defaults
        print("Studio end to end: \(jpegSize.width)×\(jpegSize.height) JPEGs (quality 90, \(options.studioImages.count) pictures) over loopback,")
        print("one frame in flight, ~\(options.studioSeconds) s per stage; the server and the client share this process.")
        flushOutput()
        var studioResults = [StudioResult]()
        do {
            var frames = [[UInt8]]()
            for path in options.studioImages {
                let frame = try makeFrame(path, width: jpegSize.width, height: jpegSize.height)
                frames.append(try encodeJPEG(frame, width: jpegSize.width, height: jpegSize.height, quality: 90))
            }
            let averageBytes = frames.map(\.count).reduce(0, +) / frames.count
            print("  frames sent: \(averageBytes / 1024) KiB on average")
            studioResults = try await benchmarkStudio(frames: frames, width: jpegSize.width, height: jpegSize.height,
                                                      effects: effects, seconds: options.studioSeconds)
        } catch {
            print("  studio benchmark failed: \(error)")
        }
        if !studioResults.isEmpty {
            print("")
            print([pad("stage", 13, right: false), pad("frames", 7), pad("frames/s", 9), pad("median ms", 10), pad("p95 ms", 8),
                   pad("max ms", 8), pad("reply KiB", 10)].joined(separator: " "))
            print(String(repeating: "-", count: 71))
            for result in studioResults {
                FigureLog.shared.record("studio \(result.effect) frames/s", result.framesPerSecond, better: .higher, kind: .absolute)
                let meetsTarget = result.framesPerSecond >= 30 && percentile(result.roundTrips, 0.95) <= 50e6
                print([pad(result.effect, 13, right: false), pad("\(result.roundTrips.count)", 7),
                       pad(String(format: "%.1f", result.framesPerSecond), 9),
                       pad(milliseconds(median(result.roundTrips)), 10), pad(milliseconds(percentile(result.roundTrips, 0.95)), 8),
                       pad(milliseconds(result.roundTrips.max()!), 8), pad(String(format: "%.1f", Double(result.replyBytes) / 1024), 10),
                ].joined(separator: " ") + (meetsTarget ? "" : "  <-- below target"))
            }
        }
        return studioResults
    }
}

import BenchBaseline
import Foundation
import Ocular
import OcularEvaluation

/// Counting beans per 1280×720 frame: every object of a 10-object table scene found and named, by the
/// textbook's pipeline in plain C++ and in Python cv2 (the textbook's detection, then each blob's histogram,
/// CLAHE and ORB against the shared training pictures) against Ocular's textbook and default profiles
/// and the blobs stage as the studio runs it (names remembered from frame to frame, the tally
/// steadied). The scenes are BlobScenes' (the shared coins and beans laid on tables, some touching,
/// uneven light, shadows, blur, noise, JPEG), so each row is also scored against their labels.
struct BeanCountBenchmark {
    struct Row {
        let name: String
        /// Mean milliseconds per frame of each round.
        let milliseconds: [Double]
        let evaluation: BlobSceneEvaluation
        var perFrame: Double { median(milliseconds) }
    }

    let python: String
    let rounds: Int
    /// Scenes per round.
    let sceneCount: Int
    static let width = 1280, height = 720, objects = 10
    /// Frames the stage sees of each scene in a row, as a camera held over a table would send it.
    static let framesPerScene = 5

    func measure() throws -> (rows: [Row], scenes: [BlobScenes.Scene]) {
        let list = try TrainingList(contentsOfFile: BeanInputs.listPath)
        let set = try BlobScenes(list: list)
        // Indices 48 on: the scenes the detector's settings were not chosen on.
        let scenes = try (48..<(48 + sceneCount)).map { try set.scene($0, width: Self.width, height: Self.height, objects: Self.objects) }
        for scene in scenes where scene.image.format != .bgr8 || scene.image.bytesPerRow != scene.image.width * 3 {
            throw BenchError("the scenes must be tightly packed BGR, got \(scene.image)")
        }
        let textbook = try BlobClassifier.train(list, profile: .textbook).classifier
        let standard = try BlobClassifier.train(list, profile: .standard).classifier
        let textbookDetector = try BlobDetector(profile: .textbook), standardDetector = try BlobDetector(profile: .standard)

        func ocular(_ detector: BlobDetector, _ classifier: BlobClassifier) throws -> ([[BlobScenes.LabelledBlob]], Double) {
            var found: [[BlobScenes.LabelledBlob]] = []
            let start = nanosecondsNow()
            for scene in scenes {
                found.append(try detector.named(in: scene.image, by: classifier).map(Self.labelled))
            }
            return (found, Double(nanosecondsNow() - start) / 1e6 / Double(scenes.count))
        }
        // A fresh stage each round; each scene held for a few frames, scored on its last.
        func stage() throws -> ([[BlobScenes.LabelledBlob]], Double) {
            let stage = try BlobsStage.with(["training": .text(BeanInputs.listPath)], images: ImageFiles())
            var found: [[BlobScenes.LabelledBlob]] = []
            let start = nanosecondsNow()
            for scene in scenes {
                var last: [BlobScenes.LabelledBlob] = []
                for _ in 0..<Self.framesPerScene {
                    last = try stage.process(Frame(image: scene.image)).annotations.compactMap { $0 as? Blob }.map(Self.labelled)
                }
                found.append(last)
            }
            return (found, Double(nanosecondsNow() - start) / 1e6 / Double(scenes.count * Self.framesPerScene))
        }
        func cxx() throws -> ([[BlobScenes.LabelledBlob]], Double) {
            var samples = [Double](repeating: 0, count: scenes.count)
            var objects = [BaselineObject](repeating: BaselineObject(), count: scenes.count * 64)
            var counts = [Int32](repeating: 0, count: scenes.count)
            var error = BaselineError()
            let paths = list.entries.map { list.path(of: $0) }
            let labels = list.entries.map { Int32($0.label) }
            let pointers = scenes.map { scene in scene.image.bytes.withUnsafeBufferPointer { UnsafePointer($0.baseAddress!) } }
            // The images' bytes stay alive (and unmoved) in `scenes` for the whole call.
            let ok = withExtendedLifetime(scenes) {
                pointers.withUnsafeBufferPointer { frames in
                    BeanInputs.withCStrings(paths) { references in
                        baseline_count_blobs(frames.baseAddress!, Int32(scenes.count), Int32(Self.width), Int32(Self.height), references,
                                             labels, Int32(labels.count), &samples, &objects, Int32(objects.count), &counts, &error)
                    }
                }
            }
            guard ok else { throw BenchError(error) }
            var found: [[BlobScenes.LabelledBlob]] = [], next = 0
            for count in counts {
                found.append(objects[next..<next + Int(count)].map {
                    BlobScenes.LabelledBlob(label: Int($0.label), bounds: PixelRectangle(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)))
                })
                next += Int(count)
            }
            return (found, samples.reduce(0, +) / 1e6 / Double(scenes.count))
        }

        // For reference: what finding alone costs, the objects not named.
        func finding(_ detector: BlobDetector) throws -> ([[BlobScenes.LabelledBlob]], Double) {
            var found: [[BlobScenes.LabelledBlob]] = []
            let start = nanosecondsNow()
            for scene in scenes { found.append(try detector.detect(in: scene.image).blobs.map(Self.labelled)) }
            return (found, Double(nanosecondsNow() - start) / 1e6 / Double(scenes.count))
        }

        let names = ["textbook, C++", "textbook, Ocular", "default, Ocular", "default, Ocular's blobs stage (live)",
                     "default, Ocular, finding only (not named)"]
        let runs: [() throws -> ([[BlobScenes.LabelledBlob]], Double)] = [
            cxx, { try ocular(textbookDetector, textbook) }, { try ocular(standardDetector, standard) }, stage, { try finding(standardDetector) },
        ]
        var times = [[Double]](repeating: [], count: runs.count)
        var lastFound = [[[BlobScenes.LabelledBlob]]](repeating: [], count: runs.count)
        for round in 0..<(rounds + 1) {
            for (index, run) in runs.enumerated() {
                let (found, milliseconds) = try run()
                if round > 0 { times[index].append(milliseconds) }  // round 0 warms up (models, caches)
                lastFound[index] = found
            }
        }
        var rows = zip(names.indices, names).map { index, name in
            Row(name: name, milliseconds: times[index], evaluation: Self.score(lastFound[index], scenes))
        }
        if let python = try runPython(scenes: scenes, list: list) { rows.insert(python, at: 1) }
        return (rows, scenes)
    }

    static func score(_ found: [[BlobScenes.LabelledBlob]], _ scenes: [BlobScenes.Scene]) -> BlobSceneEvaluation {
        var evaluation = BlobSceneEvaluation()
        for (blobs, scene) in zip(found, scenes) { evaluation.score(scene: scene.name, objects: scene.blobs, found: blobs) }
        return evaluation
    }

    static func labelled(_ blob: Blob) -> BlobScenes.LabelledBlob { BlobScenes.LabelledBlob(label: blob.label, bounds: blob.bounds) }

    /// The Python row, or nil when cv2 cannot run.
    private func runPython(scenes: [BlobScenes.Scene], list: TrainingList) throws -> Row? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-bench-count-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = folder.appendingPathComponent("scenes.raw"), references = folder.appendingPathComponent("references.json")
        try Data(scenes.flatMap(\.image.bytes)).write(to: frames)
        try JSONSerialization.data(withJSONObject: ["references": list.entries.map { list.path(of: $0) }, "labels": list.entries.map(\.label)])
            .write(to: references)
        guard let report = runPythonScript(python, "bench_beans.py", [frames.path, "\(scenes.count)", "\(Self.width)", "\(Self.height)", "\(rounds)",
                                                                      references.path]),
              let milliseconds = report["milliseconds"] as? [Double], let objects = report["objects"] as? [[[Int]]] else { return nil }
        let found = objects.map { $0.map { BlobScenes.LabelledBlob(label: $0[4], bounds: PixelRectangle(x: $0[0], y: $0[1], width: $0[2], height: $0[3])) } }
        return Row(name: "textbook, Python cv2", milliseconds: milliseconds, evaluation: Self.score(found, scenes))
    }
}

extension BeanCountBenchmark {
    /// Prints the table and returns what misses the figures: Ocular's textbook ≤ 1.05× the C++
    /// pipeline; the live stage ≥ 25 frames per second (≤ 40 ms a frame) at 1280×720.
    static func report(_ rows: [Row]) -> [String] {
        print("")
        print([pad("pipeline", 42, right: false), pad("ms/frame", 9), pad("×C++", 6), pad("recall", 7), pad("precision", 10),
               pad("named", 7), pad("exact tally", 12)].joined(separator: " "))
        print(String(repeating: "-", count: 94))
        guard let cxx = rows.first(where: { $0.name == "textbook, C++" }) else { return ["no C++ row"] }
        func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
        for row in rows {
            let evaluation = row.evaluation
            if row.name != cxx.name {
                FigureLog.shared.record("counting beans \(row.name) ×C++", row.perFrame / cxx.perFrame, better: .lower,
                                        kind: row.name.contains("Python") ? .separate : .alternated, spread: spread(row.milliseconds))
            }
            print([pad(row.name, 42, right: false), pad(String(format: "%.1f", row.perFrame), 9),
                   pad(String(format: "%.2f", row.perFrame / cxx.perFrame), 6), pad(percent(evaluation.recall), 7),
                   pad(percent(evaluation.precision), 10), pad(row.name.contains("not named") ? "—" : percent(evaluation.labellingAccuracy), 7),
                   pad(row.name.contains("not named") ? "—" : percent(evaluation.exactTallies), 12)].joined(separator: " "))
        }
        var missed = [String]()
        if let textbook = rows.first(where: { $0.name == "textbook, Ocular" }), textbook.perFrame / cxx.perFrame > 1.05 {
            missed.append(String(format: "textbook %.2f× C++", textbook.perFrame / cxx.perFrame))
        }
        if let live = rows.first(where: { $0.name.contains("stage") }), live.perFrame > 1000.0 / 25 {
            missed.append(String(format: "the live stage %.1f ms a frame (under 25 frames/s)", live.perFrame))
        }
        return missed
    }
}

extension OcularBench {
    /// The bean-counting rows; returns what misses the figures, nil when nothing was measured.
    static func benchmarkBeanCount(python: String, quick: Bool) -> [String]? {
        let benchmark = BeanCountBenchmark(python: python, rounds: quick ? 2 : 5, sceneCount: quick ? 4 : 12)
        print("Counting beans per frame at \(BeanCountBenchmark.width)×\(BeanCountBenchmark.height): \(benchmark.sceneCount) table scenes of "
              + "\(BeanCountBenchmark.objects) coins and beans (BlobScenes 48 on, the shared training set), every object found and named;")
        print("median of \(benchmark.rounds) rounds; the stage sees each scene \(BeanCountBenchmark.framesPerScene) frames running, "
              + "as from a camera, scored on the last; recall and precision: IoU ≥ 0.5.")
        flushOutput()
        var missed: [String]?
        do {
            let (rows, scenes) = try benchmark.measure()
            let objects = scenes.map(\.blobs.count)
            print(String(format: "  objects laid per scene: %d–%d (%.1f on average; the rest had no room)", objects.min() ?? 0, objects.max() ?? 0,
                         Double(objects.reduce(0, +)) / Double(max(1, objects.count))))
            missed = BeanCountBenchmark.report(rows)
            let photographed = PhotographedBeanBenchmark(rounds: quick ? 2 : 5, sceneCount: quick ? 3 : 8)
            missed = (missed ?? []) + PhotographedBeanBenchmark.report(try photographed.measure())
        } catch {
            print("  bean-counting benchmark failed: \(error)")
        }
        print("")
        flushOutput()
        return missed
    }
}

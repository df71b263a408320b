import BenchBaseline
import Foundation
import Ocular
import OcularEvaluation

/// The bean counter's rows: blob detection of the 1280×720 coins-and-beans scene, and the
/// classification of its biggest blob (the toonie) with the shared training set, each against the
/// textbook's pipeline in C++ and Python cv2; then, for information, the default profile's cost, the
/// trained model's memory, file size and load time, and `evaluate`'s accuracy for both profiles on
/// held-apart crops.
struct BeanInputs {
    let scene: Image
    let blob: Image
    /// The scene's biggest blob as the default profile finds it (its own pixels and the table's
    /// brightness), as the studio classifies it.
    let separatedBlob: Blob
    let list: TrainingList
    let textbook: BlobClassifier
    let detector: BlobDetector

    static let scenePath = packageRoot + "/Sources/OcularStudio/Public/demo/beans.jpg"
    static let listPath = dataRoot + "/beancounter/labels.json"

    init() throws {
        scene = try Image(contentsOfFile: Self.scenePath).converted(to: .bgr8)
        detector = try BlobDetector(profile: .textbook)
        guard let biggest = Blob.biggest(of: try detector.detect(in: scene).blobs) else { throw BenchError("no blob in \(Self.scenePath)") }
        blob = biggest.image
        list = try TrainingList(contentsOfFile: Self.listPath)
        textbook = try BlobClassifier.train(list, profile: .textbook).classifier
        guard let separated = Blob.biggest(of: try BlobDetector(profile: .standard).detect(in: scene).blobs) else {
            throw BenchError("the default profile finds no blob in \(Self.scenePath)")
        }
        separatedBlob = separated
        for image in [scene, blob] where image.format != .bgr8 || image.bytesPerRow != image.width * 3 {
            throw BenchError("the benchmark's pictures must be tightly packed BGR, got \(image)")
        }
    }

    /// The rectangles as int32 x, y, width, height rows: what the C++ baseline hashes.
    static func rectangleBytes(_ blobs: [Blob]) -> [UInt8] {
        blobs.flatMap { [$0.bounds.x, $0.bounds.y, $0.bounds.width, $0.bounds.height] }
            .flatMap { withUnsafeBytes(of: Int32($0).littleEndian, Array.init) }
    }

    var operations: [Operation] {
        let (scene, blob, detector, textbook, list) = (self.scene, self.blob, self.detector, self.textbook, self.list)
        let detect = Operation(name: "blobs", size: "\(scene.width)x\(scene.height)", swift: {
            Self.rectangleBytes(try detector.detect(in: scene).blobs)
        }) {
            baseline_detect_blobs(scene.bytes, Int32(scene.width), Int32(scene.height), $0, $1, $2, $3)
        }
        let paths = list.entries.map { list.path(of: $0) }
        let labels = list.entries.map { Int32($0.label) }
        let classify = Operation(name: "classify", size: "\(blob.width)x\(blob.height)", swift: {
            [UInt8(clamping: try textbook.classify(blob).label)]
        }) { iterations, samples, checksum, error in
            Self.withCStrings(paths) { pointers in
                baseline_classify_blob(blob.bytes, Int32(blob.width), Int32(blob.height), pointers, labels, Int32(labels.count),
                                       iterations, samples, checksum, error)
            }
        }
        return [detect, classify]
    }

    static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>>) -> R) -> R {
        let copies = strings.map { strdup($0)! }
        defer { copies.forEach { free($0) } }
        return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// The pictures as raw files beside the manifest, for the Python column.
    func write(to folder: String) throws {
        try Data(scene.bytes).write(to: URL(fileURLWithPath: folder + "/beans-scene.bgr"))
        try Data(blob.bytes).write(to: URL(fileURLWithPath: folder + "/beans-blob.bgr"))
    }

    var manifest: [String: Any] {
        ["scene": "beans-scene.bgr", "sceneWidth": scene.width, "sceneHeight": scene.height,
         "blob": "beans-blob.bgr", "blobWidth": blob.width, "blobHeight": blob.height,
         "references": list.entries.map { list.path(of: $0) }, "labels": list.entries.map(\.label)]
    }

    /// The section after the main table; returns what missed its figure.
    static func report(_ inputs: BeanInputs, measurements: [Measurement], python: String, quick: Bool) -> [String] {
        print("Bean counter: \(inputs.scene.width)×\(inputs.scene.height) coins-and-beans scene (Public/demo/beans.jpg), the shared training set "
              + "(\(inputs.list.entries.count) pictures)")
        var missed: [String] = []
        if let detect = measurements.first(where: { $0.operation.name == "blobs" }) {
            let ratio = detect.ratio
            print(String(format: "  detection per frame: Swift %.2f ms, C++ %.2f ms: %.3f× C++ (goal ≤ 1.05)%@", median(detect.swift) / 1e6,
                         median(detect.cxx) / 1e6, ratio, ratio > 1.05 ? "  <-- missed" : ""))
            if ratio > 1.05 { missed.append("blob detection \(String(format: "%.3f", ratio))× C++") }
        }
        do {
            let iterations = quick ? 5 : 20
            let standard = try BlobClassifier.train(inputs.list, profile: .standard).classifier
            for (name, classifier, blob) in [("textbook", inputs.textbook, Blob(image: inputs.blob, bounds: PixelRectangle(x: 0, y: 0, width: inputs.blob.width, height: inputs.blob.height))),
                                              ("default", standard, inputs.separatedBlob)] {
                let nanoseconds = try medianNanoseconds(iterations: iterations) { [UInt8(clamping: try classifier.classify(blob).label)] }
                let answer = try classifier.classify(blob)
                print(String(format: "  classify one blob, %@ profile: %.1f ms (goal ≤ 100 ms)%@ → %@, distance %.4f", name, nanoseconds / 1e6,
                             nanoseconds > 100e6 ? "  <-- missed" : "", answer.description, answer.distance ?? .nan))
                if nanoseconds > 100e6 { missed.append("classify (\(name)) \(nanoseconds / 1e6) ms") }
            }
            try reportModel(inputs, iterations: iterations)
            try reportAccuracy(python: python, quick: quick)
        } catch {
            print("  failed: \(error)")
            missed.append("bean counter: \(error)")
        }
        print("")
        return missed
    }

    /// Training time, memory, file size and load time of each profile's model.
    static func reportModel(_ inputs: BeanInputs, iterations: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-bench-beans-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in try FileManager.default.contentsOfDirectory(atPath: dataRoot + "/beancounter") where !name.hasSuffix(".blobmodel") {
            try FileManager.default.copyItem(atPath: dataRoot + "/beancounter/" + name, toPath: folder + "/" + name)
        }
        let list = folder + "/labels.json"
        for profile in BlobProfile.all {
            let start = nanosecondsNow()
            let (classifier, report) = try BlobModel.classifier(forList: list, profile: profile, retrain: true)
            let training = Double(nanosecondsNow() - start) / 1e6
            var loads = [Double]()
            for _ in 0..<iterations {
                let loadStart = nanosecondsNow()
                let loaded = try BlobModel.classifier(forList: list, profile: profile)
                loads.append(Double(nanosecondsNow() - loadStart) / 1e6)
                guard loaded.report.loaded else { throw BenchError("the \(profile) model was retrained instead of loaded") }
            }
            let fileBytes = (try FileManager.default.attributesOfItem(atPath: report.modelPath)[.size] as? Int) ?? 0
            print(String(format: "  %@ model: %d references, %.0f KiB in memory, %.0f KiB on disk; trained in %.0f ms, loaded in %.1f ms "
                         + "(median; the list and the pictures checksummed included)", profile.name, classifier.references.count,
                         Double(classifier.byteCount) / 1024, Double(fileBytes) / 1024, training, median(loads)))
        }
    }

    /// `ocular blobs evaluate` on crops scripts/bean-pictures.py makes (seed 101, 20 per label).
    static func reportAccuracy(python: String, quick: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-bench-crops-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python.contains("/") ? python : "/usr/bin/env")
        process.arguments = (python.contains("/") ? [] : [python])
            + [packageRoot + "/scripts/bean-pictures.py", "crops", folder, "--seed", "101", "--per-label", quick ? "5" : "20"]
        var environment = ProcessInfo.processInfo.environment
        environment["OCULAR_TEST_DATA"] = dataRoot
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print("  accuracy: n/a (scripts/bean-pictures.py needs Python with cv2; make bench sets it up)")
            return
        }
        let crops = try TrainingList(contentsOfFile: folder + "/labels.json")
        let list = try TrainingList(contentsOfFile: listPath)
        for profile in BlobProfile.all {
            let classifier = try BlobClassifier.train(list, profile: profile).classifier
            let evaluation = try BlobEvaluation.evaluate(classifier, on: crops, detector: try BlobDetector(profile: profile))
            print(String(format: "  evaluate, %@ profile: %d of %d held-apart crops right, %.1f %%", profile.name, evaluation.correct,
                         evaluation.total, evaluation.accuracy * 100))
        }
    }
}

import Foundation
import Ocular
import OcularEvaluation

/// Counting a photographed ring of coins and beans with the default profile, as a user does: a
/// tablet's 2592×1936 photo at full size, and a webcam's 1280×720 frame, each found and named whole
/// (the photo already decoded: reading a JPEG is the same for every counter). The scenes are
/// BlobScenes' rings held apart from the choice of constants (48 on), scored against their labels.
struct PhotographedBeanBenchmark {
    struct Row {
        let name: String
        let milliseconds: [Double]
        let evaluation: BlobSceneEvaluation
        /// The most a frame may take.
        let budget: Double
        var perFrame: Double { median(milliseconds) }
    }

    let rounds: Int
    /// Scenes of each size.
    let sceneCount: Int

    func measure() throws -> [Row] {
        let list = try TrainingList(contentsOfFile: BeanInputs.listPath)
        let maker = try BlobScenes(list: list)
        let classifier = try BlobClassifier.train(list, profile: .standard).classifier
        let detector = try BlobDetector(profile: .standard)
        var tablet: [BlobScenes.Scene] = [], webcam: [BlobScenes.Scene] = []
        var index = 48
        while tablet.count < sceneCount || webcam.count < sceneCount, index < 48 + 400 {
            let scene = try maker.scene(index, arrangement: .ring)
            index += 1
            if max(scene.image.width, scene.image.height) == 2592, tablet.count < sceneCount { tablet.append(scene) }
            if scene.image.width == 1280, scene.image.height == 720, webcam.count < sceneCount { webcam.append(scene) }
        }
        func run(_ scenes: [BlobScenes.Scene]) throws -> ([[BlobScenes.LabelledBlob]], Double) {
            var found: [[BlobScenes.LabelledBlob]] = []
            let start = nanosecondsNow()
            for scene in scenes {
                found.append(try detector.named(in: scene.image, by: classifier).map(BeanCountBenchmark.labelled))
            }
            return (found, Double(nanosecondsNow() - start) / 1e6 / Double(max(1, scenes.count)))
        }
        var rows: [Row] = []
        for (name, scenes, budget) in [("ring, tablet photo 2592×1936", tablet, 400.0), ("ring, webcam frame 1280×720", webcam, 60.0)] {
            var times: [Double] = []
            var last: [[BlobScenes.LabelledBlob]] = []
            for round in 0..<(rounds + 1) {
                let (found, milliseconds) = try run(scenes)
                if round > 0 { times.append(milliseconds) }  // round 0 warms up
                last = found
            }
            rows.append(Row(name: name, milliseconds: times, evaluation: BeanCountBenchmark.score(last, scenes), budget: budget))
        }
        return rows
    }

    /// Prints the rows and returns what misses its budget.
    static func report(_ rows: [Row]) -> [String] {
        print("")
        print([pad("default profile, counted whole", 42, right: false), pad("ms/frame", 9), pad("budget", 7), pad("recall", 7),
               pad("precision", 10), pad("named", 7), pad("exact tally", 12)].joined(separator: " "))
        print(String(repeating: "-", count: 98))
        func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
        var missed = [String]()
        for row in rows {
            let evaluation = row.evaluation
            print([pad(row.name, 42, right: false), pad(String(format: "%.1f", row.perFrame), 9), pad(String(format: "%.0f", row.budget), 7),
                   pad(percent(evaluation.recall), 7), pad(percent(evaluation.precision), 10), pad(percent(evaluation.labellingAccuracy), 7),
                   pad(percent(evaluation.exactTallies), 12)].joined(separator: " "))
            FigureLog.shared.record("counting beans photographed: \(row.name) ms a frame", row.perFrame, better: .lower, kind: .absolute, spread: spread(row.milliseconds))
            if row.perFrame > row.budget { missed.append(String(format: "%@ %.0f ms (over %.0f)", row.name, row.perFrame, row.budget)) }
        }
        return missed
    }
}

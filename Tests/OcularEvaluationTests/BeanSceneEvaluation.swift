import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

/// The bean counter on generated table scenes (``BlobScenes``), every label and box exact.
///
/// Scattered scenes: Ocular's constants were chosen on scenes 0–47 and 96–191; 48–95 and 200–295
/// were never looked at while choosing. Rings and heaps (photographs: 2–5 megapixels with EXIF, or
/// a webcam's 720p): chosen on 0–47, held apart 48–95. `make eval` scores every set and prints the
/// Benchmarks/BeanCounterMeasured.md's table; a sample run scores the 48 scattered scenes of 48–95 with the default profile,
/// against the same bars (a sample of them left too few scenes for the exact-tally bar: its figure,
/// 81 %, sits near the bar's 80 %), and a sample of the held-apart rings and heaps.
@Suite("Bean counter scene evaluation")
struct BeanSceneEvaluation {
    struct SceneSet: Sendable, CustomTestStringConvertible {
        var arrangement = BlobScenes.Arrangement.scattered
        var scenes: Range<Int>
        var heldApart: Bool
        /// The profiles scored: the textbook's only where Benchmarks/BeanCounterMeasured.md compares it.
        var profiles: [String]
        /// Held to the issue's bars: the set the suite has asserted them on since they were set.
        var heldToBars = false
        var testDescription: String {
            "\(arrangement == .scattered ? "scenes" : arrangement.rawValue + "s") \(scenes.lowerBound)–\(scenes.upperBound - 1)" + (heldApart ? " (held apart)" : " (chosen on)")
        }
    }

    /// In a sample run the default profile alone: the textbook's bounds only show a change, and halve the cost.
    static let heldApart = SceneSet(scenes: 48..<96, heldApart: true, profiles: Evaluation.isFull ? ["textbook", "default"] : ["default"], heldToBars: true)
    /// Rings and heaps: every fourth held-apart scene in a sample run (a tablet's three and a webcam's one in turn).
    static let photographed = BlobScenes.Arrangement.allCases.filter { $0 != .scattered }.flatMap { arrangement in
        Evaluation.isFull
            ? [SceneSet(arrangement: arrangement, scenes: 48..<96, heldApart: true, profiles: ["textbook", "default"]),
               SceneSet(arrangement: arrangement, scenes: 0..<48, heldApart: false, profiles: ["textbook", "default"])]
            : [SceneSet(arrangement: arrangement, scenes: 48..<60, heldApart: true, profiles: ["default"])]
    }
    static let sets = (Evaluation.isFull
        ? [heldApart, SceneSet(scenes: 200..<296, heldApart: true, profiles: ["textbook", "default"]),
           SceneSet(scenes: 0..<48, heldApart: false, profiles: ["default"]), SceneSet(scenes: 96..<192, heldApart: false, profiles: ["default"])]
        : [heldApart]) + photographed

    /// The default must meet the issue's bars on scenes 48–95; the textbook's figures on held-apart
    /// scenes are bounded so that a change shows. The other sets are reported.
    @Test("the default profile finds, names and counts the objects of held-apart table scenes 48–95; the textbook's does not", arguments: sets)
    func scenes(_ set: SceneSet) async throws {
        do {
            // The shared list with the lengths the shipped list gives its objects, as the studio names them.
            var list = try TrainingList(contentsOfFile: TestData.path("beancounter/labels.json"))
            list.millimetres = try TrainingList(contentsOfFile: TestData.shippedTrainingList).millimetres
            let maker = try BlobScenes(list: list, count: set.scenes.upperBound)
            var drawn: [BlobScenes.Scene] = []
            for index in set.scenes { drawn.append(try maker.scene(index, arrangement: set.arrangement)) }
            if set.arrangement == .scattered {
                #expect(drawn.filter { $0.contact > 0.2 }.count >= 5, "some scenes have objects pressed together")
                #expect(drawn.filter { $0.conditions.hasPrefix("handful of beans") }.count == set.scenes.count / 6)
            } else {
                #expect(drawn.allSatisfy { (5...15).contains($0.blobs.count) }, "\(drawn.map(\.blobs.count))")
                #expect(drawn.filter { $0.conditions.contains("cut by the edge") }.count >= drawn.count / 6)
                #expect(drawn.filter { $0.conditions.contains("dark card") }.count >= drawn.count / 6)
                #expect(drawn.filter { $0.conditions.contains("from farther") }.count >= drawn.count / 6)
            }
            var results: [String: BlobSceneEvaluation] = [:]
            for profile in BlobProfile.all where set.profiles.contains(profile.name) {
                let classifier = try BlobClassifier.train(list, profile: profile).classifier
                let detector = try BlobDetector(profile: profile)
                var evaluation = BlobSceneEvaluation()
                for scene in drawn {
                    let blobs = try detector.named(in: scene.image, by: classifier)
                    evaluation.score(scene: scene.name, objects: scene.blobs, found: blobs)
                }
                results[profile.name] = evaluation
            }
            Evaluation.table("Bean counter, \(set.testDescription), \(drawn.count) scenes",
                             columns: ["scenes", "profile", "recall", "precision", "named right", "exact tallies", "tally error per object"],
                             rows: set.profiles.compactMap { name in results[name].map { score in
                                 [set.testDescription, name == "default" ? "**default**" : name, Evaluation.percent(score.recall), Evaluation.percent(score.precision),
                                  Evaluation.percent(score.labellingAccuracy), Evaluation.percent(score.exactTallies),
                                  Evaluation.figure(score.tallyErrorPerObject, digits: 3)]
                             } })
            if set.heldApart, let textbook = results["textbook"] {
                #expect(textbook.recall < 0.7 && textbook.exactTallies < 0.2)
            }
            if set.arrangement != .scattered, set.heldApart, let standard = results["default"] {
                // The issue's bars are 95 % found and precise and 80 % exact tallies. Rings meet them
                // (99.1 % found, 98.8 % precise, 85.4 % exact on 48–95) and so do heaps (99.8 %, 99.4 %,
                // 95.8 %), with a third of them on dark card, a third seen from farther and coins shining
                // (rings 98.2 %, 98.5 %, 81.2 % before grey ellipses were kept apart from shadows). Both
                // held to them: on twelve scenes, one tally more wrong fails.
                let floor = (recall: 0.95, precision: 0.95, exact: 0.8)
                #expect(standard.recall >= floor.recall && standard.precision >= floor.precision, "recall \(standard.recall), precision \(standard.precision)")
                #expect(standard.exactTallies >= floor.exact, "exact tallies \(standard.exactTallies)")
                #expect(standard.labellingAccuracy >= 0.9, "named \(standard.labellingAccuracy)")
            }
            guard set.heldToBars else { return }
            let standard = try #require(results["default"])
            #expect(standard.objects > 4 * drawn.count, "\(standard.objects) objects in \(drawn.count) scenes")
            #expect(standard.recall >= 0.95 && standard.precision >= 0.95, "recall \(standard.recall), precision \(standard.precision)")
            #expect(standard.labellingAccuracy >= 0.85)
            #expect(standard.exactTallies >= 0.8, "exact tallies \(standard.exactTallies)")
            #expect(standard.tallyErrorPerObject < 0.1)
        }
    }
}

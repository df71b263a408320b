import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

/// The bean counter on real photographs of real tables (the shared tables/: Canadian coins on white
/// paper, white and coffee beans with a złoty coin on dark card), every object labelled by hand,
/// named by a classifier trained on single objects cut from other photos of the same tables. Four
/// coin photos and four bean photos were held apart while the naming's weights were chosen; the rest
/// were looked at. `make eval` scores them all (22 photos, about 20 seconds) and prints
/// the BeanCounterMeasured article's table.
@Suite("Bean counter on real table photos")
struct TablePhotoEvaluation {
    static let heldApart = ["coins_cad_016", "coins_cad_025", "coins_cad_043", "coins_cad_045",
                            "beans_coffee_20231014_220553", "beans_coffee_20231014_220617",
                            "beans_white_20231014_220012", "beans_white_20231014_220019"]

    @Test("found, precise, named and counted on real photos, held apart beside tuned, coins and beans; the textbook's as the baseline")
    func realTables() throws {
        let photos = try BlobSceneList(contentsOfFile: TestData.path("tables/photos/ground_truth.json"))
        let list = try TrainingList(contentsOfFile: TestData.path("tables/train/labels.json"))
        var results: [String: BlobSceneEvaluation] = [:]
        var rows: [[String]] = []
        for profile in BlobProfile.all {
            let classifier = try BlobClassifier.train(list, profile: profile).classifier
            let detector = try BlobDetector(profile: profile)
            for held in [false, true] {
                for kind in ["coins", "beans"] {
                    let chosen = BlobSceneList(scenes: photos.scenes.filter { scene in
                        scene.image.contains(kind + "_") && Self.heldApart.contains { scene.image.contains($0) } == held
                    })
                    let score = try chosen.evaluate(folder: TestData.path("tables/photos"), detector: detector, classifier: classifier)
                    #expect(score.problems.isEmpty)
                    results["\(profile.name) \(kind) \(held ? "held" : "tuned")"] = score
                    rows.append([held ? "held apart" : "tuned", kind, profile.name == "default" ? "**default**" : profile.name,
                                 "\(score.scenes.count)", "\(score.objects)", Evaluation.percent(score.recall), Evaluation.percent(score.precision),
                                 Evaluation.percent(score.labellingAccuracy), "\(score.scenes.filter(\.exactTally).count) of \(score.scenes.count)"])
                }
            }
        }
        Evaluation.table("Bean counter on real table photos (IoU ≥ 0.5)",
                         columns: ["photos", "table", "profile", "photos", "objects", "found", "precise", "named", "counted exactly"], rows: rows)
        // Floors a little under what this version measures held apart (coins 75 % found, 85.7 % precise,
        // 55.6 % named; beans 85.7 %, 76.9 %, 63.3 %), so a change that loses ground fails. The issue's
        // bars (0.9 found and precise, 0.85 named, half the photos counted exactly) are not met yet:
        // the 'unidentified' threshold, set for the made scenes, leaves a third of the real beans
        // unnamed (named with none, 67 of 68), and a coin's relief, weighed 0.8, tells two photos of
        // one coin apart about as much as two coins.
        let coins = try #require(results["default coins held"]), beans = try #require(results["default beans held"])
        #expect(coins.recall >= 0.7 && coins.precision >= 0.8, "coins found \(coins.recall), precise \(coins.precision)")
        #expect(coins.labellingAccuracy >= 0.5, "coins named \(coins.labellingAccuracy)")
        #expect(beans.recall >= 0.8 && beans.precision >= 0.7 && beans.labellingAccuracy >= 0.6,
                "beans found \(beans.recall), precise \(beans.precision), named \(beans.labellingAccuracy)")
        let textbookCoins = try #require(results["textbook coins held"]), textbookBeans = try #require(results["textbook beans held"])
        #expect(textbookCoins.recall < coins.recall && textbookCoins.labellingAccuracy < coins.labellingAccuracy)
        #expect(textbookBeans.recall < 0.2)
    }
}

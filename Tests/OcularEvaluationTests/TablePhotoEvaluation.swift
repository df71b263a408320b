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
/// Benchmarks/BeanCounterMeasured.md's table; then made scenes of the same objects that lay other
/// pictures than were trained on, to say how well made scenes predict real ones.
@Suite("Bean counter on real table photos")
struct TablePhotoEvaluation {
    @Test("found, precise, named and counted on real photos, held apart beside tuned, coins and beans; the textbook's as the baseline")
    func realTables() throws {
        let photos = try BlobSceneList(contentsOfFile: TestData.path("tables/photos/ground_truth.json"))
        let list = try TablePhotos.sizedList()
        var unsized = list
        unsized.millimetres = [:]
        var results: [String: BlobSceneEvaluation] = [:]
        var rows: [[String]] = []
        let profiles = [("default", BlobProfile.standard, list), ("default, no sizes", .standard, unsized), ("textbook", .textbook, list)]
        for (name, profile, list) in profiles {
            let classifier = try BlobClassifier.train(list, profile: profile).classifier
            let detector = try BlobDetector(profile: profile)
            for held in [false, true] {
                for kind in ["coins", "beans"] {
                    let chosen = BlobSceneList(scenes: photos.scenes.filter { scene in
                        scene.image.contains(kind + "_") && TablePhotos.heldApart.contains { scene.image.contains($0) } == held
                    })
                    let score = try chosen.evaluate(folder: TestData.path("tables/photos"), detector: detector, classifier: classifier)
                    #expect(score.problems.isEmpty)
                    results["\(name) \(kind) \(held ? "held" : "tuned")"] = score
                    rows.append([held ? "held apart" : "tuned", kind, name == "default" ? "**default**" : name,
                                 "\(score.scenes.count)", "\(score.objects)", Evaluation.percent(score.recall), Evaluation.percent(score.precision),
                                 Evaluation.percent(score.labellingAccuracy), "\(score.scenes.filter(\.exactTally).count) of \(score.scenes.count)"])
                }
            }
        }
        Evaluation.table("Bean counter on real table photos (IoU ≥ 0.5)",
                         columns: ["photos", "table", "profile", "photos", "objects", "found", "precise", "named", "counted exactly"], rows: rows)
        try Self.madeBesideReal(results, profiles: profiles)
        // Floors a little under what this version measures held apart (coins 100 % found, 100 % precise,
        // 95.8 % named, 3 of 4 photos counted exactly; beans 97.1 %, 100 %, 100 %, 3 of 4), so a change
        // that loses ground fails, and at least the bars a user was promised: 0.9 found and precise,
        // 0.85 named, half the photos counted exactly.
        let coins = try #require(results["default coins held"]), beans = try #require(results["default beans held"])
        #expect(coins.recall >= 0.95 && coins.precision >= 0.95, "coins found \(coins.recall), precise \(coins.precision)")
        #expect(coins.labellingAccuracy >= 0.9, "coins named \(coins.labellingAccuracy)")
        #expect(coins.scenes.filter(\.exactTally).count >= 2, "coin photos counted exactly")
        #expect(beans.scenes.filter(\.exactTally).count >= 2, "bean photos counted exactly")
        #expect(beans.recall >= 0.94 && beans.precision >= 0.95 && beans.labellingAccuracy >= 0.95,
                "beans found \(beans.recall), precise \(beans.precision), named \(beans.labellingAccuracy)")
        // Sizes given in the list name more coins than sizes from the training pictures (on all twelve
        // coin photos: four held apart are 24 coins, one coin a 4 % step).
        var sizedCoins = coins, unsizedCoins = try #require(results["default, no sizes coins held"])
        sizedCoins.add(try #require(results["default coins tuned"]))
        unsizedCoins.add(try #require(results["default, no sizes coins tuned"]))
        #expect(unsizedCoins.labellingAccuracy < sizedCoins.labellingAccuracy)
        let textbookCoins = try #require(results["textbook coins held"]), textbookBeans = try #require(results["textbook beans held"])
        #expect(textbookCoins.recall < coins.recall && textbookCoins.labellingAccuracy < coins.labellingAccuracy)
        #expect(textbookBeans.recall < 0.2)
    }

    /// Each label's training pictures in the order a user adds them: heads, tails, heads, tails (a
    /// bean has no sides), by file name.
    static func picturesInTurn(of list: TrainingList) -> [Int: [TrainingList.Entry]] {
        var turns: [Int: [TrainingList.Entry]] = [:]
        for (label, entries) in Dictionary(grouping: list.entries, by: \.label) {
            let sorted = entries.sorted { $0.imageFilename < $1.imageFilename }
            var heads = sorted.filter { !$0.imageFilename.contains("tails") }, tails = sorted.filter { $0.imageFilename.contains("tails") }
            var turn: [TrainingList.Entry] = []
            while !heads.isEmpty || !tails.isEmpty {
                if !heads.isEmpty { turn.append(heads.removeFirst()) }
                if !tails.isEmpty { turn.append(tails.removeFirst()) }
            }
            turns[label] = turn
        }
        return turns
    }

    /// How many pictures a class needs: the real photos named from 1, 2, 3 and all 4 pictures of each
    /// label (the beans have 3), each fewer taken four ways round the label's pictures, so one lucky
    /// picture does not speak for all. Finding does not depend on the list; naming does.
    @Test("how many training pictures a class needs, measured on the real photos")
    func picturesPerClass() throws {
        let photos = try BlobSceneList(contentsOfFile: TestData.path("tables/photos/ground_truth.json"))
        let list = try TablePhotos.sizedList()
        let turns = Self.picturesInTurn(of: list)
        let detector = try BlobDetector()
        var rows: [[String]] = [], named: [Int: Double] = [:]
        for count in 1...4 {
            var scores: [BlobSceneEvaluation] = []
            for start in 0..<(count < 4 ? 4 : 1) {
                var chosen = list
                chosen.entries = turns.keys.sorted().flatMap { label in
                    let pictures = turns[label]!
                    return (0..<min(count, pictures.count)).map { pictures[(start + $0) % pictures.count] }
                }
                let classifier = try BlobClassifier.train(chosen, profile: .standard).classifier
                scores.append(try photos.evaluate(folder: TestData.path("tables/photos"), detector: detector, classifier: classifier))
            }
            let accuracies = scores.map(\.labellingAccuracy)
            named[count] = accuracies.reduce(0, +) / Double(accuracies.count)
            let exact = scores.map(\.exactTallies).reduce(0, +) / Double(scores.count)
            rows.append([count < 4 ? "\(count)" : "all (4; beans 3)", "\(scores.count)", Evaluation.percent(named[count]!),
                         "\(Evaluation.percent(accuracies.min()!)) – \(Evaluation.percent(accuracies.max()!))", Evaluation.percent(exact)])
        }
        Evaluation.table("Pictures per class: the 22 real photos named from fewer training pictures",
                         columns: ["pictures per label", "trainings", "named", "worst – best", "counted exactly"], rows: rows)
        // More pictures name more: a coin needs its heads and its tails, and three pictures come within a
        // few points of four.
        #expect(named[1]! < named[2]! && named[2]! < named[4]!, "named by pictures per label: \(named)")
        #expect(named[3]! >= 0.85, "named from 3 pictures: \(named[3]!)")
    }

    /// The tables' pictures in two halves: the first picture of each label's heads and of its tails
    /// (of a bean, its first) in one, the others in the other.
    static func halves(of list: TrainingList) -> (TrainingList, TrainingList) {
        var first = list, second = list
        first.entries = []
        second.entries = []
        var seen: Set<String> = []
        for entry in list.entries.sorted(by: { $0.imageFilename < $1.imageFilename }) {
            if seen.insert("\(entry.label) \(entry.imageFilename.contains("tails"))").inserted {
                first.entries.append(entry)
            } else {
                second.entries.append(entry)
            }
        }
        return (first, second)
    }

    /// Made scenes (scattered, rings, heaps; 12 of each, held-apart numbers) that lay one half of the
    /// tables' pictures and are named by a classifier trained on the other half, then the other way
    /// round, printed beside the same profile on all 22 real photos: the book's made scenes lay the
    /// very pictures trained on, where every profile names nearly all, and so cannot rank them.
    static func madeBesideReal(_ real: [String: BlobSceneEvaluation], profiles: [(String, BlobProfile, TrainingList)]) throws {
        var rows: [[String]] = []
        var made: [String: BlobSceneEvaluation] = [:]
        for (name, profile, list) in profiles {
            let (first, second) = halves(of: list)
            var all = BlobSceneEvaluation()
            for (laid, trained) in [(first, second), (second, first)] {
                let maker = try BlobScenes(list: laid, count: 60)
                let classifier = try BlobClassifier.train(trained, profile: profile).classifier
                let detector = try BlobDetector(profile: profile)
                for arrangement in BlobScenes.Arrangement.allCases {
                    for index in 48..<60 {
                        let scene = try maker.scene(index, arrangement: arrangement)
                        all.score(scene: scene.name, objects: scene.blobs, found: try detector.named(in: scene.image, by: classifier))
                    }
                }
            }
            made[name] = all
            var photos = BlobSceneEvaluation()
            for key in real.keys.sorted() where key.hasPrefix(name + " ") { photos.add(real[key]!) }
            for (kind, score) in [("made, other pictures", all), ("real photos", photos)] {
                rows.append([kind, name == "default" ? "**default**" : name, "\(score.scenes.count)", "\(score.objects)", Evaluation.percent(score.recall),
                             Evaluation.percent(score.precision), Evaluation.percent(score.labellingAccuracy), Evaluation.percent(score.exactTallies)])
            }
        }
        Evaluation.table("Made scenes of the tables' objects (laying other pictures than trained on) beside the real photos",
                         columns: ["scenes", "profile", "scenes", "objects", "found", "precise", "named", "counted exactly"], rows: rows)
        // The made scenes rank the profiles as the real photos do: what names more there names more here.
        let standard = try #require(made["default"]), textbook = try #require(made["textbook"])
        #expect(standard.labellingAccuracy > textbook.labellingAccuracy && standard.recall > textbook.recall)
    }
}

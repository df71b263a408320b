import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct BlobsEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Classify labelled pictures and print the accuracy and a confusion matrix.",
        discussion: """
            --labelled names a list (JSON or property list, as for training), a folder holding labels.json, or a \
            folder of subfolders named by label number or description ("7" or "pinto bean"). Each picture's \
            biggest blob is classified; a picture without a blob counts as answered 0. Or it names a scene list of \
            several objects a picture, as `ocular blobs scenes` writes ({"scenes": [{"image", "blobs": [{"label", \
            "bounds": [x, y, w, h]}]}]}), or real photographs labelled as {"files": {"photos/NAME.jpg": {"blobs": [{"label", \
            "bbox": [x, y, w, h]}]}}} (a file's name is taken from the list's folder, or the folder above it): then every blob is found and named, and detection recall and precision \
            (IoU ≥ 0.5), labelling accuracy and exact tallies are printed.
            """)

    @Option(help: ArgumentHelp("The labelled pictures: a list, or a folder.", valueName: "folder|file"))
    var labelled: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    @OptionGroup var classifierOptions: ClassifierOptions

    func run() throws {
        let (classifier, _) = try classifierOptions.classifier()
        if BlobSceneList.isSceneList(labelled) {
            try evaluateScenes(classifier: classifier)
            return
        }
        var isFolder: ObjCBool = false
        let pictures = FileManager.default.fileExists(atPath: labelled, isDirectory: &isFolder) && isFolder.boolValue
            ? try TrainingList(labelledFolder: labelled, labelDescriptions: classifier.labelDescriptions)
            : try TrainingList(contentsOfFile: labelled)
        let evaluation = try ProgressDisplay.showing("evaluating", total: pictures.entries.count, unit: "pictures") { progress in
            try BlobEvaluation.evaluate(classifier, on: pictures, detector: try BlobDetector(profile: classifier.profile)) { index, _, _ in
                if index > 0 { progress.advance() }
            }
        }
        for problem in evaluation.problems { classifierOptions.warn("not evaluated: \(problem)") }
        if json {
            struct Report: Encodable { var profile: String; var correct: Int; var total: Int; var accuracy: Double; var labels: [String]; var confusion: [[Int]] }
            try JSONOutput.print(Report(profile: classifier.profile.name, correct: evaluation.correct, total: evaluation.total,
                                              accuracy: evaluation.accuracy, labels: evaluation.labelDescriptions,
                                              confusion: evaluation.confusion))
            return
        }
        print(Self.report(evaluation, profile: classifier.profile))
    }

    /// Several objects a picture: detection, naming and tallies.
    func evaluateScenes(classifier: BlobClassifier) throws {
        let list = try BlobSceneList(contentsOfFile: labelled)
        let folder = (labelled as NSString).deletingLastPathComponent
        let evaluation = try ProgressDisplay.showing("evaluating", total: list.scenes.count, unit: "scenes") { progress in
            try list.evaluate(folder: folder.isEmpty ? "." : folder, detector: try BlobDetector(profile: classifier.profile),
                              classifier: classifier) { index, _, _ in
                if index > 0 { progress.advance() }
            }
        }
        for problem in evaluation.problems { classifierOptions.warn("not evaluated: \(problem)") }
        if json {
            struct Report: Encodable {
                var profile: String; var scenes: Int; var objects: Int; var found: Int; var matched: Int; var named: Int
                var recall: Double; var precision: Double; var labellingAccuracy: Double; var exactTallies: Double
                var tallyErrorPerObject: Double; var perScene: [BlobSceneEvaluation.SceneResult]
            }
            try JSONOutput.print(Report(profile: classifier.profile.name, scenes: evaluation.scenes.count, objects: evaluation.objects,
                                              found: evaluation.found, matched: evaluation.matched, named: evaluation.named,
                                              recall: evaluation.recall, precision: evaluation.precision,
                                              labellingAccuracy: evaluation.labellingAccuracy, exactTallies: evaluation.exactTallies,
                                              tallyErrorPerObject: evaluation.tallyErrorPerObject, perScene: evaluation.scenes))
            return
        }
        print(Self.report(evaluation, profile: classifier.profile))
    }

    static func report(_ evaluation: BlobSceneEvaluation, profile: BlobProfile) -> String {
        func percent(_ value: Double) -> String { "\(ParameterValue.number((value * 1000).rounded() / 10)) %" }
        let exact = evaluation.scenes.filter(\.exactTally).count
        return """
            \(profile) profile, \(evaluation.scenes.count) scenes, \(evaluation.objects) objects
            detection recall (IoU ≥ 0.5): \(evaluation.matched) of \(evaluation.objects), \(percent(evaluation.recall))
            detection precision: \(evaluation.matched) of \(evaluation.found) blobs, \(percent(evaluation.precision))
            labelling accuracy of matched: \(evaluation.named) of \(evaluation.matched), \(percent(evaluation.labellingAccuracy))
            exact tallies: \(exact) of \(evaluation.scenes.count) scenes, \(percent(evaluation.exactTallies)); \
            tally error \(ParameterValue.number((evaluation.tallyErrorPerObject * 1000).rounded() / 1000)) per object
            """
    }

    /// The accuracy, then the confusion matrix: one row per true label, one column per answer.
    static func report(_ evaluation: BlobEvaluation, profile: BlobProfile) -> String {
        let percent = (evaluation.accuracy * 1000).rounded() / 10
        var lines = ["accuracy (\(profile) profile): \(evaluation.correct) of \(evaluation.total), \(ParameterValue.number(percent)) %", "",
                     "confusion (rows: true label, columns: answer)"]
        let labels = evaluation.labelDescriptions.indices
        let width = max(4, String(evaluation.total).count + 1)
        func cell(_ text: String) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        lines.append("   " + labels.map { cell(String($0)) }.joined() + "   ")
        for truth in labels where evaluation.confusion[truth].contains(where: { $0 > 0 }) || truth > 0 {
            lines.append(cell(String(truth)).suffix(3) + labels.map { cell(String(evaluation.confusion[truth][$0])) }.joined()
                         + "   " + evaluation.labelDescriptions[truth])
        }
        return lines.joined(separator: "\n")
    }
}

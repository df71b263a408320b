import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

/// The options of every command that classifies.
struct ClassifierOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The training list: JSON or property list.", valueName: "file"))
    var training: String

    @Option(help: "default: colour and texture scaled to [0, 1] with an 'unidentified' threshold; textbook: the book's baseline.")
    var profile = BlobsStage.profile.defaultValue

    @Option(help: ArgumentHelp("Answer 0, unidentified, beyond this distance (default: "
                               + BlobProfile.all.map { "\($0.defaultThreshold.map { "\($0)" } ?? "none") for the \($0.name) profile" }.joined(separator: ", ")
                               + ").", valueName: "distance"))
    var threshold: Double?

    @Flag(name: .customLong("no-threshold"), help: "The nearest reference always wins.")
    var noThreshold = false

    @Option(help: ArgumentHelp("Keep the trained model in this file instead of the user's cache folder.", valueName: "file"))
    var model: String?

    func validate() throws {
        if let threshold, !(threshold.isFinite && threshold >= 0) {
            throw ValidationError("--threshold must be a distance of 0 or more, got \(threshold)")
        }
        if threshold != nil, noThreshold { throw ValidationError("give --threshold or --no-threshold, not both") }
    }

    /// The classifier, loaded or trained (with a progress bar), its problems told on standard error.
    func classifier(retrain: Bool = false, quiet: Bool = false) throws -> (BlobClassifier, BlobModel.Report) {
        let chosen = profile.profile
        let (classifier, report) = try ProgressDisplay.showing("training", total: nil, unit: "pictures") { progress in
            try BlobModel.classifier(forList: training, profile: chosen, threshold: noThreshold ? .infinity : threshold, retrain: retrain,
                                     modelFile: model) { index, total, _ in
                progress.total = total
                if index > 0 { progress.advance() }
            }
        }
        for note in report.notes { warn(note) }
        for problem in report.problems { warn("not trained: \(problem)") }
        if classifier.references.isEmpty && !quiet { warn("no picture of the list could be used: every blob is unidentified") }
        return (classifier, report)
    }

    func warn(_ text: String) {
        FileHandle.standardError.write(Data("warning: \(text)\n".utf8))
    }
}

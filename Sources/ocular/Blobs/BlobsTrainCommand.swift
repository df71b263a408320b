import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct BlobsTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the classifier on a list and keep the model in the user's cache folder (or --model).",
        discussion: """
            The list is JSON ({"labelDescriptions": ["unidentified", "dime", …], "blobs": [{"imageFilename", "label"}]}) \
            or the textbook's property list. Optionally "values": [{"label", "value", "currency"}] for the money a tally \
            adds up, and "sizes": [{"label", "millimetres"}], each label's real long side (a coin's diameter), so that \
            objects of one colour are told apart by size whatever distance the pictures were taken from. Pictures that \
            are missing or unreadable are named and left out; the rest train.
            """)

    @OptionGroup var classifierOptions: ClassifierOptions

    func run() throws {
        let start = Date()
        let (classifier, report) = try classifierOptions.classifier(retrain: true, quiet: true)
        let seconds = Date().timeIntervalSince(start)
        print("trained \(classifier.references.count) picture\(classifier.references.count == 1 ? "" : "s") with the \(classifier.profile) profile "
              + "in \(ProgressDisplay.describe(seconds: seconds)): \(report.modelPath)")
        guard !classifier.references.isEmpty else {
            throw BlobError.badTrainingList(path: classifierOptions.training, reason: "none of its pictures could be used")
        }
    }
}

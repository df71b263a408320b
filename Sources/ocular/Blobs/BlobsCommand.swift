import ArgumentParser
import Foundation
import Ocular

struct BlobsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blobs",
        abstract: "Find coins, beans and other objects on a plain background, and name them.",
        discussion: """
            A training list names pictures of known objects: JSON or the textbook's property list, with \
            "labelDescriptions" (index 0 is "unidentified") and "blobs": [{"imageFilename", "label"}]. The trained \
            model is kept beside the list (or in ~/.cache/ocular when that folder is read-only) and retrained when \
            the list or a picture changes.
            """,
        subcommands: [BlobsDetectCommand.self, BlobsClassifyCommand.self, BlobsTrainCommand.self, BlobsEvaluateCommand.self])

    /// Sorted keys: the same blobs always print the same text.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// The options of every command that classifies.
struct ClassifierOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The training list: JSON or property list.", valueName: "file"))
    var training: String

    @Option(help: ArgumentHelp("default: colour and texture scaled to [0, 1] with an 'unidentified' threshold; textbook: SPEC §5's baseline.",
                               valueName: "default|textbook"))
    var profile = BlobProfile.standard.name

    @Option(help: ArgumentHelp("Answer 0, unidentified, beyond this distance (default: 0.33 for the default profile, none for the textbook's).",
                               valueName: "distance"))
    var threshold: Double?

    @Flag(name: .customLong("no-threshold"), help: "The nearest reference always wins.")
    var noThreshold = false

    func validate() throws {
        guard BlobProfile.named(profile) != nil else {
            throw ValidationError("--profile must be one of \(BlobProfile.all.map(\.name).joined(separator: ", ")), got '\(profile)'")
        }
        if let threshold, !(threshold.isFinite && threshold >= 0) {
            throw ValidationError("--threshold must be a distance of 0 or more, got \(threshold)")
        }
        if threshold != nil, noThreshold { throw ValidationError("give --threshold or --no-threshold, not both") }
    }

    /// The classifier, loaded or trained (with a progress bar), its problems told on standard error.
    func classifier(retrain: Bool = false, quiet: Bool = false) throws -> (BlobClassifier, BlobModel.Report) {
        let chosen = BlobProfile.named(profile) ?? .standard
        var progress: ProgressDisplay?
        let (classifier, report) = try BlobModel.classifier(forList: training, profile: chosen,
                                                            threshold: noThreshold ? .infinity : threshold, retrain: retrain) { index, total, _ in
            if progress == nil { progress = ProgressDisplay(title: "training", total: total, unit: "pictures") }
            if index > 0 { progress?.advance() }
        }
        progress?.finish()
        for note in report.notes { warn(note) }
        for problem in report.problems { warn("not trained: \(problem)") }
        if classifier.references.isEmpty && !quiet { warn("no picture of the list could be used: every blob is unidentified") }
        return (classifier, report)
    }

    func warn(_ text: String) {
        FileHandle.standardError.write(Data("warning: \(text)\n".utf8))
    }
}

struct BlobsDetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "List the blobs of a picture, and draw them or their mask.",
        discussion: #"Prints one line per blob, biggest first, or with --json: {"blobs":[{"bounds":[x,y,w,h],"label":0}]}."#)

    @Argument(help: "The picture: objects on a plain background.")
    var input: String

    @Option(help: ArgumentHelp("Write the picture with green rectangles round the blobs.", valueName: "out.png"))
    var draw: String?

    @Option(help: ArgumentHelp("Write the background mask (white) at the picture's size.", valueName: "out.png"))
    var mask: String?

    @Flag(help: "Print the blobs as JSON.")
    var json = false

    @OptionGroup var read: ReadOptions

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let detection = try BlobDetector().detect(in: image)
        if let draw { try BlobsStage.drawn(detection.blobs, on: image).write(toFile: draw) }
        if let mask { try detection.mask.resized(width: image.width, height: image.height).write(toFile: mask) }
        if json {
            print(try BlobsCommand.json(["blobs": detection.blobs]))
            return
        }
        if detection.blobs.isEmpty { print("\(input): no blob") }
        for blob in detection.blobs { print("blob \(blob.bounds)") }
        if let draw { print("\(draw): \(detection.blobs.count) blob\(detection.blobs.count == 1 ? "" : "s") drawn") }
        if let mask { print("\(mask): the mask") }
    }
}

struct BlobsClassifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Name the biggest blob of a picture (or every blob with --all).",
        discussion: """
            Prints the label, its description and the distance to the nearest training picture, or with --json \
            {"blobs":[{"bounds":[x,y,w,h],"label":N,"description":"…","distance":D}]}. Label 0 is "unidentified": \
            no training picture was within the threshold.
            """)

    @Argument(help: "The picture: objects on a plain background.")
    var input: String

    @Flag(help: "Classify every blob, not only the biggest.")
    var all = false

    @Flag(help: "Print the blobs as JSON.")
    var json = false

    @OptionGroup var classifierOptions: ClassifierOptions

    @OptionGroup var read: ReadOptions

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let (classifier, _) = try classifierOptions.classifier()
        let found = try BlobDetector().detect(in: image).blobs
        let chosen = all ? found : Blob.biggest(of: found).map { [$0] } ?? []
        guard all || !chosen.isEmpty else { throw OcularError.noBlob(in: "'\(input)'") }
        let blobs = try chosen.map { try classifier.classified($0) }
        if json {
            print(try BlobsCommand.json(["blobs": blobs]))
            return
        }
        if blobs.isEmpty { print("\(input): no blob") }
        for blob in blobs {
            let answer = blob.classification
            let distance = answer?.roundedDistance.map { "distance \(ParameterValue.number($0))" } ?? "no training pictures"
            print("\(answer?.description ?? "unidentified") (label \(blob.label)) at \(blob.bounds), \(distance)")
        }
    }
}

struct BlobsTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the classifier on a list and keep the model beside it.",
        discussion: "Pictures that are missing or unreadable are named and left out; the rest train.")

    @OptionGroup var classifierOptions: ClassifierOptions

    func run() throws {
        let start = Date()
        let (classifier, report) = try classifierOptions.classifier(retrain: true, quiet: true)
        let seconds = Date().timeIntervalSince(start)
        print("trained \(classifier.references.count) picture\(classifier.references.count == 1 ? "" : "s") with the \(classifier.profile) profile "
              + "in \(ProgressDisplay.describe(seconds: seconds)): \(report.modelPath)")
        guard !classifier.references.isEmpty else {
            throw OcularError.badTrainingList(path: classifierOptions.training, reason: "none of its pictures could be used")
        }
    }
}

struct BlobsEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Classify labelled pictures and print the accuracy and a confusion matrix.",
        discussion: """
            --labelled names a list (JSON or property list, as for training), a folder holding labels.json, or a \
            folder of subfolders named by label number or description ("7" or "pinto bean"). Each picture's \
            biggest blob is classified; a picture without a blob counts as answered 0.
            """)

    @Option(help: ArgumentHelp("The labelled pictures: a list, or a folder.", valueName: "folder|file"))
    var labelled: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    @OptionGroup var classifierOptions: ClassifierOptions

    func run() throws {
        let (classifier, _) = try classifierOptions.classifier()
        var isFolder: ObjCBool = false
        let pictures = FileManager.default.fileExists(atPath: labelled, isDirectory: &isFolder) && isFolder.boolValue
            ? try TrainingList(labelledFolder: labelled, labelDescriptions: classifier.labelDescriptions)
            : try TrainingList(contentsOfFile: labelled)
        let progress = ProgressDisplay(title: "evaluating", total: pictures.entries.count, unit: "pictures")
        let evaluation: BlobEvaluation
        do {
            evaluation = try BlobEvaluation.evaluate(classifier, on: pictures, detector: try BlobDetector()) { index, _, _ in
                if index > 0 { progress.advance() }
            }
            progress.finish()
        } catch {
            progress.finish(succeeded: false)
            throw error
        }
        for problem in evaluation.problems { classifierOptions.warn("not evaluated: \(problem)") }
        if json {
            struct Report: Encodable { var profile: String; var correct: Int; var total: Int; var accuracy: Double; var labels: [String]; var confusion: [[Int]] }
            print(try BlobsCommand.json(Report(profile: classifier.profile.name, correct: evaluation.correct, total: evaluation.total,
                                               accuracy: evaluation.accuracy, labels: evaluation.labelDescriptions,
                                               confusion: evaluation.confusion)))
            return
        }
        print(Self.report(evaluation, profile: classifier.profile))
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

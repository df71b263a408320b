import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct BlobsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blobs",
        abstract: "Find coins, beans and other objects on a plain background, and name them.",
        discussion: """
            A training list names pictures of known objects: JSON or the textbook's property list, with \
            "labelDescriptions" (index 0 is "unidentified") and "blobs": [{"imageFilename", "label"}]. The trained \
            model is a cache, kept in ~/.cache/ocular ($XDG_CACHE_HOME/ocular) under a checksum of the list, or in the \
            file --model names, and retrained when the list or a picture changes.
            """,
        subcommands: [BlobsDetectCommand.self, BlobsClassifyCommand.self, BlobsCountCommand.self, BlobsTrainCommand.self, BlobsEvaluateCommand.self,
                      BlobsScenesCommand.self])

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

    @Option(help: ArgumentHelp("default: colour and texture scaled to [0, 1] with an 'unidentified' threshold; textbook: the book's baseline.",
                               valueName: BlobsStage.profile.valueNames))
    var profile = BlobsStage.profile.defaultValue.rawValue

    @Option(help: ArgumentHelp("Answer 0, unidentified, beyond this distance (default: "
                               + BlobProfile.all.map { "\($0.defaultThreshold.map { "\($0)" } ?? "none") for the \($0.name) profile" }.joined(separator: ", ")
                               + ").", valueName: "distance"))
    var threshold: Double?

    @Flag(name: .customLong("no-threshold"), help: "The nearest reference always wins.")
    var noThreshold = false

    @Option(help: ArgumentHelp("Keep the trained model in this file instead of the user's cache folder.", valueName: "file"))
    var model: String?

    func validate() throws {
        _ = try BlobsStage.profile.choice(profile, option: "profile")
        if let threshold, !(threshold.isFinite && threshold >= 0) {
            throw ValidationError("--threshold must be a distance of 0 or more, got \(threshold)")
        }
        if threshold != nil, noThreshold { throw ValidationError("give --threshold or --no-threshold, not both") }
    }

    /// The classifier, loaded or trained (with a progress bar), its problems told on standard error.
    func classifier(retrain: Bool = false, quiet: Bool = false) throws -> (BlobClassifier, BlobModel.Report) {
        let chosen = try BlobsStage.profile.choice(profile, option: "profile").profile
        var progress: ProgressDisplay?
        let (classifier, report) = try BlobModel.classifier(forList: training, profile: chosen,
                                                            threshold: noThreshold ? .infinity : threshold, retrain: retrain,
                                                            modelFile: model) { index, total, _ in
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
        let found = try BlobDetector(profile: classifier.profile).detect(in: image).blobs
        let chosen = all ? found : Blob.biggest(of: found).map { [$0] } ?? []
        guard all || !chosen.isEmpty else { throw BlobError.noBlob(in: "'\(input)'") }
        let blobs = try classifier.classified(chosen)
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

struct BlobsCountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Name every object of a picture and print the tally: how many of each, and the money.",
        discussion: """
            Prints one line such as "3 pinto beans, 2 romano beans, 1 loonie: $1.50" (the money when the training \
            list gives labels a "value" and a "currency"), then the count of each label; or with --json \
            {"tally": {"lines": [{"label", "description", "count", "value", "currency"}], "totals": {"CAD": 1.5}, \
            "text", "count"}, "blobs": [...]}.
            """)

    @Argument(help: "The picture: objects on a table.")
    var input: String

    @Option(help: ArgumentHelp("Write the picture with each object boxed and named.", valueName: "out.png"))
    var draw: String?

    @Flag(help: "Print the tally and the blobs as JSON.")
    var json = false

    @OptionGroup var classifierOptions: ClassifierOptions

    @OptionGroup var read: ReadOptions

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let (classifier, _) = try classifierOptions.classifier()
        let blobs = try BlobDetector(profile: classifier.profile).named(in: image, by: classifier)
        let tally = BlobTally(blobs: blobs, classifier: classifier)
        if let draw { try BlobsStage.drawn(blobs, on: image).write(toFile: draw) }
        if json {
            struct Report: Encodable { var tally: BlobTally; var blobs: [Blob] }
            print(try BlobsCommand.json(Report(tally: tally, blobs: blobs)))
            return
        }
        print(tally.text)
        for line in tally.lines {
            let worth = line.value.map { " at \(BlobTally.money($0, currency: line.currency ?? ""))" } ?? ""
            print("  \(line.count) × \(line.description) (label \(line.label))\(worth)")
        }
        if let draw { print("\(draw): \(blobs.count) object\(blobs.count == 1 ? "" : "s") boxed and named") }
    }
}

struct BlobsTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the classifier on a list and keep the model in the user's cache folder (or --model).",
        discussion: "Pictures that are missing or unreadable are named and left out; the rest train.")

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

struct BlobsEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Classify labelled pictures and print the accuracy and a confusion matrix.",
        discussion: """
            --labelled names a list (JSON or property list, as for training), a folder holding labels.json, or a \
            folder of subfolders named by label number or description ("7" or "pinto bean"). Each picture's \
            biggest blob is classified; a picture without a blob counts as answered 0. Or it names a scene list of \
            several objects a picture, as `ocular blobs scenes` writes ({"scenes": [{"image", "blobs": [{"label", \
            "bounds": [x, y, w, h]}]}]}): then every blob is found and named, and detection recall and precision \
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
        let progress = ProgressDisplay(title: "evaluating", total: pictures.entries.count, unit: "pictures")
        let evaluation: BlobEvaluation
        do {
            evaluation = try BlobEvaluation.evaluate(classifier, on: pictures, detector: try BlobDetector(profile: classifier.profile)) { index, _, _ in
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

    /// Several objects a picture: detection, naming and tallies.
    func evaluateScenes(classifier: BlobClassifier) throws {
        let list = try BlobSceneList(contentsOfFile: labelled)
        let progress = ProgressDisplay(title: "evaluating", total: list.scenes.count, unit: "scenes")
        let evaluation: BlobSceneEvaluation
        do {
            let folder = (labelled as NSString).deletingLastPathComponent
            evaluation = try list.evaluate(folder: folder.isEmpty ? "." : folder, detector: try BlobDetector(profile: classifier.profile),
                                           classifier: classifier) { index, _, _ in
                if index > 0 { progress.advance() }
            }
            progress.finish()
        } catch {
            progress.finish(succeeded: false)
            throw error
        }
        for problem in evaluation.problems { classifierOptions.warn("not evaluated: \(problem)") }
        if json {
            struct Report: Encodable {
                var profile: String; var scenes: Int; var objects: Int; var found: Int; var matched: Int; var named: Int
                var recall: Double; var precision: Double; var labellingAccuracy: Double; var exactTallies: Double
                var tallyErrorPerObject: Double; var perScene: [BlobSceneEvaluation.SceneResult]
            }
            print(try BlobsCommand.json(Report(profile: classifier.profile.name, scenes: evaluation.scenes.count, objects: evaluation.objects,
                                               found: evaluation.found, matched: evaluation.matched, named: evaluation.named,
                                               recall: evaluation.recall, precision: evaluation.precision,
                                               labellingAccuracy: evaluation.labellingAccuracy, exactTallies: evaluation.exactTallies,
                                               tallyErrorPerObject: evaluation.tallyErrorPerObject, perScene: evaluation.scenes)))
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

extension BlobScenes.Arrangement: ExpressibleByArgument {}

struct BlobsScenesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenes",
        abstract: "Write a labelled set of table scenes made from a training list's pictures.",
        discussion: """
            Each scene lays several of the list's objects on a plain table at random turns and real relative sizes. \
            Scattered scenes: some touching, under uneven light with soft shadows, blur, noise or JPEG; 640×480 and \
            1280×960 in turn; written as scene-NNN-WxH.png. Rings (a coin with objects around it, each touching it and \
            the next) and heaps (most objects touching two or more): photographed as a tablet does (2–5 megapixels, \
            a JPEG with its EXIF orientation, tilted up to 15°, vignetting, the white balance off) or, one in four, \
            as a webcam's 1280×720 frame; written as ring-NNN-WxH.jpg. Also writes scenes.json (labels and boxes), \
            which `ocular blobs evaluate --labelled` reads.
            """)

    @Argument(help: "The folder to write into (made when missing).")
    var output: String

    @Option(help: ArgumentHelp("The training list whose pictures are laid.", valueName: "file"))
    var training: String

    @Option(help: "How the objects lie: scattered, ring or heap.")
    var arrangement: BlobScenes.Arrangement = .scattered

    @Option(help: "How many scenes.")
    var count = 48

    @Option(help: "The first scene's number: scenes 0–47 and 96–191 chose Ocular's constants; 48–95 and 200 on were never looked at while choosing.")
    var first = 0

    func validate() throws {
        guard (1...1000).contains(count) else { throw ValidationError("--count must be 1 to 1000, got \(count)") }
        guard (0...1_000_000).contains(first) else { throw ValidationError("--first must be 0 to 1000000, got \(first)") }
    }

    func run() throws {
        let scenes = try BlobScenes(list: try TrainingList(contentsOfFile: training), count: first + count)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let progress = ProgressDisplay(title: "drawing", total: count, unit: "scenes")
        var entries: [BlobSceneList.Entry] = []
        for index in first..<(first + count) {
            let scene = try scenes.scene(index, arrangement: arrangement)
            let file: String
            if let photo = scene.file {
                file = scene.name + ".jpg"
                try FileAccess.write(photo, to: (output as NSString).appendingPathComponent(file))
            } else {
                file = scene.name + ".png"
                try scene.image.write(toFile: (output as NSString).appendingPathComponent(file))
            }
            entries.append(BlobSceneList.Entry(image: file, blobs: scene.blobs, conditions: scene.conditions))
            progress.advance()
        }
        progress.finish()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let list = (output as NSString).appendingPathComponent("scenes.json")
        try encoder.encode(BlobSceneList(scenes: entries)).write(to: URL(fileURLWithPath: list), options: .atomic)
        print("\(list): \(count) scenes, \(entries.reduce(0) { $0 + $1.blobs.count }) objects")
    }
}

import Foundation
import Ocular

/// How well a classifier names labelled pictures (beyond the textbook): each picture's biggest blob
/// is classified as the studio's Classify does; a picture without a blob counts as answered 0.
public struct BlobEvaluation: Sendable {
    /// What each label means, as the classifier has them.
    public let labelDescriptions: [String]
    /// `confusion[truth][answer]`: how many pictures of label `truth` were answered `answer`.
    public private(set) var confusion: [[Int]]
    /// Pictures that could not be read, and why.
    public private(set) var problems: [TrainingProblem] = []

    /// How many blobs were classified.
    public var total: Int { confusion.joined().reduce(0, +) }
    /// How many got their own label.
    public var correct: Int { confusion.indices.reduce(0) { $0 + confusion[$1][$1] } }
    /// Correct answers over all answers; 0 with none.
    public var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }

    /// Classifies every picture of `pictures`.
    /// - Parameters:
    ///   - classifier: The classifier under test.
    ///   - pictures: Labelled pictures, each of one object.
    ///   - detector: Finds the object in each picture.
    ///   - progress: Called before each picture with its index, the count and its name.
    /// - Returns: The confusion of labels.
    /// - Throws: ``OcularError`` naming what failed and why.
    public static func evaluate(_ classifier: BlobClassifier, on pictures: TrainingList, detector: BlobDetector,
                                progress: (Int, Int, String) -> Void = { _, _, _ in }) throws(OcularError) -> BlobEvaluation {
        let labels = max(classifier.labelDescriptions.count, pictures.labelDescriptions.count)
        var evaluation = BlobEvaluation(
            labelDescriptions: (0..<labels).map { classifier.labelDescriptions.indices.contains($0) ? classifier.labelDescriptions[$0] : pictures.description(of: $0) },
            confusion: Array(repeating: Array(repeating: 0, count: labels), count: labels))
        for (index, entry) in pictures.entries.enumerated() {
            progress(index, pictures.entries.count, entry.imageFilename)
            let image: Image
            do {
                image = try Image(contentsOfFile: pictures.path(of: entry))
            } catch {
                evaluation.problems.append(TrainingProblem(imageFilename: entry.imageFilename, reason: error.description))
                continue
            }
            let blob = Blob.biggest(of: try detector.detect(in: image).blobs)
            let answer = try blob.map { (blob) throws(OcularError) in try classifier.classify(blob).label } ?? 0
            evaluation.confusion[entry.label][min(answer, labels - 1)] += 1
        }
        progress(pictures.entries.count, pictures.entries.count, "")
        return evaluation
    }
}

extension TrainingList {
    /// Labelled pictures in a folder: its list (`labels.json`, or the only `.plist` or `.json` file),
    /// or else one subfolder per label, named by the label's number or description ("7" or
    /// "pinto bean"), holding that label's pictures.
    /// - Parameters:
    ///   - folder: The folder.
    ///   - labelDescriptions: The classifier's labels, which subfolders' names are matched to.
    /// - Throws: ``BlobError/badTrainingList(path:reason:)``, or the ``OcularError`` of a file that cannot be read.
    public init(labelledFolder folder: String, labelDescriptions: [String]) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw OcularError.unreadableFile(path: folder, reason: "not a folder that can be read")
        }
        let lists = names.filter { $0 == "labels.json" } + names.filter { $0.hasSuffix(".plist") || ($0.hasSuffix(".json") && $0 != "labels.json") }
        if let list = lists.first {
            self = try TrainingList(contentsOfFile: (folder as NSString).appendingPathComponent(list))
            return
        }
        var entries: [Entry] = []
        for name in names {
            var isFolder: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            guard let label = Int(name) ?? labelDescriptions.firstIndex(of: name), (1..<labelDescriptions.count).contains(label) else {
                throw BlobError.badTrainingList(path: path, reason: "the folder's name is no label's number or description (\(labelDescriptions.dropFirst().joined(separator: ", ")))")
            }
            let pictures = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().filter { !$0.hasPrefix(".") }
            entries += pictures.map { Entry(imageFilename: name + "/" + $0, label: label) }
        }
        guard !entries.isEmpty else {
            throw BlobError.badTrainingList(path: folder, reason: "the folder holds neither a labels.json nor subfolders of pictures named by label")
        }
        self.init(labelDescriptions: labelDescriptions, entries: entries, folder: folder)
    }
}

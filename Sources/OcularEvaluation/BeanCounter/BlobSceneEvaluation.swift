import Foundation
import Ocular

/// How well blobs are found, named and counted on scenes of several objects with known labels and
/// boxes: detection recall and precision (a blob matches an object when their boxes' intersection
/// over union is at least 0.5, each at most once, best overlaps first), the labelling accuracy of
/// matched blobs, and whether each scene's tally (count per label) came out exact.
package struct BlobSceneEvaluation: Sendable {
    /// One scene's figures.
    package struct SceneResult: Sendable, Hashable, Codable {
        package var name: String
        /// Objects in the scene.
        package var objects: Int
        /// Blobs found.
        package var found: Int
        /// Blobs matched to an object.
        package var matched: Int
        /// Matched blobs given the object's label.
        package var named: Int
        /// The sum over labels of |count found − count there|.
        package var tallyError: Int

        package var exactTally: Bool { tallyError == 0 }
    }

    package private(set) var scenes: [SceneResult] = []
    /// Scenes that could not be read, and why.
    package var problems: [TrainingProblem] = []

    package init() {}

    package var objects: Int { scenes.reduce(0) { $0 + $1.objects } }
    package var found: Int { scenes.reduce(0) { $0 + $1.found } }
    package var matched: Int { scenes.reduce(0) { $0 + $1.matched } }
    package var named: Int { scenes.reduce(0) { $0 + $1.named } }
    /// Matched objects over objects (1 with none).
    package var recall: Double { objects == 0 ? 1 : Double(matched) / Double(objects) }
    /// Matched blobs over blobs found (1 with none).
    package var precision: Double { found == 0 ? 1 : Double(matched) / Double(found) }
    /// Correctly named over matched (1 with none).
    package var labellingAccuracy: Double { matched == 0 ? 1 : Double(named) / Double(matched) }
    /// The fraction of scenes whose tally is exact (1 with none).
    package var exactTallies: Double { scenes.isEmpty ? 1 : Double(scenes.filter(\.exactTally).count) / Double(scenes.count) }
    /// The mean tally error per object.
    package var tallyErrorPerObject: Double { objects == 0 ? 0 : Double(scenes.reduce(0) { $0 + $1.tallyError }) / Double(objects) }

    /// Takes in another evaluation's scenes and problems, to report both as one.
    package mutating func add(_ other: BlobSceneEvaluation) {
        scenes += other.scenes
        problems += other.problems
    }

    /// Scores one scene: its objects against the blobs found (classified or not).
    package mutating func score(scene name: String, objects: [BlobScenes.LabelledBlob], found: [Blob]) {
        score(scene: name, objects: objects, found: found.map { BlobScenes.LabelledBlob(label: $0.label, bounds: $0.bounds) })
    }

    /// Scores one scene: its objects against the boxes and labels found (by Ocular or another
    /// pipeline; label 0 for not named).
    package mutating func score(scene name: String, objects: [BlobScenes.LabelledBlob], found: [BlobScenes.LabelledBlob]) {
        var pairs: [(iou: Double, object: Int, blob: Int)] = []
        for (objectIndex, object) in objects.enumerated() {
            for (blobIndex, blob) in found.enumerated() {
                let iou = object.bounds.intersectionOverUnion(blob.bounds)
                if iou >= 0.5 { pairs.append((iou, objectIndex, blobIndex)) }
            }
        }
        pairs.sort { $0.iou != $1.iou ? $0.iou > $1.iou : ($0.object, $0.blob) < ($1.object, $1.blob) }
        var objectTaken = Set<Int>(), blobTaken = Set<Int>()
        var named = 0
        for pair in pairs where !objectTaken.contains(pair.object) && !blobTaken.contains(pair.blob) {
            objectTaken.insert(pair.object)
            blobTaken.insert(pair.blob)
            if found[pair.blob].label == objects[pair.object].label { named += 1 }
        }
        var difference: [Int: Int] = [:]
        for object in objects { difference[object.label, default: 0] += 1 }
        for blob in found { difference[blob.label, default: 0] -= 1 }
        scenes.append(SceneResult(name: name, objects: objects.count, found: found.count, matched: objectTaken.count, named: named,
                                  tallyError: difference.values.reduce(0) { $0 + abs($1) }))
    }
}

/// Pictures of several objects with their labels and boxes, as `ocular blobs scenes` writes them:
/// `{"scenes": [{"image": "scene-000.png", "blobs": [{"label": 7, "bounds": [x, y, w, h]}]}]}`; or real
/// photographs labelled as `tables/photos/ground_truth.json` is: `{"files": {"photos/NAME.jpg":
/// {"blobs": [{"label": 9, "bbox": [x, y, w, h]}]}}}`, the files in name order.
package struct BlobSceneList: Sendable, Codable {
    package struct Entry: Sendable, Codable {
        /// Relative to the list's folder unless absolute.
        package var image: String
        package var blobs: [BlobScenes.LabelledBlob]
        /// What the scene shows (light, shadows, touching), for people reading the file.
        package var conditions: String?

        package init(image: String, blobs: [BlobScenes.LabelledBlob], conditions: String? = nil) {
            self.image = image
            self.blobs = blobs
            self.conditions = conditions
        }
    }

    package var scenes: [Entry]

    package init(scenes: [Entry]) {
        self.scenes = scenes
    }

    /// The largest scene list read (a list of 100 000 scenes is 10 MB).
    package static let maximumBytes = 16 << 20

    /// Reads a list, naming what is wrong with it.
    /// - Throws: ``BlobError/badTrainingList(path:reason:)``, or the ``OcularError`` of a file that cannot be read.
    package init(contentsOfFile path: String) throws {
        let size = try FileAccess.regularFileSize(path)
        guard size <= Self.maximumBytes else {
            throw BlobError.badTrainingList(path: path, reason: "it holds \(size) bytes, more than a scene list's \(Self.maximumBytes)")
        }
        self = try Self.decode(try FileAccess.read(path), path: path)
    }

    /// Real photographs' labels: every object of each file with its box.
    private struct GroundTruth: Decodable {
        struct Photo: Decodable {
            var blobs: [Object]
        }
        struct Object: Decodable {
            var label: Int
            var bbox: [Int]
        }
        var files: [String: Photo]

        func sceneList(path: String) throws(BlobError) -> BlobSceneList {
            var scenes: [Entry] = []
            for (file, photo) in files.sorted(by: { $0.key < $1.key }) {
                var blobs: [BlobScenes.LabelledBlob] = []
                for (index, object) in photo.blobs.enumerated() {
                    guard object.bbox.count == 4, object.bbox[2] > 0, object.bbox[3] > 0, object.label >= 0 else {
                        throw .badTrainingList(path: path, reason: "files[\"\(file)\"].blobs[\(index)] needs a label of 0 or more and a bbox [x, y, width, height] with a width and height above 0")
                    }
                    blobs.append(BlobScenes.LabelledBlob(label: object.label, bounds: PixelRectangle(x: object.bbox[0], y: object.bbox[1], width: object.bbox[2], height: object.bbox[3])))
                }
                scenes.append(Entry(image: file, blobs: blobs))
            }
            return BlobSceneList(scenes: scenes)
        }
    }

    /// Decodes a list's bytes; `path` names it in errors.
    static func decode(_ data: Data, path: String) throws(BlobError) -> BlobSceneList {
        do {
            let isGroundTruth = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["files"] != nil
            let list = if isGroundTruth {
                try JSONDecoder().decode(GroundTruth.self, from: data).sceneList(path: path)
            } else {
                try JSONDecoder().decode(BlobSceneList.self, from: data)
            }
            for (index, scene) in list.scenes.enumerated() where scene.image.isEmpty || scene.image.contains("\0") {
                throw BlobError.badTrainingList(path: path, reason: "scenes[\(index)] names no image")
            }
            return list
        } catch let error as BlobError {
            throw error
        } catch let error as DecodingError {
            throw .badTrainingList(path: path, reason: Recipe.explain(error))
        } catch {
            throw .badTrainingList(path: path, reason: "\(error)")
        }
    }

    /// Whether the file looks like a scene list (it has "scenes" where a training list has "blobs").
    package static func isSceneList(_ path: String) -> Bool {
        guard let data = try? FileAccess.read(path), data.count <= maximumBytes,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["scenes"] != nil || object["files"] != nil
    }

    /// Where a scene's picture is: relative to the list's folder, or to the folder above it when it is
    /// not there (`ground_truth.json` in `photos/` names its files "photos/NAME.jpg").
    package static func path(of image: String, folder: String) -> String {
        guard !image.hasPrefix("/") else { return image }
        let beside = (folder as NSString).appendingPathComponent(image)
        let above = ((folder as NSString).deletingLastPathComponent as NSString).appendingPathComponent(image)
        return !FileManager.default.fileExists(atPath: beside) && FileManager.default.fileExists(atPath: above) ? above : beside
    }

    /// Finds, names and scores every scene; a scene that cannot be read is a problem, not fatal.
    /// - Parameter progress: Called before each scene with its index, the count and its name.
    package func evaluate(folder: String, detector: BlobDetector, classifier: BlobClassifier?,
                         progress: (Int, Int, String) -> Void = { _, _, _ in }) throws(OcularError) -> BlobSceneEvaluation {
        var evaluation = BlobSceneEvaluation()
        for (index, entry) in scenes.enumerated() {
            progress(index, scenes.count, entry.image)
            let path = Self.path(of: entry.image, folder: folder)
            let image: Image
            do {
                image = try Image(contentsOfFile: path)
            } catch {
                evaluation.problems.append(TrainingProblem(imageFilename: entry.image, reason: error.description))
                continue
            }
            let blobs = if let classifier { try detector.named(in: image, by: classifier) } else { try detector.detect(in: image).blobs }
            evaluation.score(scene: entry.image, objects: entry.blobs, found: blobs)
        }
        progress(scenes.count, scenes.count, "")
        return evaluation
    }
}

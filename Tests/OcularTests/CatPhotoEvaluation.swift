import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

/// Real photographs of cats (../shared/data/cats: 48 cats with landmark boxes, 16 pictures without a
/// face), split by photo group into a tuned part and a held-apart one (Tests/Fixtures/faces/
/// real-cats-held-apart.txt), each reported on its own. Issue 95 asks recall ≥ 0.8 at precision
/// ≥ 0.9 held apart; until it is reached the test holds the figures measured when the split was made
/// as a floor, so that nothing falls below them.
@Suite("Real cat photo evaluation")
struct CatPhotoEvaluation {
    static let heldApartList = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/faces/real-cats-held-apart.txt").path

    /// The shared data's cat list, each picture in the group "tuned" or "held apart".
    static func photos() throws -> FaceLabelList {
        var list = try FaceLabelList(contentsOf: TestData.path("cats/labels.json"))
        let heldApart = Set(try String(contentsOfFile: heldApartList, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("#") }.map { TestData.path(String($0)) })
        #expect(heldApart.count == 25 && heldApart.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "\(heldApart.count) held apart")
        for index in list.entries.indices {
            list.entries[index].group = heldApart.contains(list.path(of: list.entries[index])) ? "held apart" : "tuned"
        }
        return list
    }

    /// The labelled eyes of each cat photo, by its file's name (`cats/labels.json`'s landmarks).
    static func labelledEyes() throws -> [String: (left: Point, right: Point)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestData.path("cats/labels.json")))
        let files = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["files"] as? [String: Any])
        var eyes: [String: (left: Point, right: Point)] = [:]
        for (file, value) in files {
            guard let face = ((value as? [String: Any])?["faces"] as? [[String: Any]])?.first, let marks = face["landmarks"] as? [String: Any],
                  let left = marks["leftEye"] as? [Double], let right = marks["rightEye"] as? [Double] else { continue }
            eyes[(file as NSString).lastPathComponent] = (Point(x: left[0], y: left[1]), Point(x: right[0], y: right[1]))
        }
        return eyes
    }

    @Test("real cat photos, tuned and held apart, the default beside plain OpenCV's cat cascade: at least the figures measured when the split was made; no face on the real tables' coins and beans")
    func realCats() async throws {
        try await HeavyWork.run {
            let list = try Self.photos()
            let finders: [(name: String, finder: any FaceFinding)] = [("default", try FaceDetector()),
                                                                       ("plain OpenCV's cat cascade", try OpenCVFaceBaseline(species: .cat))]
            // Per detector and part: the strict tally (IoU ≥ 0.5), and finds with the box on the cat's
            // face (IoU ≥ 0.3: the labels run from the ear tips, the cascade's box from the brows).
            var strict = finders.map { _ in FaceEvaluation() }
            // The default's cat eyes (placed by proportion in its box) against the labelled eyes, in eye
            // distances, per part, for the cats it boxes (IoU ≥ 0.3).
            let landmarks = try Self.labelledEyes()
            var eyeErrors: [String: [Double]] = [:]
            var loose = finders.map { _ in [String: (labelled: Int, found: Int, boxes: Int, right: Int)]() }
            for entry in Evaluation.cases(list.entries, sampleEvery: 3) {
                let image = try Image(contentsOfFile: list.path(of: entry))
                let part = entry.group ?? "tuned"
                for (number, finder) in finders.map(\.finder).enumerated() {
                    if number == 0, let eyes = landmarks[(entry.file as NSString).lastPathComponent], let label = entry.faces.first,
                       let cat = try (finder as? FaceDetector)?.faces(in: image).first(where: { $0.species == .cat && $0.bounds.intersectionOverUnion(label.bounds) >= 0.3 }) {
                        let left = Point(x: Double(cat.bounds.x) + cat.leftEye.x, y: Double(cat.bounds.y) + cat.leftEye.y)
                        let right = Point(x: Double(cat.bounds.x) + cat.rightEye.x, y: Double(cat.bounds.y) + cat.rightEye.y)
                        func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
                        let apart = distance(eyes.left, eyes.right)
                        eyeErrors[part, default: []].append((distance(left, eyes.left) + distance(right, eyes.right)) / 2 / apart)
                    }
                    let found = try finder.labelledFaces(in: image).filter { $0.species == .cat }
                    let labels = entry.faces.filter { $0.species == .cat }
                    strict[number].score(picture: entry.file, group: part, labels: labels, found: found)
                    func near(_ a: LabelledFace, _ b: LabelledFace) -> Bool { a.bounds.intersectionOverUnion(b.bounds) >= 0.3 }
                    loose[number][part, default: (0, 0, 0, 0)].labelled += labels.count
                    loose[number][part, default: (0, 0, 0, 0)].found += labels.filter { label in found.contains { near($0, label) } }.count
                    loose[number][part, default: (0, 0, 0, 0)].boxes += found.count
                    loose[number][part, default: (0, 0, 0, 0)].right += found.filter { box in labels.contains { near($0, box) } }.count
                }
            }
            var rows: [[String]] = []
            for part in ["tuned", "held apart"] {
                for (number, name) in finders.map(\.name).enumerated() {
                    let cats = strict[number].groups[part]?[.cat] ?? .init(), near = loose[number][part] ?? (0, 0, 0, 0)
                    func share(_ count: Int, of total: Int) -> String { Evaluation.figure(total == 0 ? 1 : Double(count) / Double(total)) }
                    rows.append([part, name, "\(cats.labelled)", "\(Evaluation.figure(cats.recall)) / \(Evaluation.figure(cats.precision))",
                                 "\(share(near.found, of: near.labelled)) / \(share(near.right, of: near.boxes))", Evaluation.figure(cats.meanOverlap)])
                }
            }
            Evaluation.table("Real cat photos: recall / precision", columns: ["part", "detector", "cats", "IoU ≥ 0.5", "IoU ≥ 0.3", "mean IoU"], rows: rows)
            Evaluation.table("The default's cat eyes against the labelled ones (cats boxed at IoU ≥ 0.3)", columns: ["part", "cats", "mean error (eye distances)"],
                             rows: ["tuned", "held apart"].map { part in
                                 let errors = eyeErrors[part] ?? []
                                 return [part, "\(errors.count)", Evaluation.figure(errors.reduce(0, +) / Double(max(errors.count, 1)))]
                             })
            // Measured when the eyes were first held to the labels (make eval): 0.10 tuned (22 cats), 0.12 held apart (12).
            #expect(eyeErrors.values.reduce(0) { $0 + $1.count } >= (Evaluation.isFull ? 20 : 5), "\(eyeErrors)")
            for (part, errors) in eyeErrors { #expect(errors.reduce(0, +) / Double(errors.count) <= 0.2, "\(part): \(errors)") }
            // The floor: measured at the split, whole (make eval): tuned 18 of 31 (0.58 / 0.72), held apart 9 of 17 (0.53 / 0.64).
            let tuned = strict[0].groups["tuned"]?[.cat] ?? .init(), heldApart = strict[0].groups["held apart"]?[.cat] ?? .init()
            #expect(tuned.recall >= 0.45 && heldApart.recall >= 0.35, "recall: tuned \(tuned), held apart \(heldApart)")

            // Real tables of coins and beans (../shared/data/tables): no face of either kind.
            let tables = TestData.path("tables/photos")
            let photos = try FileManager.default.contentsOfDirectory(atPath: tables).filter { $0.hasSuffix(".jpg") }.sorted()
            let detector = try FaceDetector()
            for photo in Evaluation.cases(photos, sampleEvery: 4) {
                let faces = try detector.faces(in: try Image(contentsOfFile: tables + "/" + photo))
                #expect(faces.isEmpty, "\(photo): \(faces.map { "\($0.species) \($0.bounds)" })")
            }
        }
    }
}

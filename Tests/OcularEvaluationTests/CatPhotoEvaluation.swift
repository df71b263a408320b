import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

/// Real photographs of cats (../shared/data/cats: 48 cats with landmark boxes, 16 pictures without a
/// face), split by photo group into a tuned part and a held-apart one (Tests/Fixtures/faces/
/// real-cats-held-apart.txt), each reported on its own: recall ≥ 0.8 at precision ≥ 0.9 held apart.
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

    /// A cat's labelled landmarks (frame pixels).
    struct Landmarks: Decodable {
        let leftEye: [Double], rightEye: [Double], mouth: [Double]
        func point(_ pair: [Double]) -> Point { Point(x: pair[0], y: pair[1]) }
    }

    /// The labelled landmarks of each cat photo, by its file's name (`cats/labels.json`).
    static func labelledLandmarks() throws -> [String: Landmarks] {
        struct Labels: Decodable {
            struct File: Decodable { let faces: [Face] }
            struct Face: Decodable { let landmarks: Landmarks? }
            let files: [String: File]
        }
        let labels = try JSONDecoder().decode(Labels.self, from: Data(contentsOf: URL(fileURLWithPath: TestData.path("cats/labels.json"))))
        var marks: [String: Landmarks] = [:]
        for (file, value) in labels.files { marks[(file as NSString).lastPathComponent] = value.faces.first?.landmarks }
        return marks
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    @Test("real cat photos, tuned and held apart, the default beside plain OpenCV's cat cascade: at least the figures measured when the split was made; no face on the real tables' coins and beans")
    func realCats() async throws {
        do {
            let list = try Self.photos()
            let finders: [(name: String, finder: any FaceFinding)] = [("default", try FaceDetector()),
                                                                       ("plain OpenCV's cat cascade", try OpenCVFaceBaseline(species: .cat))]
            // Per detector and part: the strict tally (IoU ≥ 0.5), and finds with the box on the cat's
            // face (IoU ≥ 0.3: plain OpenCV's box runs from the brows, the labels' from the ear tips).
            var strict = finders.map { _ in FaceEvaluation() }
            // The default's cat eyes and mouth (placed by proportion in its box) against the labelled ones,
            // in eye distances, and its box against the label (centre offset in box heights, width and
            // height ratios), per part, for the cats it boxes (IoU ≥ 0.3).
            let landmarks = try Self.labelledLandmarks()
            var eyeErrors: [String: [Double]] = [:], mouthErrors: [String: [Double]] = [:]
            var boxFit: [String: (rise: [Double], width: [Double], height: [Double])] = [:]
            var loose = finders.map { _ in [String: (labelled: Int, found: Int, boxes: Int, right: Int)]() }
            for entry in Evaluation.cases(list.entries, sampleEvery: 3) {
                let image = try Image(contentsOfFile: list.path(of: entry))
                let part = entry.group ?? "tuned"
                for (number, finder) in finders.map(\.finder).enumerated() {
                    if number == 0, let marks = landmarks[(entry.file as NSString).lastPathComponent], let label = entry.faces.first,
                       let cat = try (finder as? FaceDetector)?.faces(in: image).first(where: { $0.species == .cat && $0.bounds.intersectionOverUnion(label.bounds) >= 0.3 }) {
                        func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
                        let leftEye = marks.point(marks.leftEye), rightEye = marks.point(marks.rightEye)
                        let apart = distance(leftEye, rightEye)
                        eyeErrors[part, default: []].append((distance(cat.inFrame(cat.leftEye), leftEye) + distance(cat.inFrame(cat.rightEye), rightEye)) / 2 / apart)
                        if let mouth = cat.mouth { mouthErrors[part, default: []].append(distance(cat.inFrame(mouth), marks.point(marks.mouth)) / apart) }
                        let box = cat.bounds, labelled = label.bounds
                        let rise = (Double(box.y) + Double(box.height) / 2 - Double(labelled.y) - Double(labelled.height) / 2) / Double(box.height)
                        boxFit[part, default: ([], [], [])].rise.append(rise)
                        boxFit[part, default: ([], [], [])].width.append(Double(labelled.width) / Double(box.width))
                        boxFit[part, default: ([], [], [])].height.append(Double(labelled.height) / Double(box.height))
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
            func mean(_ values: [Double]?) -> Double { (values ?? []).reduce(0, +) / Double(max(values?.count ?? 0, 1)) }
            Evaluation.table("The default's cat landmarks and box against the labelled ones (cats boxed at IoU ≥ 0.3)",
                             columns: ["part", "cats", "eyes (mean, eye distances)", "mouth", "box centre above label's (median, box heights)",
                                       "label / box width", "label / box height"],
                             rows: ["tuned", "held apart"].map { part in
                                 let fit = boxFit[part] ?? ([], [], [])
                                 return [part, "\(eyeErrors[part]?.count ?? 0)", Evaluation.figure(mean(eyeErrors[part])), Evaluation.figure(mean(mouthErrors[part])),
                                         Evaluation.figure(-Self.median(fit.rise)), Evaluation.figure(Self.median(fit.width)), Evaluation.figure(Self.median(fit.height))]
                             })
            // Measured when the eyes were first held to the labels (make eval): 0.10 tuned (22 cats), 0.12 held apart (12).
            #expect(eyeErrors.values.reduce(0) { $0 + $1.count } >= (Evaluation.isFull ? 20 : 5), "\(eyeErrors)")
            for (part, errors) in eyeErrors { #expect(mean(errors) <= 0.2, "\(part): \(errors)") }
            for (part, errors) in mouthErrors { #expect(mean(errors) <= 0.3, "\(part): \(errors)") }
            // The cat's box is the labels' (the layout's fit on the tuned cats): centres within 0.05 box
            // heights and sizes within 6 % of the label's, in the median.
            if let fit = boxFit["tuned"] {
                #expect(abs(Self.median(fit.rise)) <= 0.05 && abs(Self.median(fit.width) - 1) <= 0.06 && abs(Self.median(fit.height) - 1) <= 0.06, "\(fit)")
            }
            // Issue 95's figures, held apart: recall ≥ 0.8 at precision ≥ 0.9 (make eval: 14 of 17 at 0.93, tuned
            // 24 of 31 at 0.96; at the split, before the Cat Dataset's boxes and telling cats from people, 0.53 / 0.64).
            // A sample run's few cats hold a floor only.
            let tuned = strict[0].groups["tuned"]?[.cat] ?? .init(), heldApart = strict[0].groups["held apart"]?[.cat] ?? .init()
            if Evaluation.isFull {
                #expect(heldApart.recall >= 0.8 && heldApart.precision >= 0.9, "held apart \(heldApart)")
                #expect(tuned.recall >= 0.75 && tuned.precision >= 0.9, "tuned \(tuned)")
            } else {
                #expect(tuned.recall >= 0.6 && heldApart.recall >= 0.6, "recall: tuned \(tuned), held apart \(heldApart)")
            }

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

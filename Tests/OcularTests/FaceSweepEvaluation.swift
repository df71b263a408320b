import Foundation
import OcularTestSupport
import Testing
@testable import Ocular

/// The face detector on the robustness sweep (``FaceSweep``): every frame under `make eval`, which
/// prints the README's per-axis table; a sample of them under `make test`, against the same thresholds.
@Suite("Face sweep evaluation")
struct FaceSweepEvaluation {
    /// Every `sampleStride`-th frame of the sweep's 249 under `make test`.
    static let sampleStride = 4

    @Test("the default profile on the sweep: humans 0.1–0.8 of the frame tilted up to ±20° found at recall and precision ≥ 0.95; cats at recall ≥ 0.8 and precision ≥ 0.9; the textbook profile finds under half")
    func defaultProfileOnTheSweep() async throws {
        try await HeavyWork.run {
            let sweep = try SweepSources.sweep.get()
            let detector = try FaceDetector()
            let textbook = try FaceDetector(profile: .textbook)
            var all = FaceEvaluation(), inRange = FaceEvaluation(), book = FaceEvaluation(), bookInRange = FaceEvaluation()
            for index in Evaluation.cases(0..<sweep.count, sampleEvery: Self.sampleStride) {
                let frame = try sweep.frame(index)
                let found = try detector.faces(in: frame.image).map { LabelledFace(species: $0.species, bounds: $0.bounds) }
                all.score(picture: frame.name, group: frame.axis, labels: frame.faces, found: found)
                let textbookFound = try textbook.faces(in: frame.image).map { LabelledFace(species: $0.species, bounds: $0.bounds) }
                book.score(picture: frame.name, group: frame.axis, labels: frame.faces, found: textbookFound)
                if FaceSweepTests.inIssueRange(frame.name) {
                    inRange.score(picture: frame.name, labels: frame.faces, found: found)
                    bookInRange.score(picture: frame.name, labels: frame.faces, found: textbookFound)
                }
            }
            Self.printTable(all: all, inRange: inRange, book: book, bookInRange: bookInRange)
            let humans = inRange.tally(.human), cats = all.tally(.cat)
            #expect(humans.labelled >= (Evaluation.isFull ? 200 : 40), "\(humans.labelled) faces in the issue's range")
            #expect(humans.recall >= 0.95 && humans.precision >= 0.95, "humans \(humans), misses \(inRange.misses.map(\.picture))")
            #expect(cats.recall >= 0.8 && cats.precision >= 0.9, "cats \(cats), misses \(all.misses.filter { $0.face.species == .cat }.map(\.picture))")
            // Faceless pictures: the one box allowed is the worn coin of coins.png whose head the cascade takes for a face.
            let faceless = Self.boxesOnFacelessFrames(all)
            #expect(faceless <= 1, "\(all.falseBoxes.filter { $0.picture.hasPrefix("none-") })")
            #expect(book.tally(.human).recall < 0.5, "the textbook profile: \(book.tally(.human))")
        }
    }

    /// The boxes found on the sweep's frames without a face (group "none"): every one is false.
    static func boxesOnFacelessFrames(_ evaluation: FaceEvaluation) -> Int {
        evaluation.groups["none"]?.values.reduce(0) { $0 + $1.found } ?? 0
    }

    /// Per axis: recall / precision of each profile, the README's table.
    static func printTable(all: FaceEvaluation, inRange: FaceEvaluation, book: FaceEvaluation, bookInRange: FaceEvaluation) {
        func cell(_ tally: FaceEvaluation.Tally) -> String { "\(Evaluation.figure(tally.recall)) / \(Evaluation.figure(tally.precision))" }
        var rows: [[String]] = []
        for axis in all.groups.keys.sorted() where axis != "none" && axis != "cat" {
            let standard = all.groups[axis]?[.human] ?? .init(), textbook = book.groups[axis]?[.human] ?? .init()
            rows.append(["\(axis) (\(standard.labelled))", cell(textbook), "**\(cell(standard))**"])
        }
        rows.append(["false boxes on the faceless frames", "\(boxesOnFacelessFrames(book))", "**\(boxesOnFacelessFrames(all))**"])
        rows.append(["**all humans (\(all.tally(.human).labelled))**", cell(book.tally(.human)), "**\(cell(all.tally(.human)))**"])
        rows.append(["**humans 0.1–0.8, tilts ≤ ±20° (\(inRange.tally(.human).labelled))**", cell(bookInRange.tally(.human)),
                     "**\(cell(inRange.tally(.human)))**"])
        rows.append(["cats (\(all.tally(.cat).labelled))", cell(book.tally(.cat)), "**\(cell(all.tally(.cat)))**"])
        Evaluation.table("Faces on the robustness sweep (\(all.pictures) frames): recall / precision", columns: ["axis (faces)", "textbook", "**default**"],
                         rows: rows)
    }

    /// Measured when the copy was chosen (three turns each): on 240 pixels 201 of the 210 faces
    /// found, 350 boxes all right; on the still search's 320, 200 found, 352 of 358 boxes right, at
    /// 1.4 times the cost.
    @Test("a stream's whole searches that skip small faces (three in four) search a 240-pixel copy: on the sweep's frames whose human faces are all 0.12–0.8 of the frame, the three turns find at least 0.95 of the faces at precision ≥ 0.97")
    func streamSearchesOnTheSweep() async throws {
        try await HeavyWork.run {
            let sweep = try SweepSources.sweep.get()
            let detector = try FaceDetector()
            let large = try #require(detector.profile.tracking?.largeFacesOnly)
            #expect(large.shortSide == 240)
            var labels = 0, found = 0, boxes = 0, hits = 0
            // Every other frame: its figure sits near its bar (201 of 210), and a quarter's 52 faces leave too few.
            for index in Evaluation.cases(0..<sweep.count, sampleEvery: 2) where FaceSweepTests.inIssueRange(sweep.names[index].name) {
                let frame = try sweep.frame(index)
                let shortSide = Double(min(frame.image.width, frame.image.height))
                let humans = frame.faces.filter { $0.species == .human }.map(\.bounds)
                guard !humans.isEmpty, humans.allSatisfy({ Double(max($0.width, $0.height)) >= 0.12 * shortSide }) else { continue }
                var searched: [PixelRectangle] = []
                for turn in detector.profile.turns {
                    let plan = FaceDetector.SearchPlan(tilts: [turn], catVotes: [], smallestHuman: large.smallestHuman, smallestCat: large.smallestCat,
                                                       shortSide: large.shortSide)
                    searched += try detector.faces(in: frame.image, plan: plan).filter { $0.species == .human }.map(\.bounds)
                }
                labels += humans.count
                found += humans.filter { label in searched.contains { $0.intersectionOverUnion(label) >= 0.5 } }.count
                boxes += searched.count
                hits += searched.filter { box in humans.contains { $0.intersectionOverUnion(box) >= 0.5 } }.count
            }
            Evaluation.table("A stream's whole searches on a 240-pixel copy (faces 0.12–0.8 of the frame)", columns: ["faces", "found", "boxes", "right"],
                             rows: [["\(labels)", "\(found)", "\(boxes)", "\(hits)"]])
            #expect(labels >= (Evaluation.isFull ? 200 : 100), "\(labels) faces")
            #expect(Double(found) >= 0.95 * Double(labels) && Double(hits) >= 0.97 * Double(boxes),
                    "found \(found) of \(labels); \(hits) of \(boxes) boxes right")
        }
    }
}

import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

/// The face detector on the robustness sweep (``FaceSweep``): every frame under `make eval`, which
/// prints Benchmarks/FacesMeasured.md's per-axis table; a sample of them in a sample run, against the same thresholds.
@Suite("Face sweep evaluation")
struct FaceSweepEvaluation {
    /// Every `sampleStride`-th frame of the sweep's 261 single-face frames (and of its 48 group scenes) in a sample run.
    static let sampleStride = 4

    /// The group scenes' axes: tuned on, and held apart.
    static let groupAxes = ["group", "group-held-apart"]

    /// The sweep's frames that place one face (or none, or a few apart): every axis but the group scenes.
    static func singleFaceFrames(_ sweep: FaceSweep) -> [Int] {
        (0..<sweep.count).filter { !groupAxes.contains(sweep.names[$0].axis) }
    }

    @Test("the default profile on the sweep: humans 0.1–0.8 of the frame tilted up to ±20° found at recall and precision ≥ 0.95; cats from 0.3 of the frame, cut off by an edge or not, at recall ≥ 0.75 and precision ≥ 0.9, boxes on the face (IoU ≥ 0.3; smaller cats reported); the textbook profile finds under half")
    func defaultProfileOnTheSweep() async throws {
        do {
            let sweep = try SweepSources.sweep.get()
            let detector = try FaceDetector()
            #expect(detector.usesNetwork, "the default profile needs the face network: run scripts/fetch-face-model.sh")
            let textbook = try FaceDetector(profile: .textbook)
            var all = FaceEvaluation(), inRange = FaceEvaluation(), book = FaceEvaluation(), bookInRange = FaceEvaluation()
            // The sweep's one cat, chelsea.png, is a close-up whose ears the photo cuts: its label runs from
            // the photo's top (the Cat Dataset's rule, from marked landmarks), while a cat box puts the ears
            // where a whole head has them, above the photo in the sweep's frames — so its cats are found at
            // IoU ≥ 0.3 (the real cats of CatPhotoEvaluation are held to 0.5).
            var largeCats = FaceEvaluation(overlap: Self.looseOverlap), bookLargeCats = FaceEvaluation(overlap: Self.looseOverlap)
            for index in Evaluation.cases(Self.singleFaceFrames(sweep), sampleEvery: Self.sampleStride) {
                let frame = try sweep.frame(index)
                let found = try detector.faces(in: frame.image).map { LabelledFace(species: $0.species, bounds: $0.bounds) }
                all.score(picture: frame.name, group: frame.axis, labels: frame.faces, found: found)
                let textbookFound = try textbook.faces(in: frame.image).map { LabelledFace(species: $0.species, bounds: $0.bounds) }
                book.score(picture: frame.name, group: frame.axis, labels: frame.faces, found: textbookFound)
                if SweepSources.inIssueRange(frame.name) {
                    inRange.score(picture: frame.name, labels: frame.faces, found: found)
                    bookInRange.score(picture: frame.name, labels: frame.faces, found: textbookFound)
                }
                if frame.faces.contains(where: { $0.species == .cat }), !SweepSources.isSmallCat(frame.name) {
                    largeCats.score(picture: frame.name, labels: frame.faces, found: found)
                    bookLargeCats.score(picture: frame.name, labels: frame.faces, found: textbookFound)
                }
            }
            Self.printTable(all: all, inRange: inRange, book: book, bookInRange: bookInRange, largeCats: largeCats, bookLargeCats: bookLargeCats)
            let humans = inRange.tally(.human), cats = largeCats.tally(.cat)
            #expect(humans.labelled >= (Evaluation.isFull ? 200 : 40), "\(humans.labelled) faces in the issue's range")
            #expect(humans.recall >= 0.95 && humans.precision >= 0.95, "humans \(humans), misses \(inRange.misses.map(\.picture))")
            // The sweep's cat frames are drawn from chelsea's label: with the Cat Dataset's box (ears in) the
            // photo is placed 5 % larger and cut elsewhere, and the cat cascade finds 21 of the 28 (24 of the
            // frames drawn from the cascade-style label before). One cat's photo moved about: the 48 real
            // cats of CatPhotoEvaluation, held to 0.8 / 0.9, are the cats' measure.
            #expect(cats.recall >= 0.75 && cats.precision >= 0.9, "cats \(cats), misses \(largeCats.misses.map(\.picture))")
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

    /// Per axis: recall / precision of each profile, Benchmarks/FacesMeasured.md's table.
    static func printTable(all: FaceEvaluation, inRange: FaceEvaluation, book: FaceEvaluation, bookInRange: FaceEvaluation, largeCats: FaceEvaluation,
                           bookLargeCats: FaceEvaluation) {
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
        rows.append(["cats from 0.3, cut off or not (\(largeCats.tally(.cat).labelled), IoU ≥ 0.3)", cell(bookLargeCats.tally(.cat)), "**\(cell(largeCats.tally(.cat)))**"])
        rows.append(["all cats, 0.08 up (\(all.tally(.cat).labelled))", cell(book.tally(.cat)), "**\(cell(all.tally(.cat)))**"])
        Evaluation.table("Faces on the robustness sweep's single faces (\(all.pictures) frames): recall / precision", columns: ["axis (faces)", "textbook", "**default**"],
                         rows: rows)
    }

    /// Measured when the copy was chosen (three turns each): on 240 pixels 201 of the 210 faces
    /// found, 350 boxes all right; on the still search's 320, 200 found, 352 of 358 boxes right, at
    /// 1.4 times the cost.
    @Test("a stream's whole searches that skip small faces (three in four) search a small copy — the cascades 240 pixels at three turns, the network its stream side: on the sweep's frames whose human faces are all 0.12–0.8 of the frame, each finds at least 0.95 of the faces at precision ≥ 0.97")
    func streamSearchesOnTheSweep() async throws {
        do {
            let sweep = try SweepSources.sweep.get()
            // The cascades search a 240-pixel copy at each turn; the network, which finds turned faces at
            // once, searches one copy whose long side is its streamLongestSide.
            let cascades = try FaceDetector(profile: .cascades), standard = try FaceDetector()
            #expect(cascades.profile.tracking?.largeFacesOnly?.shortSide == 240)
            #expect(standard.usesNetwork, "the default profile needs the face network: run scripts/fetch-face-model.sh")
            var rows: [[String]] = []
            for (name, detector) in [("cascades, 240-pixel copy, three turns", cascades),
                                     ("default, the network at \(standard.profile.network?.streamLongestSide ?? 0) pixels", standard)] {
                let large = try #require(detector.profile.tracking?.largeFacesOnly)
                let turns = detector.usesNetwork ? [0.0] : detector.profile.turns
                var labels = 0, found = 0, boxes = 0, hits = 0
                // Every other frame: its figure sits near its bar (201 of 210), and a quarter's 52 faces leave too few.
                for index in Evaluation.cases(Self.singleFaceFrames(sweep), sampleEvery: 2) where SweepSources.inIssueRange(sweep.names[index].name) {
                    let frame = try sweep.frame(index)
                    let shortSide = Double(min(frame.image.width, frame.image.height))
                    let humans = frame.faces.filter { $0.species == .human }.map(\.bounds)
                    guard !humans.isEmpty, humans.allSatisfy({ Double(max($0.width, $0.height)) >= 0.12 * shortSide }) else { continue }
                    var searched: [PixelRectangle] = []
                    for turn in turns {
                        let plan = FaceDetector.SearchPlan(tilts: [turn], catVotes: [], smallestHuman: large.smallestHuman, smallestCat: large.smallestCat,
                                                           shortSide: large.shortSide)
                        searched += try detector.faces(in: frame.image, plan: plan).filter { $0.species == .human }.map(\.bounds)
                    }
                    labels += humans.count
                    found += humans.filter { label in searched.contains { $0.intersectionOverUnion(label) >= 0.5 } }.count
                    boxes += searched.count
                    hits += searched.filter { box in humans.contains { $0.intersectionOverUnion(box) >= 0.5 } }.count
                }
                rows.append([name, "\(labels)", "\(found)", "\(boxes)", "\(hits)"])
                #expect(labels >= (Evaluation.isFull ? 200 : 100), "\(name): \(labels) faces")
                #expect(Double(found) >= 0.95 * Double(labels) && Double(hits) >= 0.97 * Double(boxes),
                        "\(name): found \(found) of \(labels); \(hits) of \(boxes) boxes right")
            }
            Evaluation.table("A stream's whole searches for large faces (faces 0.12–0.8 of the frame)", columns: ["search", "faces", "found", "boxes", "right"],
                             rows: rows)
        }
    }

    @Test("the eye line follows a turned head: on the sweep's heads tilted ±5…25° (each tilt known exactly), the default's eye line is within 2.5° of the tilt on average, about half of YuNet's own error; each profile's printed")
    func eyeLineOnTilts() async throws {
        do {
            let sweep = try SweepSources.sweep.get()
            let frames = Evaluation.cases((0..<sweep.count).filter { sweep.names[$0].axis == "tilt" }, sampleEvery: 2)
            var rows: [[String]] = []
            var means: [String: Double] = [:]
            for name in ["default", "yunet", "centerface"] {
                let detector = try FaceDetector(profile: try #require(FaceDetectionProfile.named(name)))
                // Each source leans a little of its own: its turn is the median over its tilts, and the error
                // is how far each frame's eye line strays from that plus the frame's tilt.
                var turns: [String: [(tilt: Double, angle: Double)]] = [:]
                for index in frames {
                    let frame = try sweep.frame(index)
                    let parts = frame.name.dropFirst("tilt-".count).split(separator: "-", omittingEmptySubsequences: false)
                    // "tilt--25-Piggy": the tilt may be negative, so its minus sign leaves an empty part.
                    let negative = parts.first == "", tilt = try #require(Double(parts[negative ? 1 : 0])) * (negative ? -1 : 1)
                    let source = parts[(negative ? 2 : 1)...].joined(separator: "-")
                    let label = try #require(frame.faces.first { $0.species == .human })
                    let faces = try detector.faces(in: frame.image).filter { $0.species == .human }
                    guard let face = faces.max(by: { $0.bounds.intersectionOverUnion(label.bounds) < $1.bounds.intersectionOverUnion(label.bounds) }),
                          face.bounds.intersectionOverUnion(label.bounds) >= FaceSweepEvaluation.looseOverlap else { continue }
                    turns[source, default: []].append((tilt, face.angle))
                }
                var errors: [Double] = []
                for measured in turns.values {
                    let own = measured.map { $0.angle - $0.tilt }.sorted()[measured.count / 2]
                    errors += measured.map { abs($0.angle - $0.tilt - own) }
                }
                let mean = errors.reduce(0, +) / Double(max(errors.count, 1))
                means[name] = mean
                rows.append([name, "\(errors.count)", String(format: "%.1f°", mean), String(format: "%.1f°", errors.max() ?? 0)])
            }
            Evaluation.table("The eye line on the sweep's tilted heads (±5…25°)", columns: ["profile", "heads", "mean error", "largest"], rows: rows)
            let ours = try #require(means["default"]), yuNet = try #require(means["yunet"])
            #expect(ours <= 2.5 && ours <= yuNet / 2 + 0.5, "default \(ours)°, YuNet alone \(yuNet)°")
        }
    }

    /// Face width bands of the group scenes, in pixels: the envelope's smallest, a webcam's classroom, a call, a portrait.
    static let bands: [(name: String, widths: Range<Int>)] = [("24–39 px", 0..<40), ("40–69 px", 40..<70), ("70–119 px", 70..<120), ("120 px and up", 120..<Int.max)]
    /// A box on a group scene's face: IoU ≥ 0.5 with its label (the sweep's rule) or, looser, ≥ 0.3 —
    /// the sources' labels draw the face's box differently (astronaut.png's is 2.1 eye distances
    /// wide, Piggy.png's 3.2, with the hat's brim), so a box on the face but framed the network's
    /// way can miss 0.5 on one source and not another.
    static let looseOverlap = 0.3

    /// One detector's figures on a set of group scenes.
    struct GroupFigures {
        var strict = FaceEvaluation()
        var loose = (labelled: 0, matched: 0, found: 0, right: 0)
        /// Per band: faces, found with IoU ≥ 0.5, found with IoU ≥ 0.3.
        var bands: [String: (labelled: Int, matched: Int, looselyMatched: Int)] = [:]
        var seconds = 0.0

        mutating func score(_ frame: FaceSweep.Frame, found: [LabelledFace], seconds: Double) {
            let labels = frame.faces.filter { $0.species == .human }, boxes = found.filter { $0.species == .human }
            strict.score(picture: frame.name, labels: labels, found: boxes)
            loose.labelled += labels.count
            loose.found += boxes.count
            loose.matched += labels.filter { label in boxes.contains { $0.bounds.intersectionOverUnion(label.bounds) >= looseOverlap } }.count
            loose.right += boxes.filter { box in labels.contains { $0.bounds.intersectionOverUnion(box.bounds) >= looseOverlap } }.count
            for label in labels {
                let band = FaceSweepEvaluation.bands.first { $0.widths.contains(label.bounds.width) }!.name
                let overlap = boxes.map { $0.bounds.intersectionOverUnion(label.bounds) }.max() ?? 0
                bands[band, default: (0, 0, 0)].labelled += 1
                bands[band, default: (0, 0, 0)].matched += overlap >= FaceEvaluation.requiredOverlap ? 1 : 0
                bands[band, default: (0, 0, 0)].looselyMatched += overlap >= looseOverlap ? 1 : 0
            }
            self.seconds += seconds
        }

        var looseRecall: Double { loose.labelled == 0 ? 1 : Double(loose.matched) / Double(loose.labelled) }
        var loosePrecision: Double { loose.found == 0 ? 1 : Double(loose.right) / Double(loose.found) }
    }

    @Test("group scenes of 2–20 people at 720p and 1080p, faces from 24 px: the default profile finds ≥ 0.95 of the faces at precision ≥ 0.95 on the tuned scenes and, boxes on the face (IoU ≥ 0.3), on the held-apart ones too, at least 10 points of recall above plain OpenCV's cascade on the same scenes")
    func groupScenes() async throws {
        do {
            let sweep = try SweepSources.sweep.get()
            let detector = try FaceDetector()
            #expect(detector.usesNetwork, "the default profile needs the face network: run scripts/fetch-face-model.sh")
            let baseline = try OpenCVFaceBaseline()
            // The cascades alone, as before the network: under make eval only (0.6 s a frame).
            let cascades = Evaluation.isFull ? try FaceDetector(profile: .cascades) : nil
            // Each network alone beside the default's pair, where its file is (scripts/fetch-face-model.sh).
            let yuNet = try FaceDetector(profile: .yuNet), centerFace = try FaceDetector(profile: .centerFace)
            var figures: [String: [String: GroupFigures]] = [:]
            let indices = (0..<sweep.count).filter { Self.groupAxes.contains(sweep.names[$0].axis) }
            for index in Evaluation.cases(indices, sampleEvery: Self.sampleStride) {
                let frame = try sweep.frame(index)
                func timed(_ name: String, _ detect: () throws -> [LabelledFace]) rethrows {
                    let start = Date()
                    let found = try detect()
                    figures[frame.axis, default: [:]][name, default: GroupFigures()].score(frame, found: found, seconds: Date().timeIntervalSince(start))
                }
                try timed("default") { try detector.faces(in: frame.image).map { LabelledFace(species: $0.species, bounds: $0.bounds) } }
                for (name, alone) in [("yunet", yuNet), ("centerface", centerFace)] where alone.profile.network?.model == FaceDetectionProfile.named(name)?.network?.model {
                    try timed(name) { try alone.faces(in: frame.image).map { LabelledFace(species: $0.species, bounds: $0.bounds) } }
                }
                if let cascades {
                    try timed("cascades") { try cascades.faces(in: frame.image).map { LabelledFace(species: $0.species, bounds: $0.bounds) } }
                }
                try timed(OpenCVFaceBaseline.name) { try baseline.faces(in: frame.image) }
            }
            Self.printGroupTable(figures)
            for axis in Self.groupAxes {
                let ours = try #require(figures[axis]?["default"]), theirs = try #require(figures[axis]?[OpenCVFaceBaseline.name])
                let humans = ours.strict.tally(.human)
                #expect(humans.labelled >= (Evaluation.isFull ? 180 : 30), "\(axis): \(humans.labelled) faces")
                if axis == "group" {
                    #expect(humans.recall >= 0.95 && humans.precision >= 0.95, "\(axis): \(humans), misses \(ours.strict.misses.map { "\($0.picture) \($0.face.bounds)" })")
                }
                #expect(ours.looseRecall >= 0.95 && ours.loosePrecision >= 0.95, "\(axis), boxes on the face: \(ours.loose)")
                #expect(ours.looseRecall >= theirs.looseRecall + 0.1, "\(axis): recall \(ours.looseRecall) against plain OpenCV's \(theirs.looseRecall)")
            }
        }
    }

    /// Per split and detector: recall / precision (IoU ≥ 0.5 and ≥ 0.3), recall per face width, time a frame.
    static func printGroupTable(_ figures: [String: [String: GroupFigures]]) {
        var rows: [[String]] = []
        for axis in groupAxes {
            for name in ["default", "yunet", "centerface", "cascades", OpenCVFaceBaseline.name] {
                guard let result = figures[axis]?[name] else { continue }
                let tally = result.strict.tally(.human)
                let bandCells = bands.map { band -> String in
                    let counts = result.bands[band.name] ?? (0, 0, 0)
                    func share(_ found: Int) -> String { Evaluation.figure(Double(found) / Double(counts.labelled)) }
                    return counts.labelled == 0 ? "–" : "\(share(counts.matched)) / \(share(counts.looselyMatched)) (\(counts.labelled))"
                }
                let perFrame = result.seconds * 1000 / Double(max(result.strict.pictures, 1))
                rows.append([axis == "group" ? "tuned" : "**held apart**", name == "default" ? "**default**" : name,
                             "\(Evaluation.figure(tally.recall)) / \(Evaluation.figure(tally.precision))",
                             "\(Evaluation.figure(result.looseRecall)) / \(Evaluation.figure(result.loosePrecision))"] + bandCells
                            + ["\(Int(perFrame.rounded())) ms"])
            }
        }
        Evaluation.table("Group scenes (2–20 people, 720p and 1080p, faces from 24 px): recall / precision, recall by face width (IoU ≥ 0.5 / ≥ 0.3)",
                         columns: ["scenes", "detector", "IoU ≥ 0.5", "IoU ≥ 0.3"] + bands.map(\.name) + ["a frame"], rows: rows)
    }
}

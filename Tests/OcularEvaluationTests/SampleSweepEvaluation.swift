import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

/// The detecting samples on scenes nobody tuned them on: seeded variations of size, position, rotation,
/// cut-off, light, noise, blur and several objects, each with exact labels. The defaults are the
/// parameters the sweeps chose. `make eval` runs every scene and prints the tables; a sample run every
/// third scene (the first two tracking runs), against the same thresholds.
@Suite("sample sweep evaluation")
struct SampleSweepEvaluation {
    static let finishes: [(name: String, finish: SweepFinish)] = [
        ("plain", .none), ("dim ×0.5", .exposure(0.5)), ("gamma 2", .gamma(2)), ("contrast ×0.5", .contrast(0.5)),
        ("side light", .sideLight), ("JPEG 50", .jpeg(quality: 50)), ("noise σ 6", .noise(sigma: 6)), ("blur", .blur),
    ]

    /// Paper and ink of one scene: random colours whose lumas differ by at least 60.
    static func colours(_ generator: inout SeededGenerator) -> (paper: Colour, ink: Colour) {
        while true {
            let paper = Colour(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                               blue: .random(in: 0...255, using: &generator))
            let ink = Colour(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                             blue: .random(in: 0...255, using: &generator))
            if abs(paper.luma - ink.luma) >= 60 { return (paper, ink) }
        }
    }

    // MARK: - Harris corners

    /// An ink whose luma differs from the paper's by 40 or more.
    static func ink(against paper: Colour, _ generator: inout SeededGenerator) -> Colour {
        while true {
            let ink = Colour(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                             blue: .random(in: 0...255, using: &generator))
            if abs(paper.luma - ink.luma) >= 40 { return ink }
        }
    }

    /// 1–3 rectangles (sides 24–80) at random places, the whole scene turned by 0–40°: the corners' true places.
    static func cornerScene(seed: UInt64) throws -> (image: Image, corners: [Point]) {
        var generator = SeededGenerator(seed: seed)
        let (paper, _) = colours(&generator)
        var image = try Image(width: 320, height: 240, format: .bgr8, filledWith: [paper.blue, paper.green, paper.red])
        var corners: [Point] = []
        var placed: [PixelRectangle] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            for _ in 0..<50 {
                let box = PixelRectangle(x: .random(in: 70...220, using: &generator), y: .random(in: 50...150, using: &generator),
                                         width: .random(in: 24...80, using: &generator), height: .random(in: 24...80, using: &generator))
                guard box.x + box.width <= 250, box.y + box.height <= 190,
                      !placed.contains(where: { $0.clipped(toWidth: 1000, height: 1000).map { other in
                          abs((other.x + other.width / 2) - (box.x + box.width / 2)) < (other.width + box.width) / 2 + 12
                              && abs((other.y + other.height / 2) - (box.y + box.height / 2)) < (other.height + box.height) / 2 + 12 } ?? false })
                else { continue }
                placed.append(box)
                // Each its own ink, some barely off the paper: a corner's response grows with its contrast's fourth power.
                let own = Self.ink(against: paper, &generator)
                try image.drawRectangle(box, colour: own, thickness: -1)
                // The corner pixels' centres, half a pixel out: where the edges' lines cross.
                let (left, top) = (Double(box.x) - 0.5, Double(box.y) - 0.5)
                let (right, bottom) = (Double(box.x + box.width) - 0.5, Double(box.y + box.height) - 0.5)
                corners += [Point(x: left, y: top), Point(x: right, y: top), Point(x: left, y: bottom), Point(x: right, y: bottom)]
                break
            }
        }
        let turn = AffineMatrix.rotation(by: .random(in: 0...40, using: &generator), about: Point(x: 160, y: 120))
        return (try image.warped(by: turn, width: 320, height: 240, replicatingEdges: true), corners.map(turn.apply))
    }

    struct Score {
        var truths = 0, found = 0, truthsHit = 0, foundRight = 0
        var recall: Double { Double(truthsHit) / Double(max(truths, 1)) }
        var precision: Double { Double(foundRight) / Double(max(found, 1)) }
        var f1: Double { recall + precision > 0 ? 2 * recall * precision / (recall + precision) : 0 }

        mutating func add(found points: [Point], truths: [Point], within tolerance: Double) {
            self.truths += truths.count
            found += points.count
            truthsHit += truths.filter { truth in points.contains { hypot($0.x - truth.x, $0.y - truth.y) <= tolerance } }.count
            foundRight += points.filter { point in truths.contains { hypot($0.x - point.x, $0.y - point.y) <= tolerance } }.count
        }
    }

    @Test("Harris: the default threshold is the sweep's choice; recall and precision hold under light, noise, blur and rotation")
    func harrisSweep() throws {
        let thresholds = [0.001, 0.003, 0.01, 0.03, 0.1]
        var byThreshold = [Double: Score](), byFinish = [String: Score]()
        for seed in Evaluation.cases(0..<UInt64(24), sampleEvery: 3) {
            let scene = try Self.cornerScene(seed: 1000 + seed)
            for (name, finish) in Self.finishes {
                let image = try finish.apply(to: scene.image, seed: "corners-\(seed)-\(name)")
                for threshold in thresholds {
                    let found = try CornersStage.with(CornersStage.threshold(threshold)).corners(in: image).map { Point(x: $0.x, y: $0.y) }
                    byThreshold[threshold, default: Score()].add(found: found, truths: scene.corners, within: 3)
                    if threshold == CornersStage.threshold.defaultValue {
                        byFinish[name, default: Score()].add(found: found, truths: scene.corners, within: 3)
                    }
                }
            }
        }
        Evaluation.table("Harris corners: the threshold", columns: ["threshold", "recall", "precision", "F1"], rows: thresholds.map { threshold in
            let score = byThreshold[threshold]!
            return ["\(threshold)", Evaluation.figure(score.recall, digits: 3), Evaluation.figure(score.precision, digits: 3), Evaluation.figure(score.f1, digits: 3)]
        })
        Evaluation.table("Harris corners at the default threshold, by finish", columns: ["finish", "recall", "precision"], rows: Self.finishes.map { name, _ in
            let score = byFinish[name]!
            return [name, Evaluation.figure(score.recall, digits: 3), Evaluation.figure(score.precision, digits: 3)]
        })
        let best = thresholds.map { byThreshold[$0]!.f1 }.max()!
        let chosen = byThreshold[CornersStage.threshold.defaultValue]!
        #expect(chosen.f1 >= best - 0.02, "the default's F1 \(chosen.f1) against the best \(best)")
        #expect(chosen.recall >= 0.9 && chosen.precision >= 0.8, "recall \(chosen.recall), precision \(chosen.precision)")
    }

    // MARK: - Contours

    /// 1–6 discs and rectangles on a 4 × 3 grid of cells, some cut off by the frame's edge: how many.
    static func shapeScene(seed: UInt64) throws -> (image: Image, count: Int) {
        var generator = SeededGenerator(seed: seed)
        let (paper, ink) = colours(&generator)
        var image = try Image(width: 320, height: 240, format: .bgr8, filledWith: [paper.blue, paper.green, paper.red])
        var cells = Array(0..<12)
        cells.shuffle(using: &generator)
        let count = Int.random(in: 1...6, using: &generator)
        for cell in cells.prefix(count) {
            let (column, row) = (cell % 4, cell / 4)
            // A cell is 80 × 80; a shape up to 56 across, kept 12 px from the next cell's. An edge cell's
            // shape may stick out of the frame by up to a third.
            let size = Int.random(in: 14...56, using: &generator)
            let outside = (column == 0 || column == 3 || row == 0 || row == 2) && Bool.random(using: &generator) ? size / 3 : 0
            let x = column * 80 + 12 + Int.random(in: 0...(56 - size), using: &generator) - (column == 0 ? outside : 0) + (column == 3 ? outside : 0)
            let y = row * 80 + 12 + Int.random(in: 0...(56 - size), using: &generator) - (row == 0 ? outside : 0) + (row == 2 ? outside : 0)
            if Bool.random(using: &generator) {
                try image.drawCircle(at: Point(x: Double(x + size / 2), y: Double(y + size / 2)), radius: size / 2, colour: ink, thickness: -1)
            } else {
                try image.drawRectangle(PixelRectangle(x: x, y: y, width: size, height: Int.random(in: 14...56, using: &generator)), colour: ink, thickness: -1)
            }
        }
        return (image, count)
    }

    @Test("contours: the default smallest area is the sweep's choice; shapes are counted exactly under light, noise and blur")
    func contourSweep() throws {
        let areas = [0.0, 4, 16, 64, 256]
        var exact = [Double: Int](), exactByFinish = [String: Int](), adaptiveByFinish = [String: Int]()
        let seeds = Evaluation.cases(0..<UInt64(30), sampleEvery: 3), scenes = seeds.count
        for seed in seeds {
            let scene = try Self.shapeScene(seed: 2000 + seed)
            for (name, finish) in Self.finishes {
                let image = try finish.apply(to: scene.image, seed: "contours-\(seed)-\(name)")
                let adaptive = try ContoursStage.with(ContoursStage.method(.adaptive), ContoursStage.mode(.outer)).contours(in: image)
                if adaptive.described.count == scene.count { adaptiveByFinish[name, default: 0] += 1 }
                for area in areas {
                    let stage = try ContoursStage.with(ContoursStage.mode(.outer), ContoursStage.minimumArea(area))
                    let counted = try stage.contours(in: image).described.count
                    if counted == scene.count {
                        exact[area, default: 0] += 1
                        if area == ContoursStage.minimumArea.defaultValue { exactByFinish[name, default: 0] += 1 }
                    }
                }
            }
        }
        let total = scenes * Self.finishes.count
        Evaluation.table("Contours: the smallest area", columns: ["minimumArea", "scenes counted exactly"],
                         rows: areas.map { ["\($0)", "\(exact[$0] ?? 0) / \(total)"] })
        Evaluation.table("Contours at the default smallest area, by finish", columns: ["finish", "Otsu exact", "adaptive exact"],
                         rows: Self.finishes.map { name, _ in [name, "\(exactByFinish[name] ?? 0) / \(scenes)", "\(adaptiveByFinish[name] ?? 0) / \(scenes)"] })
        let best = areas.map { exact[$0] ?? 0 }.max()!
        let chosen = exact[ContoursStage.minimumArea.defaultValue] ?? 0
        #expect(chosen >= best - total / 50, "the default counts \(chosen) exactly, the best \(best)")
        // One threshold for the frame cannot split light falling across it (side light): there the
        // adaptive method counts; elsewhere Otsu's is exact.
        for (name, _) in Self.finishes where name != "side light" {
            #expect(exactByFinish[name] ?? 0 >= scenes * 9 / 10, "\(name): \(exactByFinish[name] ?? 0)/\(scenes)")
        }
        #expect(adaptiveByFinish["side light"] ?? 0 >= scenes * 8 / 10, "adaptive under side light: \(adaptiveByFinish["side light"] ?? 0)/\(scenes)")
    }

    // MARK: - Tracking

    /// The map from the photo to a 240 × 180 window centred on `centre`, turned by `angle` degrees.
    static func window(centre: Point, angle: Double) throws -> AffineMatrix {
        var m = AffineMatrix.rotation(by: -angle, about: centre).coefficients
        m[2] += 120 - centre.x
        m[5] += 90 - centre.y
        return try AffineMatrix(coefficients: m)
    }

    static func inverse(of map: AffineMatrix) throws -> AffineMatrix {
        let m = map.coefficients, determinant = m[0] * m[4] - m[1] * m[3]
        let (a, b, d, e) = (m[4] / determinant, -m[1] / determinant, -m[3] / determinant, m[0] / determinant)
        return try AffineMatrix(coefficients: [a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])])
    }

    @Test("tracking: a photograph moved (up to 6 px), turned (up to 1.5°), re-lit, noisy, compressed and blurred is followed within 1 px a frame")
    func trackingSweep() throws {
        let photo = try Image(contentsOfFile: TestData.path("images/coffee.png")).converted(to: .gray8)
        var generator = SeededGenerator(seed: 77)
        var errors: [Double] = [], followed: [Int] = []
        for run in 0..<Evaluation.rounds(full: 6, sample: 2) {
            let stage = try TrackingStage.withDefaults()
            // Where the window's centre is, and its turn, frame by frame.
            var centre = Point(x: Double(photo.width) / 2, y: Double(photo.height) / 2), angle = 0.0, exposure = 1.0
            var previous: (centre: Point, angle: Double)?
            for frame in 0..<15 {
                // The window shows the photo around `centre`, turned by `angle`: turned about the centre, then
                // moved so that the centre lands in the window's middle.
                let map = try Self.window(centre: centre, angle: angle)
                // A camera's conditions: the exposure drifting (up to 8 % a frame), fresh sensor noise, JPEG
                // compression, now and then a blurred frame.
                var image = try photo.warped(by: map, width: 240, height: 180, replicatingEdges: true)
                image = try SweepFinish.exposure(exposure).apply(to: image, seed: "")
                image = try SweepFinish.noise(sigma: 3).apply(to: image, seed: "track-\(run)-\(frame)")
                image = try SweepFinish.jpeg(quality: 80).apply(to: image, seed: "")
                if frame % 5 == 4 { image = try SweepFinish.blur.apply(to: image, seed: "") }
                let tracks = try stage.process(Frame(image: image)).annotations(of: Track.self)
                if let previous {
                    // Where a point of the last window is now: back to the photo by the last map, forward by this one.
                    let last = try Self.window(centre: previous.centre, angle: previous.angle)
                    let moving = tracks.filter { $0.age > 1 }
                    followed.append(moving.count)
                    for track in moving {
                        let before = Point(x: track.position.x - track.motion.x, y: track.position.y - track.motion.y)
                        let expected = map.apply(to: try Self.inverse(of: last).apply(to: before))
                        errors.append(hypot(expected.x - track.position.x, expected.y - track.position.y))
                    }
                }
                previous = (centre, angle)
                centre.x += .random(in: -6...6, using: &generator)
                centre.y += .random(in: -6...6, using: &generator)
                angle += .random(in: -1.5...1.5, using: &generator)
                exposure = min(1.3, max(0.6, exposure * .random(in: 0.92...1.08, using: &generator)))
            }
        }
        errors.sort()
        let within = Double(errors.filter { $0 < 1 }.count) / Double(errors.count)
        Evaluation.table("Tracking a moving photograph", columns: ["followings", "median error", "95th percentile", "within 1 px", "points followed per frame"],
                         rows: [["\(errors.count)", String(format: "%.3f px", errors[errors.count / 2]), String(format: "%.3f px", errors[errors.count * 95 / 100]),
                                 Evaluation.percent(within), "\(followed.min()!)–\(followed.max()!)"]])
        #expect(within >= 0.95 && errors[errors.count / 2] < 0.25)
        #expect(followed.min()! >= 40)
    }
}

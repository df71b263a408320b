import Foundation
@testable import Ocular
@testable import OcularEvaluation

/// Clips of the sweep's faces moving, with exact labels, and how a follower scores on them.
package enum MotionClips {
    /// A 30-frame clip of one sweep source moving over a 640 × 480 frame, with exact labels.
    package struct Clip: Sendable {
        package var name: String
        /// The face's size (fraction of the short side) and centre at each frame.
        package var path: @Sendable (Int) -> (size: Double, centre: Point)
        package var busy: Bool
    }

    package static let all: [Clip] = [
        Clip(name: "pan 8 px/frame", path: { (0.35, Point(x: 200 + 8 * Double($0), y: 240)) }, busy: false),
        Clip(name: "pan 20 px/frame, busy", path: { (0.3, Point(x: 480 - 10 * Double($0), y: 200 + 3 * Double($0))) }, busy: true),
        Clip(name: "comes nearer", path: { (0.2 * pow(1.035, Double($0)), Point(x: 320, y: 240)) }, busy: true),
        Clip(name: "goes away", path: { (0.55 / pow(1.035, Double($0)), Point(x: 300 + 2 * Double($0), y: 240)) }, busy: false),
        Clip(name: "shakes", path: { (0.4, Point(x: 320 + 25 * sin(Double($0)), y: 240 + 15 * cos(1.3 * Double($0)))) }, busy: true),
        Clip(name: "leaves the frame", path: { (0.3, Point(x: 300 + 18 * Double($0), y: 260)) }, busy: true),
    ]

    /// Hits, misses and false boxes of `tracker`-like followers over every clip and human source.
    /// `pairs` are the (clip, source) indices to run: all of them, or a sample run's.
    package static func score(_ profile: FaceDetectionProfile, sweep: FaceSweep, pairs: [(clip: Int, source: Int)]) throws
        -> (hits: Int, misses: Int, wrong: Int, notes: [String]) {
        var hits = 0, misses = 0, wrong = 0, notes: [String] = []
        for (clipIndex, index) in pairs {
            let clip = all[clipIndex], source = sweep.humans[index]
            let tracker = FaceTracker(detector: try FaceDetector(profile: profile))
            for number in 0..<30 {
                let (size, centre) = clip.path(number)
                let recipe = FaceSweep.Recipe(name: "\(clip.name) \(number)", axis: "motion", background: clip.busy ? index % sweep.faceless.count : nil,
                                              placements: [.init(source: source, size: size, centre: centre)])
                let frame = try sweep.draw(recipe)
                let found = try tracker.faces(in: frame.image).map(\.bounds)
                let labels = frame.faces.map(\.bounds)
                let hit = found.filter { box in labels.contains { $0.intersectionOverUnion(box) >= 0.5 } }.count
                hits += hit
                wrong += found.count - hit
                let missed = labels.filter { label in !found.contains { $0.intersectionOverUnion(label) >= 0.5 } }.count
                misses += missed
                if missed + found.count - hit > 0 { notes.append("\(clip.name), \(source.name), frame \(number): found \(found), labels \(labels)") }
            }
        }
        return (hits, misses, wrong, notes)
    }
}

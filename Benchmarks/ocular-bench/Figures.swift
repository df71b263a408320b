// The figures a run keeps for scripts/bench-compare.py, which holds them against the committed
// baseline (Benchmarks/baseline.json) and names each one that got worse by more than its noise.
import Foundation

/// Which way a figure improves.
enum Better: String {
    case lower, higher
}

/// How a figure was measured, which sets the least noise bench-compare.py allows it (measured there).
enum FigureKind: String {
    /// Both sides in this process in alternating rounds (Swift/C++, Ocular/textbook).
    case alternated
    /// Against Python cv2 or Pillow, which runs once in a subprocess of its own.
    case separate
    /// Whole programs against each other in alternated runs (a video through ocular process and Python).
    case runs
    /// A time or a rate on this machine alone (frames/s, ms a frame): it moves with the machine's load.
    case absolute
}

/// Every figure of this run, in the order measured; written as JSON by `--figures FILE`.
final class FigureLog: @unchecked Sendable {
    static let shared = FigureLog()
    private let lock = NSLock()
    private var figures = [[String: Any]]()

    /// Records one figure. `spread`: the run's own relative noise for it (``spread(_:)`` of its rounds),
    /// when it has rounds.
    func record(_ name: String, _ value: Double, better: Better, kind: FigureKind, spread: Double? = nil) {
        guard value.isFinite, value > 0 else { return }  // nothing measured: bench-compare.py reports the row missing
        var figure: [String: Any] = ["name": name, "value": value, "better": better.rawValue, "kind": kind.rawValue]
        if let spread, spread.isFinite { figure["spread"] = spread }
        lock.withLock { figures.append(figure) }
    }

    func write(to path: String) throws {
        let document: [String: Any] = ["source": "ocular-bench", "figures": lock.withLock { figures }]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }
}

extension Measurement {
    /// How far one round's ratio strays from the ratio (``spread(_:)`` of the rounds).
    var roundSpread: Double { spread(roundRatios) ?? .nan }
}

/// Half the spread of `values` over their median: of the middle half (the interquartile range) from
/// five values on, so that one round the machine stalled in (a 0.66 spread in a row of ten rounds
/// otherwise within 2 %) does not widen the figure's noise; of all of them below five.
func spread(_ values: [Double]) -> Double? {
    guard values.count > 1 else { return nil }
    let sorted = values.sorted()
    let middle = median(sorted)
    guard middle > 0 else { return nil }
    if sorted.count < 5 { return (sorted.last! - sorted.first!) / 2 / middle }
    return (percentile(sorted, 0.75) - percentile(sorted, 0.25)) / 2 / middle
}

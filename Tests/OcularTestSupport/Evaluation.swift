import Foundation

/// The sweeps and evaluations behind the articles' figures, in two sizes.
///
/// `make eval` sets `OCULAR_EVAL=1`, runs only these suites (named `…Evaluation`, with the fuzz tests
/// and the kill loop), over every case, and prints their tables; `make test` leaves them to it. Run
/// without `OCULAR_EVAL` (`swift test --filter FaceSweepEvaluation`), a suite takes a deterministic
/// sample (every n-th case) against the same thresholds: a check of a change in a minute or two.
public enum Evaluation {
    /// Whether this run is `make eval`'s: every case, and the tables printed.
    public static let isFull = ProcessInfo.processInfo.environment["OCULAR_EVAL"] == "1"

    /// The cases to run: all of them under `make eval`; in a sample run every `stride`-th from the
    /// first, so the sample is the same on every run and spread over the whole sweep.
    public static func cases<C: Collection>(_ all: C, sampleEvery stride: Int) -> [C.Element] {
        precondition(stride >= 1, "a sample takes every n-th case, n ≥ 1")
        return isFull ? Array(all) : all.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
    }

    /// A count of rounds (fuzz mutations, random chains): `full` under `make eval`, `sample` otherwise.
    public static func rounds(full: Int, sample: Int) -> Int { isFull ? full : sample }

    /// Prints a table in Markdown under `make eval`, the run whose figures the articles quote; a sample's
    /// figures are not the articles', so a sample run prints none.
    public static func table(_ title: String, columns: [String], rows: [[String]]) {
        guard isFull else { return }
        var lines = ["", "### \(title)", "", "| " + columns.joined(separator: " | ") + " |",
                     "|" + String(repeating: "---|", count: columns.count)]
        lines += rows.map { "| " + $0.joined(separator: " | ") + " |" }
        print(lines.joined(separator: "\n") + "\n")
    }

    /// A fraction as the tables show it: 0.953 → "0.95".
    public static func figure(_ value: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

    /// A fraction as a percentage: 0.9853 → "98.5 %".
    public static func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
}

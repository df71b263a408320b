import ArgumentParser
import Foundation
import Ocular

struct SharpnessCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the meter against the analytic answer on synthetic Gaussian-blurred edges.",
        discussion: """
            An edge blurred by a Gaussian of σ pixels has MTF(f) = exp(−2π²σ²f²), so MTF50 = 0.1874/σ cycles \
            per pixel. Edges at 2–10° with σ from 0.5 to 3 are measured under three conditions of contrast and \
            noise (\(SlantedEdgeCheck.conditions.map(\.name).joined(separator: "; "))); each cell shows the \
            largest error of the three. The promise: within 3 % for σ ≥ 0.7.
            """)

    @Flag(help: "Print every measurement as JSON.")
    var json = false

    func run() throws {
        let edges = SlantedEdgeCheck.sigmas.count * SlantedEdgeCheck.angles.count * SlantedEdgeCheck.conditions.count
        let rows = try ProgressDisplay.showing("measuring edges", total: edges, unit: "edges") { progress in
            try SlantedEdgeCheck.run { _, _ in progress.advance() }
        }
        if json {
            try JSONOutput.print(rows)
            return
        }
        let table = SlantedEdgeCheck.sigmas.map { sigma -> [String] in
            let cells = SlantedEdgeCheck.angles.map { degrees -> String in
                let cell = rows.filter { $0.sigma == sigma && $0.degrees == degrees }
                let worst = cell.max { abs($0.error) < abs($1.error) }
                return worst.map { String(format: "%.4f (%+.1f%%)", $0.measured, $0.error * 100) } ?? ""
            }
            return [String(format: "%.1f", sigma), String(format: "%.4f", SlantedEdgeChart.gaussianMTF50(sigma: sigma))] + cells
        }
        print("MTF50 in cycles/pixel, the worst of three conditions per cell (measured, error against 0.1874/σ)")
        print(TextTable(header: ["σ", "analytic"] + SlantedEdgeCheck.angles.map { "\(ZoomPlanner.format($0))°" }, rows: table).text)
        let promised = rows.filter { $0.sigma >= 0.7 }
        let worst = promised.map { abs($0.error) }.max() ?? 0
        print(String(format: "σ ≥ 0.7: worst error %.2f %% over %d edges (promise: 3 %%)", worst * 100, promised.count))
        if worst > 0.03 { throw ExitCode(1) }
    }
}

import ArgumentParser
import Foundation
import Ocular

/// `ocular batch merge`: the shards' results files made one.
struct BatchMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join shards' results files into one, a line per output (its last), sorted by input path.",
        discussion: """
            `ocular batch merge OUT/results-*.jsonl -o OUT/results.jsonl`. Lines cut short (a shard killed \
            mid-write) are dropped. Prints how many inputs are done and failed; the exit status is the \
            number failed (63 for 63 or more), as `ocular batch` gives it.
            """)

    @Argument(help: "The shards' results files.")
    var files: [String]

    @Option(name: .shortAndLong, help: "The merged results file (written whole, then renamed into place).")
    var output: String

    func run() throws {
        let recorded = try BatchResultsLog.recorded(in: files, requireEach: true)
        let lines = recorded.values.sorted { ($0.result.path, $0.result.output) < ($1.result.path, $1.result.output) }
        let text = lines.map { $0.line + "\n" }.joined()
        try FileAccess.write(Array(text.utf8), to: output)
        let failed = lines.filter { $0.result.status == .failed }.count
        print("\(output): \(lines.count) inputs from \(files.count) files, \(lines.count - failed) done, \(failed) failed")
        if failed > 0 { throw ExitCode(Int32(min(failed, 63))) }
    }
}

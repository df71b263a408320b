import ArgumentParser
import Foundation
import Ocular

/// `ocular batch [run]`: a recipe over many files, on every core, resumable and shardable.
struct BatchRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a recipe over files, folders and manifests, writing an output and a results line for each.",
        discussion: """
            INPUT is a file, a folder (walked recursively for images and videos by extension, through \
            symbolic links, hidden files skipped; the output folder is never read as input, however it is \
            reached; a name that is not UTF-8 or a subfolder that cannot be listed is a failed line) or a \
            manifest (.txt, .list, .jsonl, .manifest: a path a line, or JSON lines \
            {"path":"a.jpg","output":"x/a.png"}; relative paths are read from the manifest's folder). \
            Outputs keep the inputs' relative paths under -o (a folder's own name first), with --format's \
            extension; videos go through the recipe frame by frame and stay .mp4 or .avi. Each output is \
            written under a hidden name and renamed, so one that exists is complete.

            Every input gets a line in the results file (default OUTDIR/results.jsonl, results-I.jsonl for \
            shard I): path, output, status (done or failed), the input's SHA-256, the recipe's hash, what the \
            detection stages found (as `ocular apply --json`), an error's code and message, milliseconds. A \
            damaged input is a failed line, never a stopped batch. --resume skips each input whose output \
            exists and whose last line records the same checksum and recipe hash. --shard I/N takes a stable \
            share of the inputs by a hash of their output names: shards are disjoint, cover everything, and \
            stay put when a file is added. The exit status is the number of inputs that failed (63 for 63 or \
            more), 0 only when none did.
            """)

    @Argument(help: "Files, folders and manifests.")
    var inputs: [String]

    @Option(help: "The recipe: JSON text, or a file holding it. `ocular stages` lists the stages.")
    var recipe: RecipeArgument

    @Option(name: .shortAndLong, help: "The folder the outputs go to (made when missing).")
    var output: String

    @Option(help: "How many inputs are worked on at once (default: the machine's cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("opencv-threads"),
            help: "Threads one OpenCV call may use (default: the cores shared among the jobs; give 1 where other processes share the cores, as Ray's tasks or a pod's do).")
    var openCVThreads: Int?

    @Option(help: "Take shard I of N (I from 0): --shard 3/8.")
    var shard: ShardArgument?

    @Option(name: .customLong("shard-count"), help: "Take shard JOB_COMPLETION_INDEX of this many (a Kubernetes Indexed Job sets the index).")
    var shardCount: Int?

    @Option(help: "The images' output format: png, jpeg or same (the input's own). Videos keep .mp4 or .avi.")
    var format: BatchOutputFormat = .same

    @Option(help: "JPEG quality of .jpg outputs, 1 to 100.")
    var quality = 95

    @Option(help: "The results file (default: OUTDIR/results.jsonl, or results-I.jsonl for shard I).")
    var results: String?

    @Flag(help: "Skip inputs already done with the same bytes and recipe (their output exists and the results file says so).")
    var resume = false

    @OptionGroup var read: ReadOptions

    func validate() throws {
        guard (1...1024).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 1024, got \(jobs)") }
        if let openCVThreads, !(1...1024).contains(openCVThreads) {
            throw ValidationError("--opencv-threads must be from 1 to 1024, got \(openCVThreads)")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be from 1 to 100, got \(quality)") }
        if shard != nil, shardCount != nil { throw ValidationError("give --shard I/N or --shard-count N, not both") }
        _ = try chosenShard()
    }

    /// The shard asked for; with --shard-count, its index from JOB_COMPLETION_INDEX.
    func chosenShard() throws -> BatchShard {
        if let shard {
            guard (1...ShardArgument.largestCount).contains(shard.count) else {
                throw ValidationError("--shard \(shard.index)/\(shard.count): N, the number of shards, must be from 1 to \(ShardArgument.largestCount)")
            }
            guard (0..<shard.count).contains(shard.index) else {
                throw ValidationError("--shard \(shard.index)/\(shard.count): I must be from 0 to \(shard.count - 1), as shards are counted from 0")
            }
            return BatchShard(index: shard.index, count: shard.count)
        }
        guard let shardCount else { return .whole }
        guard (1...ShardArgument.largestCount).contains(shardCount) else {
            throw ValidationError("--shard-count must be from 1 to \(ShardArgument.largestCount), got \(shardCount)")
        }
        guard let text = ProcessInfo.processInfo.environment["JOB_COMPLETION_INDEX"] else {
            throw ValidationError("--shard-count needs JOB_COMPLETION_INDEX set (a Kubernetes Indexed Job sets it); give --shard I/N otherwise")
        }
        guard let index = Int(text), (0..<shardCount).contains(index) else {
            throw ValidationError("JOB_COMPLETION_INDEX must be a whole number from 0 to \(shardCount - 1), got '\(text)'")
        }
        return BatchShard(index: index, count: shardCount)
    }

    func run() throws {
        PartialFiles.removeOnTermination()  // Ctrl-C must not leave a half-written video behind
        let shard = try chosenShard()
        let planned = BatchRecipe(recipe: try Pipeline(try recipe.recipe()).recipe, format: format, quality: quality)
        let items = try BatchInputs(inputs, format: format, outputFolder: output).items.filter(shard.contains)
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw OcularError.writeFailed(path: output, reason: "the output folder cannot be made: \(FileAccess.reason(for: error))")
        }
        let resultsPath = results ?? output + "/" + (shard.count == 1 ? "results.jsonl" : "results-\(shard.index).jsonl")
        let recorded = resume ? try BatchResultsLog.recorded(in: [resultsPath], requireEach: false) : [:]
        let earlier = Dictionary(recorded.values.map { (PathKey(BatchRunner.canonical($0.result.output)), $0.result) }) { first, _ in first }
        let log = try BatchResultsLog(path: resultsPath, fresh: !resume)
        let runner = BatchRunner(items: items, outputFolder: output, recipe: planned, images: ImageFiles(options: read.imageReadOptions),
                                 readOptions: read.imageReadOptions, jobs: jobs, openCVThreads: openCVThreads, earlier: earlier, log: log)
        let tally = try ProgressDisplay.showing("batch", total: items.count, unit: "files") { progress in
            let display = UncheckedDisplay(progress)
            return try runner.run { tally in
                display.progress.note = tally.failed == 0 ? "" : "\(tally.failed) failed"
                display.progress.advance()
            }
        }
        let shardText = shard.count == 1 ? "" : " (shard \(shard.index) of \(shard.count))"
        print("\(output): \(items.count) inputs\(shardText): \(tally.done) written, \(tally.skipped) already done, \(tally.failed) failed; results in \(resultsPath)")
        if tally.failed > 0 { throw ExitCode(Int32(min(tally.failed, 63))) }
    }
}

/// The display, reached from the workers' callback, which the runner never calls from two threads at once.
private struct UncheckedDisplay: @unchecked Sendable {
    let progress: ProgressDisplay
    init(_ progress: ProgressDisplay) { self.progress = progress }
}

extension BatchOutputFormat: ExpressibleByArgument {}

/// Which share of the inputs a run takes: `--shard I/N`, or `--shard-count N` with the index in
/// `JOB_COMPLETION_INDEX` (as a Kubernetes Indexed Job sets it in each pod).
struct ShardArgument: ExpressibleByArgument {
    let index: Int
    let count: Int

    static let largestCount = 1_000_000

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        // Any two whole numbers: their ranges are checked in chosenShard(), which says what is wrong.
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.index = index
        self.count = count
    }
}

import Crypto
import Foundation
import Ocular
import Synchronization

/// Runs a recipe over a batch's inputs on a pool of worker threads: each takes the next input,
/// reads it, runs the recipe, writes the output (atomically: an output that exists is complete) and
/// appends its line to the results log. A worker holds one picture (or one video's few frames in
/// flight) at a time, so memory stays the same whatever the number of inputs.
struct BatchRunner {
    let items: [BatchItem]
    let outputFolder: String
    let recipe: BatchRecipe
    let images: ImageFiles
    let readOptions: ImageReadOptions
    let jobs: Int
    /// Threads one OpenCV call may use; nil: the cores shared among the workers.
    let openCVThreads: Int?
    /// Earlier results by output path (``canonical(_:)``): an input whose output exists and whose line records the same
    /// input checksum and recipe hash is skipped.
    let earlier: [PathKey: RecordedResult]
    let log: BatchResultsLog
    /// The output folders made so far: FileManager reads the user and group databases each time it is
    /// asked for a folder, made or not.
    private let folders = OutputFolders()

    struct Tally {
        var done = 0
        var skipped = 0
        var failed = 0
    }

    /// - Parameter advanced: Called once per input, in whatever order the workers finish, with the
    ///   tally so far; calls never overlap.
    func run(advanced: @escaping @Sendable (Tally) -> Void) throws(BatchError) -> Tally {
        let next = Mutex(0)
        let tally = Mutex(Tally())
        let logFailure = Mutex<BatchError?>(nil)
        let recipeHash = recipe.hash
        @Sendable func count(_ status: Status) {
            tally.withLock { tally in
                switch status {
                case .done: tally.done += 1
                case .skipped: tally.skipped += 1
                case .failed: tally.failed += 1
                }
                advanced(tally)
            }
        }
        let committer = BatchCommitter(log: log) { count($0.status == .done ? .done : .failed) }
        let workers = max(1, min(jobs, items.count))
        // The workers share the cores; an OpenCV call spreading over them as well only adds hand-overs
        // (two workers on two cores: 0.8 ms of a 720p picture's cascade search went to waiting threads).
        LibraryThreads.perCall = openCVThreads ?? max(1, ProcessInfo.processInfo.activeProcessorCount / workers)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.withLock { (value: inout Int) -> Int? in
                    guard value < items.count, logFailure.withLock({ $0 == nil }), !committer.hasFailed else { return nil }
                    defer { value += 1 }
                    return value
                }
                guard let index else { return }
                let outcome = process(items[index], recipeHash: recipeHash)
                if let written = outcome.written {
                    committer.commit(written)
                    continue
                }
                do throws(BatchError) {
                    if let result = outcome.result { try log.append(result) }
                } catch {
                    logFailure.withLock { $0 = error }
                }
                count(outcome.status)
            }
        }
        try committer.finish()
        if let failure = logFailure.withLock({ $0 }) { throw failure }
        return tally.withLock { $0 }
    }

    private enum Status { case done, skipped, failed }

    private func outputPath(_ item: BatchItem) -> String {
        outputFolder + "/" + item.key
    }

    /// What became of one input: skipped, failed or done with its line, or a picture written under
    /// its partial name for the committer to put in place.
    private struct Outcome {
        var status: Status
        var result: BatchResult?
        var written: BatchCommitter.Written?
    }

    /// One input, start to end; every error becomes its failed line.
    private func process(_ item: BatchItem, recipeHash: String) -> Outcome {
        let clock = ContinuousClock(), start = clock.now
        let output = outputPath(item)
        var checksum: String?
        func line(_ status: BatchResult.Status, annotations: AnnotationGroups? = nil, frames: Int? = nil,
                  error: BatchResult.Failure? = nil) -> BatchResult {
            BatchResult(path: item.path, output: output, status: status, input: checksum, recipe: recipeHash, annotations: annotations,
                        frames: frames, error: error, milliseconds: Int((clock.now - start) / .milliseconds(1)))
        }
        if let refusal = item.refusal { return Outcome(status: .failed, result: line(.failed, error: refusal)) }
        do {
            // A video is hashed as it is read from disk, a picture from the bytes it is decoded from.
            let bytes = item.isVideo ? nil : try FileAccess.read(item.path)
            checksum = try bytes.map { SHA256.hash(data: $0).hexadecimal } ?? Self.checksum(ofFileAt: item.path)
            // Made (and swept) for an input already done too: a resumed run removes what the killed one left.
            try folders.make((output as NSString).deletingLastPathComponent)
            if isAlreadyDone(item, output: output, checksum: checksum, recipeHash: recipeHash) { return Outcome(status: .skipped) }
            // A fresh pipeline for each input: stages that follow things from frame to frame (faces)
            // must not carry one picture's findings into the next. Building one is cheap: cascades and
            // networks are loaded once per process.
            let pipeline = try Pipeline(recipe.recipe, images: images)
            guard let bytes else {
                let source = try VideoFileSource(path: item.path)
                let sink = VideoFileSink(path: output, framesPerSecond: source.frameRate)
                let frames = try pipeline.run(from: source, into: sink)
                try sink.finish()
                return Outcome(status: .done, result: line(.done, frames: frames))
            }
            let processed = try pipeline.process(Frame(image: try Image(decoding: bytes, name: item.path, options: readOptions)))
            try FileAccess.checkWritable(output)
            let encoded = try processed.image.encoded(forFile: output, quality: recipe.quality)
            let partial = PartialFiles.make(for: output)
            do {
                try FileAccess.writeNew(encoded, to: partial)
            } catch {
                PartialFiles.finished(partial)
                throw error
            }
            let result = line(.done, annotations: processed.annotationGroups(listing: pipeline.annotationKinds))
            return Outcome(status: .done, written: BatchCommitter.Written(partial: partial, output: output, result: result))
        } catch {
            let code = (error as? any CodedError)?.code.name ?? "batch.failed"
            let message = (error as? any CodedError)?.description ?? "\(error)"
            return Outcome(status: .failed, result: line(.failed, error: BatchResult.Failure(code: code, message: message)))
        }
    }

    private func isAlreadyDone(_ item: BatchItem, output: String, checksum: String?, recipeHash: String) -> Bool {
        guard let recorded = earlier[PathKey(Self.canonical(output))], recorded.status == .done,
              PathKey(Self.canonical(recorded.path)) == PathKey(Self.canonical(item.path)),
              recorded.input == checksum, recorded.recipe == recipeHash else { return false }
        return FileManager.default.fileExists(atPath: output)
    }

    /// A path as its spelling resolves (absolute, without `.`, `..`, doubled or trailing slashes): `out/`, `./out`
    /// and `/home/me/out` are one folder, and `--resume` once redid everything when `-o` was spelt another way.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// SHA-256 of a file read a megabyte at a time (videos may be larger than memory should hold).
    static func checksum(ofFileAt path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw OcularError.fileNotFound(path: path) }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hasher.finalize().hexadecimal
    }
}

/// Output folders, each made once per run, and swept then of the partial files a killed run left
/// (12–42 hidden pictures a kill, which `--resume` never removed before).
final class OutputFolders: Sendable {
    private let made = Mutex<Set<String>>([])

    func make(_ folder: String) throws(OcularError) {
        guard !made.withLock({ $0.contains(folder) }) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            // Said in words, with the code the line carries (it was Foundation's raw NSError, Code=642).
            throw .writeFailed(path: folder, reason: "the folder cannot be made: \(FileAccess.reason(for: error))")
        }
        // Only those of processes no longer running: another batch's are its own.
        PartialFiles.sweepStale(besides: folder + "/-")
        made.withLock { _ = $0.insert(folder) }
    }
}

import Crypto
import Foundation
import Ocular
import Synchronization

/// A line of `results.jsonl`: what became of one input.
struct BatchResult: Encodable, Sendable {
    enum Status: String, Codable { case done, failed }

    struct Failure: Encodable, Sendable, Equatable {
        /// The error's stable code, `image.notAnImage`.
        let code: String
        let message: String
    }

    /// The input, as the batch opened it.
    let path: String
    /// The output file (written only when `status` is done).
    let output: String
    let status: Status
    /// The SHA-256 of the input's bytes, hexadecimal: `--resume` redoes an input whose bytes changed.
    let input: String?
    /// ``BatchRecipe/hash``: `--resume` redoes every input when the recipe or the output settings changed.
    let recipe: String
    /// What the recipe's detection stages found, as `ocular apply --json` prints it (still images).
    let annotations: AnnotationGroups?
    /// How many frames went through (videos).
    let frames: Int?
    let error: Failure?
    let milliseconds: Int

    /// The same input's line when its output could not be put in place after all.
    func failed(code: String, message: String) -> BatchResult {
        BatchResult(path: path, output: output, status: .failed, input: input, recipe: recipe, annotations: nil, frames: frames,
                    error: Failure(code: code, message: message), milliseconds: milliseconds)
    }

    /// The line, without its newline: compact JSON, keys sorted.
    func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// A path compared by its bytes. Swift's `String` compares by canonical equivalence, so "café" in its two
/// Unicode forms (NFC and NFD: two files on Linux) was one key: a folder holding both was refused as "would
/// both be written", and `merge` folded their lines into one.
struct PathKey: Hashable, Sendable {
    let bytes: [UInt8]
    init(_ path: String) { bytes = Array(path.utf8) }
}

/// The fields of a results line that `--resume` and `merge` read back; the rest is kept as written.
struct RecordedResult: Decodable {
    let path: String
    let output: String
    let status: BatchResult.Status
    let input: String?
    let recipe: String
}

/// The recipe and the output settings a batch runs with, and their hash: a result recorded under
/// another hash is redone by `--resume`.
struct BatchRecipe {
    let recipe: Recipe
    let format: BatchOutputFormat
    let quality: Int

    /// SHA-256 of the recipe with every value spelled out (defaults included, keys sorted), the
    /// output format and the JPEG quality; the first 16 hexadecimal digits.
    var hash: String {
        let text = "\(recipe.json)\nformat=\(format.rawValue)\nquality=\(quality)"
        return String(SHA256.hash(data: Data(text.utf8)).hexadecimal.prefix(16))
    }
}

extension Sequence<UInt8> {
    var hexadecimal: String { map { String(format: "%02x", $0) }.joined() }
}

/// The results file of a run, appended a whole line at a time (one `write` of an `O_APPEND`
/// descriptor each), so a process killed mid-batch leaves at most its last line cut short, which
/// readers skip. One batch writes it at a time: it holds an exclusive `flock` on it for the run.
final class BatchResultsLog: Sendable {
    let path: String
    private let descriptor: Mutex<Int32>

    /// Opens `path` for appending; `fresh` empties it first (a run without `--resume`).
    /// - Throws: When it cannot be opened, or another batch is writing it (a second batch into the same
    ///   output folder once emptied the file under the first: 400 outputs, 279–312 lines).
    init(path: String, fresh: Bool) throws(BatchError) {
        // Emptied only once locked: O_TRUNC at open would empty another batch's file before the lock said no.
        let opened = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw .unwritableResults(path, reason: String(cString: strerror(errno))) }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = busy ? "another batch is writing it; give this one another output folder or --results file" : String(cString: strerror(errno))
            close(opened)
            throw .unwritableResults(path, reason: reason)
        }
        if fresh, ftruncate(opened, 0) != 0 {
            let reason = String(cString: strerror(errno))
            close(opened)
            throw .unwritableResults(path, reason: reason)
        }
        // A line cut short (by a kill, a full disk or a hand) is ended, so the next one is not glued onto it:
        // the fragment stays unreadable, and is skipped, and the next line reads whole.
        var last: UInt8 = 0
        let size = lseek(opened, 0, SEEK_END)
        if size > 0, pread(opened, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
            let failure = [UInt8(ascii: "\n")].withUnsafeBytes { FileAccess.writeAll($0, to: opened) }
            guard failure == 0 else {
                close(opened)
                throw .unwritableResults(path, reason: String(cString: strerror(failure)))
            }
        }
        self.path = path
        descriptor = Mutex(opened)
    }

    deinit {
        descriptor.withLock { _ = close($0) }
    }

    func append(_ result: BatchResult) throws(BatchError) {
        let text: String
        do {
            text = try result.line() + "\n"
        } catch {
            throw .unwritableResults(path, reason: "the line could not be encoded: \(error)")
        }
        let bytes = Array(text.utf8)
        try descriptor.withLock { (descriptor) throws(BatchError) in
            let failure = bytes.withUnsafeBytes { FileAccess.writeAll($0, to: descriptor) }
            guard failure == 0 else { throw .unwritableResults(path, reason: String(cString: strerror(failure))) }
        }
    }

    /// The last line recorded for each output in the files at `paths`, with the text it was written as:
    /// keyed by output, as one input may be sent to many (a manifest's "output"s), each its own line.
    /// Lines that do not parse (a cut-short line) are skipped; a missing file has none.
    static func recorded(in paths: [String], requireEach: Bool) throws(BatchError) -> [PathKey: (result: RecordedResult, line: String)] {
        var latest: [PathKey: (RecordedResult, String)] = [:]
        let decoder = JSONDecoder()
        for path in paths {
            let data: Data
            do {
                data = try FileAccess.read(path)
            } catch {
                if !requireEach, case .fileNotFound = error { continue }
                throw .unreadableResults(path, reason: error.description)
            }
            let lines = data.split(separator: UInt8(ascii: "\n"))
            var read = 0
            for line in lines {
                guard let result = try? decoder.decode(RecordedResult.self, from: Data(line)) else { continue }
                latest[PathKey(result.output)] = (result, String(decoding: line, as: UTF8.self))
                read += 1
            }
            // A file of which no line is a result is not a results file (merge said "0 inputs", exit 0).
            if requireEach, read == 0, !lines.isEmpty {
                throw .unreadableResults(path, reason: "none of its \(lines.count) lines is a batch's results line")
            }
        }
        return latest
    }
}

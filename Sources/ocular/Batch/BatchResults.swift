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
/// readers skip.
final class BatchResultsLog: Sendable {
    let path: String
    private let descriptor: Mutex<Int32>

    /// Opens `path` for appending; `fresh` empties it first (a run without `--resume`).
    init(path: String, fresh: Bool) throws(BatchError) {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (fresh ? O_TRUNC : 0)
        let opened = open(path, flags, 0o644)
        guard opened >= 0 else { throw .unwritableResults(path, reason: String(cString: strerror(errno))) }
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

    /// The last line recorded for each input path in the files at `paths`, with the text it was
    /// written as. Lines that do not parse (a cut-short last line) are skipped; a missing file has none.
    static func recorded(in paths: [String], requireEach: Bool) throws(BatchError) -> [String: (result: RecordedResult, line: String)] {
        var latest: [String: (RecordedResult, String)] = [:]
        let decoder = JSONDecoder()
        for path in paths {
            let data: Data
            do {
                data = try FileAccess.read(path)
            } catch {
                if !requireEach, case .fileNotFound = error { continue }
                throw .unreadableResults(path, reason: error.description)
            }
            for line in data.split(separator: UInt8(ascii: "\n")) {
                guard let result = try? decoder.decode(RecordedResult.self, from: Data(line)) else { continue }
                latest[result.path] = (result, String(decoding: line, as: UTF8.self))
            }
        }
        return latest
    }
}

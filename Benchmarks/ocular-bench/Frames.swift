// Benchmark inputs: real pictures resized to frame sizes, and JPEGs of them, made by the C++ baseline
// so that Swift, C++ and Python work on identical pixels.
import BenchBaseline
import Foundation

func makeFrame(_ path: String, width: Int, height: Int) throws -> [UInt8] {
    var error = BaselineError()
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    let made = bytes.withUnsafeMutableBufferPointer {
        baseline_make_frame(path, Int32(width), Int32(height), $0.baseAddress!, &error)
    }
    guard made else { throw BenchError(error) }
    return bytes
}

func encodeJPEG(_ bgra: [UInt8], width: Int, height: Int, quality: Int) throws -> [UInt8] {
    var error = BaselineError()
    var output = [UInt8](repeating: 0, count: width * height * 4 + 65_536)
    var count = 0
    let encoded = bgra.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer {
            baseline_encode_jpeg(input.baseAddress!, Int32(width), Int32(height), Int32(quality), $0.baseAddress!, $0.count, &count, &error)
        }
    }
    guard encoded else { throw BenchError(error) }
    return Array(output.prefix(count))
}

/// fflush(NULL) flushes every stream (naming `stdout` is not concurrency-safe in Swift 6).
func flushOutput() { fflush(nil) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ocular-bench: \(message)\n".utf8))
    exit(1)
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// The reason a C++ baseline call left in `error`, after `prefix`.
    init(_ error: BaselineError, prefix: String = "") {
        var error = error
        self.init(prefix + withUnsafeBytes(of: &error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
    }
}

/// The package's root folder, from this file's path at build time (Benchmarks/ocular-bench/main.swift).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path


// The Python cv2 column: one subprocess runs Benchmarks/python/bench_cv2.py on the same raw frames.
import Foundation
import Ocular

struct PythonReport {
    var version = "", threads = 0, parallel = "", python = ""
    var medians: [String: Double] = [:]
    var notes: [String] = []
    var problem: String?
}

func defaultPython() -> String {
    for folder in [packageRoot, FileManager.default.currentDirectoryPath] {
        let candidate = folder + "/.venv-bench/bin/python"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return "python3"
}

func runPython(_ python: String, folder: String) -> PythonReport {
    var report = PythonReport()
    let script = [packageRoot, FileManager.default.currentDirectoryPath]
        .map { $0 + "/Benchmarks/python/bench_cv2.py" }
        .first { FileManager.default.fileExists(atPath: $0) }
    guard let script else {
        report.problem = "Benchmarks/python/bench_cv2.py not found"
        return report
    }
    let process = Process()
    if python.contains("/") {
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, folder]
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script, folder]
    }
    // The allocator settings of this process (FrameMemory), for a like-for-like comparison.
    var environment = ProcessInfo.processInfo.environment
    environment["MALLOC_MMAP_THRESHOLD_"] = String(FrameMemory.keptBlockBytes)
    environment["MALLOC_TRIM_THRESHOLD_"] = String(4 * FrameMemory.keptBlockBytes)
    environment["MALLOC_TOP_PAD_"] = String(64 << 20)
    process.environment = environment
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do {
        try process.run()
    } catch {
        report.problem = "cannot run \(python): \(error.localizedDescription)"
        return report
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        report.problem = "\(python) exited with status \(process.terminationStatus): "
            + (errorText.isEmpty ? String(decoding: data, as: UTF8.self) : errorText).trimmingCharacters(in: .whitespacesAndNewlines)
        return report
    }
    if let problem = object["error"] as? String {
        report.problem = problem
        return report
    }
    report.version = object["opencv"] as? String ?? "?"
    report.threads = object["threads"] as? Int ?? 0
    report.parallel = object["parallel"] as? String ?? ""
    report.python = object["python"] as? String ?? ""
    report.notes = object["notes"] as? [String] ?? []
    for (key, value) in object["results"] as? [String: Any] ?? [:] {
        if let number = value as? NSNumber { report.medians[key] = number.doubleValue }
    }
    return report
}


/// The JSON object a script of Benchmarks/python prints when run by `python` with `arguments`; nil
/// when the script is not found, does not start, fails (no cv2, say) or prints something else.
func runPythonScript(_ python: String, _ name: String, _ arguments: [String]) -> [String: Any]? {
    let script = [packageRoot, FileManager.default.currentDirectoryPath]
        .map { $0 + "/Benchmarks/python/" + name }
        .first { FileManager.default.fileExists(atPath: $0) }
    guard let script else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, script] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}

import Foundation
import Testing

let dataRoot: String = {
    if let override = ProcessInfo.processInfo.environment["OCULAR_TEST_DATA"] { return override }
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return repository.deletingLastPathComponent().appendingPathComponent("shared/data").path
}()

/// The `ocular` executable SwiftPM built beside this test bundle.
let ocularExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ocular").path

struct Run {
    let status: Int32
    let output: String
    let errors: String
}

func ocular(_ arguments: String...) throws -> Run {
    try ocular(arguments)
}

func ocular(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ocularExecutable)
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
               errors: String(decoding: errorData, as: UTF8.self))
}

/// Runs `ocular studio` with `arguments` until it prints its address (the port is bound then, and the
/// address is the announcement's last line), gives `body` what it printed, then stops it.
func withStudio<T>(_ arguments: [String], environment: [String: String] = [:], _ body: (String) throws -> T) throws -> T {
    let studio = Process()
    studio.executableURL = URL(fileURLWithPath: ocularExecutable)
    studio.arguments = ["studio"] + arguments
    if !environment.isEmpty { studio.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let output = Pipe()
    studio.standardOutput = output
    try studio.run()
    defer { studio.terminate(); studio.waitUntilExit() }
    var printed = Data()
    while !String(decoding: printed, as: UTF8.self).contains("running at"), studio.isRunning {
        printed += output.fileHandleForReading.availableData
    }
    return try body(String(decoding: printed, as: UTF8.self))
}

final class Folder {
    let path = NSTemporaryDirectory() + "ocular-cli-" + UUID().uuidString
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    func file(_ name: String) -> String { path + "/" + name }
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A user mistake gets one clear line on stderr and a failing status, never a crash report.
func expectCleanFailure(_ run: Run, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run.status != 0, sourceLocation: sourceLocation)
    #expect(run.errors.contains(text), "stderr: \(run.errors)", sourceLocation: sourceLocation)
    #expect(!run.errors.contains("Fatal error") && !run.errors.contains("Stack dump"), sourceLocation: sourceLocation)
    #expect(run.status < 128, "killed by a signal", sourceLocation: sourceLocation)
}

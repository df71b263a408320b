import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

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

/// Runs the CLI and waits for it, holding the calling thread (one of the two cooperative threads
/// here) until it ends. That only slows the other tests of this process, which wait on children too:
/// nothing in it serves a socket in-process (the studio's in-process tests run in a process of their
/// own, `scripts/swift-tests.sh studio`), so no thread is needed while a child runs.
///
/// - Parameter deadline: For a run that once hung: killed (SIGKILL) if still running this long after it started, so
///   that the test fails (no message, status 9) instead of waiting for ever.
/// - Parameter folder: The working folder, for arguments that are relative names; the tests' own when nil.
func ocular(_ arguments: [String], environment: [String: String] = [:], in folder: String? = nil,
            killedAfter deadline: Duration? = nil) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ocularExecutable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    if let deadline {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(deadline.components.seconds))) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
               errors: String(decoding: errorData, as: UTF8.self))
}

/// Runs `ocular studio` with `arguments` until it prints its address (the port is bound then, and the
/// address is the announcement's last line), gives `body` what it printed, then stops it.
func withStudio<T>(_ arguments: [String], environment: [String: String] = [:], _ body: (String) throws -> T) throws -> T {
    let studio = try RunningStudio(arguments, environment: environment)
    defer { studio.end(with: SIGTERM) }
    return try body(studio.printed)
}

/// `ocular studio` running until `end(with:)`: started with `arguments`, and once it has printed its
/// address (the port is bound then), what it printed.
final class RunningStudio {
    let process = Process()
    /// What it printed up to its address (the announcement's last line).
    let printed: String
    /// What it wrote on stderr, read when it has ended; kept only when asked for.
    private let errors: Pipe?

    init(_ arguments: [String], environment: [String: String] = [:], keepingErrors: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: ocularExecutable)
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.arguments = ["studio"] + arguments
        let output = Pipe()
        process.standardOutput = output
        errors = keepingErrors ? Pipe() : nil
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        var printed = ""
        while !printed.contains("running at"), process.isRunning {
            printed += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        self.printed = printed
    }

    /// A studio serving `gallery` on a free loopback port.
    convenience init(gallery: String, environment: [String: String] = [:]) throws {
        try self.init(["--port", "0", "--gallery", gallery], environment: environment)
    }

    /// Its loopback address, `http://127.0.0.1:PORT`.
    var address: String {
        get throws { String(try #require(printed.firstMatch(of: /running at (http:\/\/127\.0\.0\.1:[0-9]+)\//), "\(printed)").1) }
    }

    /// What it wrote on stderr, once it has ended (with `keepingErrors`).
    var errorsWritten: String {
        errors.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) } ?? ""
    }

    /// Sends `signal` and waits for the process to end.
    func end(with signal: Int32) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { end(with: SIGKILL) }
    }

    /// curl's answer: the status, then the body.
    func request(_ arguments: [String]) throws -> (status: Int, body: String) {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-H", "Expect:", "-w", "\n%{http_code}"] + arguments
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
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

import Foundation

/// An `ffmpeg` that converts nothing: it writes its process id to `pids` and sleeps for a minute,
/// as a long conversion would, so a test can see whether the studio ends it.
public struct StandInFFmpeg: Sendable {
    /// The folder holding the executable named `ffmpeg` (to put first on PATH).
    public let folder: String
    /// The executable.
    public var path: String { folder + "/ffmpeg" }
    /// Where it writes its process id, one line per run.
    public var pids: String { folder + "/pids" }

    public init(in folder: String) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "#!/bin/sh\necho $$ >> '\(folder)/pids'\nexec sleep 60\n".write(toFile: folder + "/ffmpeg", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/ffmpeg")
    }

    /// The process ids of its runs so far.
    public var started: [Int32] {
        ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    /// Waits (up to `seconds`) until it has been started `count` times; the ids.
    public func waitForStart(count: Int = 1, seconds: Double = 20) async throws -> [Int32] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while started.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return started
    }

    /// Whether a process runs (a zombie, ended but not yet reaped, does not).
    public static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Waits (up to `seconds`) for a process to end; whether it did.
    public static func waitForEnd(_ pid: Int32, seconds: Double = 5) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while isRunning(pid), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return !isRunning(pid)
    }
}

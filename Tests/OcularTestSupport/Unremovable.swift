import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Makes the files of `folder` impossible to remove, the way a user without write permission meets
/// it: by permission for other users; as root (whom permissions do not stop), by the immutable
/// attribute, or where the file system has none, by a folder in `file`'s place.
/// - Returns: Undoes it.
public func makeUnremovable(_ folder: String, file: String) throws -> () -> Void {
    if getuid() != 0 {
        chmod(folder, 0o555)
        return { chmod(folder, 0o755) }
    }
    if runQuietly("/usr/bin/chattr", ["+i", folder]) { return { _ = runQuietly("/usr/bin/chattr", ["-i", folder]) } }
    let kept = file + ".kept"
    try FileManager.default.moveItem(atPath: file, toPath: kept)
    try FileManager.default.createDirectory(atPath: file + "/in-the-way", withIntermediateDirectories: true)
    return {
        try? FileManager.default.removeItem(atPath: file)
        try? FileManager.default.moveItem(atPath: kept, toPath: file)
    }
}

/// Runs a tool with its errors discarded; whether it succeeded.
func runQuietly(_ tool: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// Makes folders read-only for this process: by permission for other users; as root, by the
/// immutable attribute. Nil where neither can be done (root on a file system without attributes).
/// - Returns: Undoes it.
public func makeReadOnly(_ folders: [String]) -> (() -> Void)? {
    if getuid() != 0 {
        for folder in folders { chmod(folder, 0o555) }
        return { for folder in folders { chmod(folder, 0o755) } }
    }
    guard runQuietly("/usr/bin/chattr", ["+i"] + folders) else { return nil }
    return { _ = runQuietly("/usr/bin/chattr", ["-i"] + folders) }
}

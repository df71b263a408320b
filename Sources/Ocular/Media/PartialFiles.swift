import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hidden files that hold output while it is being written (`.clip.mp4.<pid>-<uuid>.partial.mp4`),
/// renamed into place when done.
///
/// A process that is interrupted must not leave them behind: ``removeOnTermination()`` removes the
/// ones still open on SIGINT or SIGTERM, and a new write sweeps those of processes that died
/// without a chance to clean up (SIGKILL, power loss).
public enum PartialFiles {
    private static let open = Mutex<Set<String>>([])
    private static let signalSources = Mutex<[any DispatchSourceSignal]>([])

    /// A fresh partial path beside `path`, registered for removal on termination.
    package static func make(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let fileExtension = (path as NSString).pathExtension
        let partial = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid())-\(UUID().uuidString).partial.\(fileExtension)"
        open.withLock { _ = $0.insert(partial) }
        return partial
    }

    /// Forgets a partial path: it was renamed into place or removed.
    package static func finished(_ partial: String) {
        open.withLock { _ = $0.remove(partial) }
    }

    /// Removes the partial files in the folder of `path` left by processes that no longer run.
    /// - Returns: The paths removed.
    @discardableResult
    package static func sweepStale(besides path: String) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return [] }
        var removed: [String] = []
        for name in names {
            // ".NAME.<pid>-<uuid>.partial.EXT", or ".NAME.<uuid>.partial.EXT" from before the pid was
            // recorded: nothing else is ever removed.
            guard let match = name.wholeMatch(of: partialName) else { continue }
            if let pid = match.output.1.flatMap({ pid_t($0) }), isRunning(pid) { continue }
            let stale = (folder.isEmpty ? "" : folder + "/") + name
            if (try? FileManager.default.removeItem(atPath: stale)) != nil { removed.append(stale) }
        }
        return removed
    }

    nonisolated(unsafe) private static let partialName =
        /\..+\.(?:([0-9]{1,10})-)?[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\.partial\.[A-Za-z0-9]+/

    /// On SIGINT or SIGTERM, removes the partial files still being written, then ends the process
    /// as the signal would have (exit status 128 + signal). Call once, early, in a command-line tool
    /// that writes files; servers that shut down gracefully should not.
    public static func removeOnTermination() {
        signalSources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)  // delivered to the dispatch source instead
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    removeOpen()
                    signal(number, SIG_DFL)
                    // To the process, not this thread: dispatch's worker threads block signals.
                    kill(getpid(), number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Removes every partial file this process still has open.
    static func removeOpen() {
        let paths = open.withLock { paths in
            defer { paths.removeAll() }
            return paths
        }
        for path in paths { unlink(path) }
    }

    private static func isRunning(_ pid: pid_t) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}

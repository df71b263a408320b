import Foundation
import Ocular
import Synchronization

/// Puts finished pictures in place behind the workers. A worker writes its output under a partial
/// name and goes on to its next input; here the partial files are flushed to the disk, renamed to
/// their names, and only then are their lines appended to the results log. So an output that exists
/// is complete, and a line that says done names an output that survives a crash of the machine.
///
/// Why behind the workers, and a few at a time: flushing is a wait on the disk, and while the file
/// system's journal commits, the workers' own writes wait too. One fsync per picture, on the worker,
/// cost 2,000 pictures at 1280 × 720 1.5 s of the kernel's time and left the two workers idle 7 % of
/// the run; a syncfs per picture behind them still 5 %. Here the files that gathered over a fifth of a
/// second are flushed together, by one syncfs.
final class BatchCommitter: Sendable {
    /// A picture written under its partial name, waiting to be put in place.
    struct Written: Sendable {
        let partial: String
        let output: String
        /// Its line, as it is appended once the picture is in place.
        let result: BatchResult
    }

    private let pending = Mutex<[Written]>([])
    private let queue = DispatchQueue(label: "ocular.batch.commits")
    private let log: BatchResultsLog
    /// Called with each line appended here, from the committing thread, in order.
    private let appended: @Sendable (BatchResult) -> Void
    private let logFailure = Mutex<BatchError?>(nil)
    /// When the last flush began.
    private let lastFlush = Mutex<ContinuousClock.Instant?>(nil)
    /// Signalled by ``finish()``: the last files are flushed at once, not after the interval.
    private let finishing = DispatchSemaphore(value: 0)
    /// The shortest time between two flushes: long enough to gather files, short enough that little
    /// is redone after a crash.
    static let flushInterval = Duration.milliseconds(200)

    init(log: BatchResultsLog, appended: @escaping @Sendable (BatchResult) -> Void) {
        self.log = log
        self.appended = appended
    }

    /// Hands over a written picture. Returns at once; the picture is put in place by the time
    /// ``finish()`` returns.
    func commit(_ written: Written) {
        pending.withLock { $0.append(written) }
        queue.async { self.commitPending() }
    }

    /// Waits until every picture handed over is in place and its line appended.
    /// - Throws: ``BatchError`` when the results log could not be written.
    func finish() throws(BatchError) {
        finishing.signal()
        queue.sync {}
        if let failure = logFailure.withLock({ $0 }) { throw failure }
    }

    /// Whether the results log has failed: the batch stops taking inputs.
    var hasFailed: Bool { logFailure.withLock { $0 != nil } }

    private func commitPending() {
        if let last = lastFlush.withLock({ $0 }), pending.withLock({ !$0.isEmpty }) {
            let wait = last + Self.flushInterval - .now
            if wait > .zero, finishing.wait(timeout: .now() + wait / .seconds(1)) == .success {
                finishing.signal()  // stays signalled for the calls still queued
            }
        }
        let batch = pending.withLock { (pending: inout [Written]) -> [Written] in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        guard !batch.isEmpty else { return }  // an earlier call took them along
        lastFlush.withLock { $0 = .now }
        let flushFailure = Self.flush(batch.map(\.partial))
        for written in batch {
            var result = written.result
            if let reason = flushFailure ?? Self.rename(written.partial, to: written.output) {
                unlink(written.partial)
                let error = OcularError.writeFailed(path: written.output, reason: reason)
                result = result.failed(code: error.code.name, message: error.description)
            }
            PartialFiles.finished(written.partial)
            do throws(BatchError) {
                try log.append(result)
            } catch {
                logFailure.withLock { $0 = $0 ?? error }
            }
            appended(result)
        }
    }

    /// Puts the partial file at its name; nil when done, or why not.
    private static func rename(_ partial: String, to output: String) -> String? {
        Foundation.rename(partial, output) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Flushes the files' data to the disk; nil when done, or why not. On Linux one syncfs of their
    /// file system flushes them all at once; elsewhere each file is flushed in turn.
    private static func flush(_ paths: [String]) -> String? {
        #if os(Linux)
        if let syncFileSystem, let first = paths.first {
            let descriptor = open(first, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return String(cString: strerror(errno)) }
            defer { close(descriptor) }
            return syncFileSystem(descriptor) == 0 ? nil : String(cString: strerror(errno))
        }
        #endif
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return String(cString: strerror(errno)) }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { return String(cString: strerror(errno)) }
        }
        return nil
    }

    #if os(Linux)
    private typealias SyncFileSystem = @convention(c) (Int32) -> Int32
    /// glibc's syncfs, looked up by name: Swift's Glibc module does not declare it.
    private static let syncFileSystem: SyncFileSystem? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs").map { unsafeBitCast($0, to: SyncFileSystem.self) }
    #endif
}

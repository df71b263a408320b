import Foundation

/// CPU-heavy test work (sweeps over hundreds of pictures) on threads of its own.
///
/// Swift Testing starts every test at once on Swift concurrency's cooperative threads, as many as
/// there are cores (two here). A sweep that held one of them for minutes starved the studio's
/// WebSocket tests: their automatic pings went unanswered, the connection was closed, and a test
/// failed with "I/O on closed channel" (seen once in three runs of `make test`). On threads of their
/// own the sweeps share the cores with the rest by the kernel's scheduling instead.
public enum HeavyWork {
    /// Runs `work` on the heavy-work threads. It stays the same task, so its task locals (the
    /// current test, which `#expect` reports to) go with it.
    public static func run<T>(isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(executor, isolation: isolation, operation: work)
    }

    static let executor = ThreadsExecutor(threads: 2)

    /// Runs `work` that mostly waits (on child processes: the CLI, a studio, FFmpeg) on threads of
    /// its own, so that its blocking calls never hold a cooperative thread the studio's in-process
    /// tests need: a kill loop waiting on its saver for half a minute starved their WebSockets too.
    public static func runWaiting<T>(isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(waitingExecutor, isolation: isolation, operation: work)
    }

    static let waitingExecutor = ThreadsExecutor(threads: 4)
}

/// A task executor serving its jobs on a fixed set of threads, first come first served.
final class ThreadsExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []  // guarded by condition

    init(threads: Int) {
        for _ in 0..<threads {
            Thread.detachNewThread { [self] in serve() }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

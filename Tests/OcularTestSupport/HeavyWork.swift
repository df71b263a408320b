import Foundation

/// Test work that mostly waits on child processes (the CLI, a studio, FFmpeg) with blocking calls, on
/// threads of its own.
///
/// Swift Testing starts every test at once on Swift concurrency's cooperative threads, as many as
/// there are cores (two here). A kill loop waiting on its saver for half a minute held one of them and
/// starved the in-process WebSocket tests' pings. (The sweeps, which did the same with CPU, now run in
/// make eval's process alone, on the cooperative threads.)
public enum HeavyWork {
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

import Foundation

/// Reads and processes a source's frames on a thread of its own, a few frames ahead of whoever takes
/// them, so that decoding and processing the next frame overlap encoding this one. On two cores this
/// is what lets `ocular process` keep ahead of the same loop in Python (whose codecs are newer):
/// decoding and blending a 480×360 Motion-JPEG frame take about 1.3 ms and encoding it 3; in turn
/// they take 4.3, side by side 3.
///
/// The source belongs to the reading thread until ``finish()`` returns.
final class FrameReadAhead: @unchecked Sendable {
    /// What the reader found: a frame, the end (nil), or the error that ended the source.
    private var buffer: [Result<Frame?, any Error>] = []
    private var stopping = false
    private var finished = false
    private let condition = NSCondition()
    private let capacity: Int

    /// Starts reading.
    /// - Parameters:
    ///   - source: Read only by the new thread from now until ``finish()``.
    ///   - limit: At most this many frames are read; nil for all.
    ///   - capacity: How many frames may wait, read but not taken.
    ///   - process: Applied to each frame on the reading thread, in order.
    init(_ source: any FrameSource, limit: Int?, capacity: Int = 2, process: @escaping @Sendable (Frame) throws -> Frame) {
        self.capacity = max(1, capacity)
        let reading = UncheckedSource(source: source)
        let thread = Thread { [self] in
            read(reading.source, limit: limit, process: process)
            condition.withLock {
                finished = true
                condition.broadcast()
            }
        }
        thread.name = "ocular.read-ahead"
        thread.start()
    }

    /// The next frame, nil at the end.
    /// - Throws: The source's error, in the order it came.
    func next() throws -> Frame? {
        let result = condition.withLock {
            while buffer.isEmpty { condition.wait() }
            let first = buffer.removeFirst()
            condition.broadcast()
            return first
        }
        return try result.get()
    }

    /// Stops reading and waits until the reading thread has let go of the source.
    func finish() {
        condition.withLock {
            stopping = true
            buffer.removeAll()
            condition.broadcast()
            while !finished { condition.wait() }
        }
    }

    private func read(_ source: any FrameSource, limit: Int?, process: (Frame) throws -> Frame) {
        var count = 0
        while true {
            let result: Result<Frame?, any Error> = (limit.map { count >= $0 } ?? false) ? .success(nil) : Result { try source.nextFrame().map(process) }
            let keepReading = condition.withLock {
                while buffer.count >= capacity, !stopping { condition.wait() }
                guard !stopping else { return false }
                buffer.append(result)
                condition.broadcast()
                return true
            }
            guard keepReading, case .success(.some) = result else { return }
            count += 1
        }
    }

    /// The source handed to the reading thread, which alone uses it until ``finish()``.
    private struct UncheckedSource: @unchecked Sendable {
        let source: any FrameSource
    }
}

/// Where processed frames go: the end of `source → pipeline → sink`. A video file, the gallery's
/// recordings (and, in the studio, a socket).
public protocol FrameSink: AnyObject {
    /// Takes one processed frame.
    /// - Parameter frame: The frame.
    /// - Throws: Why it cannot be taken.
    func write(_ frame: Frame) throws
}

/// Frames into a video file. The file is opened at the first frame, since a pipeline may change the
/// frames' size, and appears at its path only when ``finish()`` succeeds.
public final class VideoFileSink: FrameSink {
    /// Where the video is written.
    public let path: String
    /// The video's frame rate.
    public let framesPerSecond: Double
    /// The writer, made when the first frame gives the size.
    public private(set) var writer: VideoWriter?

    /// - Parameters:
    ///   - path: The video to write: `.mp4` (H.264, else MPEG-4 Part 2) or `.avi` (Motion-JPEG).
    ///   - framesPerSecond: The rate to play it at, normally the source's.
    public init(path: String, framesPerSecond: Double) {
        self.path = path
        self.framesPerSecond = framesPerSecond
    }

    /// Appends the frame to the video, opening the writer on the first frame.
    /// - Parameter frame: The frame.
    /// - Throws: ``OcularError`` when the video cannot be written.
    public func write(_ frame: Frame) throws {
        if writer == nil {
            writer = try VideoWriter(path: path, width: frame.image.width, height: frame.image.height, framesPerSecond: framesPerSecond)
        }
        try writer?.write(frame.image)
    }

    /// Closes the video and moves it into place.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when no frame was written: an empty video is not made.
    public func finish() throws(OcularError) {
        guard let writer else { throw .invalidArgument("no frame came to write into '\(path)'") }
        try writer.finish()
    }
}

/// How far a run of frames has come (the CLI's progress bars count other steps with it too).
public struct FrameRunProgress: Sendable {
    /// Frames processed so far.
    public var framesDone: Int
    /// How many there will be, when known (a video's count, or the limit asked for).
    public var frameCount: Int?
    /// Time since the run started.
    public var elapsed: Duration

    /// Creates a progress report.
    /// - Parameters:
    ///   - framesDone: Frames through so far.
    ///   - frameCount: All the frames, when known.
    ///   - elapsed: Time since the run started.
    public init(framesDone: Int, frameCount: Int?, elapsed: Duration) {
        self.framesDone = framesDone
        self.frameCount = frameCount
        self.elapsed = elapsed
    }

    /// Frames processed per second of the run so far.
    public var framesPerSecond: Double {
        let seconds = elapsed / .seconds(1)
        return seconds > 0 ? Double(framesDone) / seconds : 0
    }

    /// The time still to go at the rate so far, when the count is known.
    public var remaining: Duration? {
        guard let frameCount, framesPerSecond > 0 else { return nil }
        return .seconds(Double(max(frameCount - framesDone, 0)) / framesPerSecond)
    }
}

extension Pipeline {
    /// Runs frames from a source through the pipeline into a sink, in order, until the source ends or
    /// `limit` frames are done. Frames are read and processed a couple of frames ahead on a thread of
    /// their own, so decoding and processing overlap the sink's encoding.
    /// - Parameters:
    ///   - source: Where frames come from.
    ///   - sink: Where processed frames go.
    ///   - limit: At most this many frames; nil for all of them (a still or camera never ends: give one).
    ///   - progress: Called after every frame.
    /// - Returns: How many frames went through.
    /// - Throws: The first error of the source, a stage or the sink, naming what failed.
    @discardableResult
    public func run(from source: any FrameSource, into sink: any FrameSink, limit: Int? = nil,
                    progress: (FrameRunProgress) -> Void = { _ in }) throws -> Int {
        let clock = ContinuousClock(), start = clock.now
        let expected = [source.frameCount, limit].compactMap { $0 }.min()
        let frames = FrameReadAhead(source, limit: limit) { [self] frame in try process(frame) }
        defer { frames.finish() }
        var done = 0
        while let frame = try frames.next() {
            try sink.write(frame)
            done += 1
            progress(FrameRunProgress(framesDone: done, frameCount: expected, elapsed: clock.now - start))
        }
        return done
    }
}

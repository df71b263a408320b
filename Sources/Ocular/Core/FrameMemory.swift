internal import OpenCVBridge

/// How the process's allocator treats frame-sized blocks.
public enum FrameMemory {
    /// The largest block kept for reuse: a 3840 × 2160 BGRA frame is 31.6 MiB.
    public static let keptBlockBytes = 32 << 20

    /// Keeps freed frame-sized blocks in the process for the next frame instead of returning them to
    /// the system, which would fault each new frame in page by page (with glibc this more than
    /// doubles the cost of a 1080p blend): on the main thread's heap and on the heaps glibc gives other
    /// threads (Swift tasks, a server's threads), which it would otherwise unmap when a freed frame left
    /// one empty. Process-wide, so it is the executable's decision: `ocular` makes it at start for every
    /// command, and `ocular-bench` for its Swift, C++ and Python columns alike. Returns whether it took
    /// effect.
    /// - Returns: Whether the allocator could be told (glibc only).
    @discardableResult
    public static func keepFreedFramesForReuse() -> Bool {
        ocv_keep_freed_blocks(keptBlockBytes)
    }
}

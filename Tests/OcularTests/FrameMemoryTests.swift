#if os(Linux)
import Foundation
import Glibc
import Testing
import Ocular

/// Frames freed and allocated again must reuse memory the process already has: a frame faulted in
/// page by page costs more than most stages' work on it.
@Suite("Frame memory: freed frames are reused")
struct FrameMemoryTests {
    static let frameBytes = 1920 * 1080 * 4
    static let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Page faults taken by the calling thread so far.
    static func faultsOnThisThread() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD, which Swift's Glibc module does not import
        return usage.ru_minflt
    }

    /// On a thread of its own (with a heap of its own, as a Swift task's or a server's thread has), a
    /// 1080p frame is allocated, written and freed ten times next to a large block that leaves no room
    /// for it in the thread's first heap, so each frame is the only block of a second heap: the layout
    /// in which glibc unmapped the emptied heap and frames were faulted in again (2,025 pages each).
    @Test("a frame freed on another thread's heap is reused, not faulted in again")
    func framesReusedOnAnotherThread() throws {
        #expect(FrameMemory.keepFreedFramesForReuse())
        final class Box: @unchecked Sendable { var faults: [Int] = [] }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            // Nearly a whole heap (64 MiB) in two blocks below the 32 MiB mapped on their own.
            let filler = (0..<2).map { _ in [UInt8](repeating: 1, count: 30 << 20) }
            for _ in 0..<10 {
                let before = Self.faultsOnThisThread()
                let frame = [UInt8](repeating: 2, count: Self.frameBytes)  // every page written
                box.faults.append(Self.faultsOnThisThread() - before)
                withExtendedLifetime(frame) {}
            }
            withExtendedLifetime(filler) {}
            done.signal()
        }
        thread.start()
        done.wait()
        let pagesPerFrame = Self.frameBytes / Self.pageBytes
        // The first frame may fault its pages in; the nine after it must find them resident.
        let later = box.faults.dropFirst().reduce(0, +)
        #expect(box.faults.count == 10)
        #expect(later < pagesPerFrame / 4, "frames 2-10 took \(later) page faults (\(box.faults)); one frame is \(pagesPerFrame) pages")
    }
}
#endif

// Process-wide allocator settings for video work (see ocv_keep_freed_blocks).
#include "OpenCVBridge.h"

#include <climits>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

bool ocv_keep_freed_blocks(size_t bytes) {
#if defined(__GLIBC__)
    // At most 32 MiB (DEFAULT_MMAP_THRESHOLD_MAX on 64-bit), the most glibc's own dynamic threshold
    // reaches: a larger block would not fit twice in another thread's heap.
    const size_t threshold = bytes < (size_t{32} << 20) ? bytes : (size_t{32} << 20);
    // Threads other than the main one allocate from heaps of their own, of at most 64 MiB each (twice
    // DEFAULT_MMAP_THRESHOLD_MAX). When a freed frame leaves such a heap empty, glibc unmaps the whole
    // heap, whatever the trim threshold, and the next frame maps a new one and faults it in page by page:
    // a 1080p blend on a Swift task then took 3-4 ms instead of 0.2, in whichever modes the heap layout
    // happened to put a frame at the start of a heap. A top pad of a whole heap's size keeps every heap
    // (heap_trim keeps one that could not give back more than the pad), and costs only address space:
    // pages never touched are never resident.
    const int heapBytes = 64 << 20;
    return mallopt(M_MMAP_THRESHOLD, static_cast<int>(threshold)) == 1
        && mallopt(M_TRIM_THRESHOLD, static_cast<int>(4 * threshold)) == 1
        && mallopt(M_TOP_PAD, heapBytes) == 1;
#else
    (void)bytes;
    return false;
#endif
}

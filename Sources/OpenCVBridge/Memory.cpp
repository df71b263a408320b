// Process-wide allocator settings for video work (see ocv_keep_freed_blocks).
#include "OpenCVBridge.h"

#include <climits>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

bool ocv_keep_freed_blocks(size_t bytes) {
#if defined(__GLIBC__)
    // glibc refuses thresholds above 32 MiB on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX).
    const size_t threshold = bytes < (size_t{32} << 20) ? bytes : (size_t{32} << 20);
    return mallopt(M_MMAP_THRESHOLD, static_cast<int>(threshold)) == 1
        && mallopt(M_TRIM_THRESHOLD, static_cast<int>(4 * threshold)) == 1;
#else
    (void)bytes;
    return false;
#endif
}

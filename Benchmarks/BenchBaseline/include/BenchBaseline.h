// The C++ baseline of ocular-bench: the same OpenCV calls Ocular's bridge makes, written directly
// in C++ and timed in C++, so that Swift's overhead can be measured in the same process.
//
// Every timing function runs `iterations` iterations and writes each one's duration in nanoseconds
// to `samples` (room for `iterations` values). Each iteration does what one call of the Swift API
// does: allocate a fresh output and make the same OpenCV call(s). `checksum`, when not NULL,
// receives an FNV-1a hash of the last iteration's output, to check that both sides did the same work.
//
// No C++ exception leaves this library: failures return false with a reason in `error`.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct BaselineError {
    char message[512];
} BaselineError;

/// CV_VERSION of the OpenCV headers the baseline was compiled with, e.g. "4.6.0".
const char *_Nonnull baseline_opencv_version(void);
/// cv::getNumThreads(): the threads OpenCV's parallel loops use in this process.
int32_t baseline_opencv_threads(void);
/// The parallel framework OpenCV was built with, from its build information, e.g. "pthreads" or "TBB (ver 2021.8)".
const char *_Nonnull baseline_parallel_framework(void);

/// 64-bit FNV-1a of `count` bytes: the hash of the checksums.
uint64_t baseline_fnv1a(const uint8_t *_Nonnull bytes, size_t count);

/// Reads an image file and resizes it (INTER_AREA) to `width` × `height` tightly packed BGRA,
/// written to `bgra` (width × height × 4 bytes).
bool baseline_make_frame(const char *_Nonnull path, int32_t width, int32_t height, uint8_t *_Nonnull bgra,
                         BaselineError *_Nonnull error);

/// Encodes tightly packed BGRA pixels as a JPEG of the given quality (alpha dropped) into `output`
/// (capacity `capacity` bytes); `*count` receives the size.
bool baseline_encode_jpeg(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, int32_t quality,
                          uint8_t *_Nonnull output, size_t capacity, size_t *_Nonnull count, BaselineError *_Nonnull error);

/// cv::cvtColor(BGRA → GRAY) into a fresh matrix.
bool baseline_gray(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, int32_t iterations,
                   double *_Nonnull samples, uint64_t *_Nullable checksum, BaselineError *_Nonnull error);

/// Gray-world white balance of BGRA as Ocular does it: channel sums over the pixels xphoto's
/// GrayworldWB counts (parallel_for_ over rows), cv::mean, gains ∝ 1/sum scaled to keep the mean
/// BT.601 luma, then cv::multiply by the gains (alpha × 1) into a fresh matrix.
bool baseline_white_balance(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, float saturationThreshold,
                            int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                            BaselineError *_Nonnull error);

/// cv::multiply of BGRA by Scalar(blue, green, red, 1) into a fresh matrix.
bool baseline_tint(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, double red, double green, double blue,
                   int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                   BaselineError *_Nonnull error);

/// cv::imdecode(IMREAD_COLOR) of a JPEG, then cv::imencode(".jpg", IMWRITE_JPEG_QUALITY = quality)
/// into a fresh byte vector. The checksum covers the encoded bytes.
bool baseline_jpeg_round_trip(const uint8_t *_Nonnull jpeg, size_t count, int32_t quality, int32_t iterations,
                              double *_Nonnull samples, uint64_t *_Nullable checksum, BaselineError *_Nonnull error);

#ifdef __cplusplus
}
#endif

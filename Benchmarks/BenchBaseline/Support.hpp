// What every baseline shares: the exception fence, the argument check, views of the caller's pixels,
// output hashes and the timing loop.
#pragma once

#include "BenchBaseline.h"

#include <opencv2/core.hpp>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench_baseline {

inline void setMessage(BaselineError *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

inline void setMessage(BaselineError *error, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(error->message, sizeof error->message, format, arguments);
    va_end(arguments);
}

/// Runs `body`; every C++ exception becomes `false` and a message, none reaches Swift.
template <class Body>
bool fenced(BaselineError *error, Body &&body) noexcept {
    error->message[0] = '\0';
    try {
        return body();
    } catch (const cv::Exception &exception) {
        setMessage(error, "OpenCV: %s (in %s)", exception.err.c_str(), exception.func.c_str());
    } catch (const std::bad_alloc &) {
        setMessage(error, "out of memory");
    } catch (const std::exception &exception) {
        setMessage(error, "%s", exception.what());
    } catch (...) {
        setMessage(error, "unknown C++ exception");
    }
    return false;
}

using Clock = std::chrono::steady_clock;

inline double nanoseconds(Clock::time_point start, Clock::time_point end) {
    return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
}

inline bool checkArguments(const void *pixels, int32_t width, int32_t height, int32_t iterations, BaselineError *error) {
    if (!pixels || width <= 0 || height <= 0 || iterations <= 0) {
        setMessage(error, "bad arguments: %dx%d, %d iterations", width, height, iterations);
        return false;
    }
    return true;
}

/// A read-only matrix header over the caller's tightly packed BGRA pixels.
inline cv::Mat bgraView(const uint8_t *bgra, int32_t width, int32_t height) {
    return cv::Mat(height, width, CV_8UC4, const_cast<uint8_t *>(bgra));
}

inline uint64_t hashOutput(const cv::Mat &matrix) {
    CV_Assert(matrix.isContinuous());
    return baseline_fnv1a(matrix.data, matrix.total() * matrix.elemSize());
}

inline uint64_t hashOutput(const std::vector<uchar> &bytes) { return baseline_fnv1a(bytes.data(), bytes.size()); }

/// Times `iterations` calls of `work`, each making a fresh output that is freed inside the timing (as
/// the Swift API's result is); the last output's hash goes to `checksum` when one is asked for.
template <class Work>
void timeCalls(int32_t iterations, double *samples, uint64_t *checksum, Work &&work) {
    for (int32_t iteration = 0; iteration < iterations; ++iteration) {
        const auto start = Clock::now();
        {
            const auto output = work();
            if (checksum && iteration == iterations - 1) {
                samples[iteration] = nanoseconds(start, Clock::now());
                *checksum = hashOutput(output);
                continue;
            }
        }
        samples[iteration] = nanoseconds(start, Clock::now());
    }
}

}  // namespace bench_baseline

// For the C++ of every bridge over OpenCV: the exception fence every C function runs its body in, and
// matrix views of the caller's pixels. Not imported by Swift (see module.modulemap).
#pragma once

#include "OpenCVBridgeCore.h"

#include <opencv2/core.hpp>

#include <exception>
#include <new>
#include <string>
#include <vector>

/// Checks at compile time that a value of the C header equals OpenCV's.
#define OCULAR_SAME_VALUE(ours, openCVs) static_assert(static_cast<int>(ours) == static_cast<int>(openCVs), #ours)

namespace ocular_bridge {

/// Writes a printf-style message into `error`, cut to its size.
void setMessage(OCVError *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

/// OpenCV's assertion texts span lines ("> Invalid number of channels...\n>     'scn' is 1"): one line reads
/// better in an error message. (The failing function is named by the Swift side, which knows the operation.)
std::string oneLine(const std::string &text);

/// Runs `body`, turning every C++ exception into a status and message: nothing may unwind into Swift.
template <class Body>
OCVStatus fenced(OCVError *error, Body &&body) noexcept {
    error->message[0] = '\0';
    try {
        return body();
    } catch (const cv::Exception &exception) {
        setMessage(error, "%s", oneLine(exception.err).c_str());
        return OCV_STATUS_OPENCV_EXCEPTION;
    } catch (const std::bad_alloc &) {
        setMessage(error, "out of memory");
        return OCV_STATUS_CXX_EXCEPTION;
    } catch (const std::exception &exception) {
        setMessage(error, "%s", exception.what());
        return OCV_STATUS_CXX_EXCEPTION;
    } catch (...) {
        setMessage(error, "unknown C++ exception");
        return OCV_STATUS_CXX_EXCEPTION;
    }
}

/// A cv::Mat header over the caller's pixels: no copy, no ownership.
inline cv::Mat matrix(const OCVImage *image) {
    return cv::Mat(image->rows, image->columns, image->type, image->data, static_cast<size_t>(image->bytesPerRow));
}

/// OpenCV reallocates an output whose size or type is off, leaving the caller's buffer untouched:
/// report that instead of returning stale pixels.
inline OCVStatus checkWrittenInPlace(const cv::Mat &output, const OCVImage *destination, OCVError *error) {
    if (output.data == destination->data) return OCV_STATUS_OK;
    setMessage(error, "OpenCV produced a %dx%d matrix of type %d instead of filling the given %dx%d buffer of type %d",
               output.cols, output.rows, output.type(), destination->columns, destination->rows,
               static_cast<int>(destination->type));
    return OCV_STATUS_REALLOCATED;
}

inline OCVImage view(const cv::Mat &matrix) {
    return OCVImage{matrix.data, matrix.cols, matrix.rows, static_cast<int64_t>(matrix.step[0]),
                    static_cast<OCVMatType>(matrix.type())};
}

}  // namespace ocular_bridge

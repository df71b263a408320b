// Internal helpers shared by the bridge's translation units: exception fencing and matrix views.
#pragma once

#include "OpenCVBridge.h"

#include <opencv2/core.hpp>

#include <cstdarg>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

/// Checks at compile time that a value of the C header equals OpenCV's.
#define OCULAR_SAME_VALUE(ours, openCVs) static_assert(static_cast<int>(ours) == static_cast<int>(openCVs), #ours)

namespace ocular_bridge {

inline void setMessage(OCVError *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

inline void setMessage(OCVError *error, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(error->message, sizeof error->message, format, arguments);
    va_end(arguments);
}

/// OpenCV's assertion texts span lines ("> Invalid number of channels...\n>     'scn' is 1"): one line reads
/// better in an error message. (The failing function is named by the Swift side, which knows the operation.)
inline std::string oneLine(const std::string &text) {
    std::string line;
    bool pendingSpace = false;
    for (size_t index = 0; index < text.size(); ++index) {
        const char character = text[index];
        const bool isQuoteMarker = character == '>' && (index == 0 || text[index - 1] == '\n');
        if (character == '\n' || character == ' ' || character == '\t' || isQuoteMarker) {
            pendingSpace = !line.empty();
            continue;
        }
        if (pendingSpace) line += ' ';
        pendingSpace = false;
        line += character;
    }
    return line;
}

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

/// libjpeg-turbo compressing 8-bit BGR itself, with the settings cv::imencode gives it for a quality
/// alone: the same bytes, without OpenCV 4.6's swap of every row to RGB first (JPEG.cpp). False for
/// any other image or any failure; `encoded` is then to be ignored.
bool encodeJPEGFromBGR(const OCVImage &image, int quality, std::vector<uint8_t> &encoded);

/// A Motion-JPEG AVI being written (MotionJPEG.cpp): frames compressed by encodeJPEGFromBGR, put in
/// the container by libavformat.
struct MotionJPEGFile;
/// Creates the file. Null where this build has no libavformat or libjpeg-turbo's BGR input (`failure`
/// empty: cv::VideoWriter is the way), or when the file cannot be made (`failure` says why).
MotionJPEGFile *openMotionJPEG(const char *path, double framesPerSecond, int width, int height, int quality,
                               std::string &failure);
/// Compresses and appends one 8-bit BGR frame of the file's size; false with `failure` otherwise.
bool writeMotionJPEG(MotionJPEGFile &file, const OCVImage &frame, std::string &failure);
/// Writes the index and closes the file, then frees `file`; false when the file could not be finished.
bool finishMotionJPEG(MotionJPEGFile *file);

}  // namespace ocular_bridge

/// The opaque types of the C header.
struct OCVMatrix {
    cv::Mat matrix;
};

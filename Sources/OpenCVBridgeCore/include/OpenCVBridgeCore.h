// What every bridge of Ocular's over OpenCV shares: the status and error every call reports, the view
// of the caller's pixels every call takes, and a rectangle. OpenCVBridge, OcularAlgorithms and the
// bridges to OpenCV's other modules (cascades, networks, features, motion, samples) all take these; their
// C++ shares the exception fence and matrix views of Bridging.hpp, beside this header.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum OCVStatus {
    OCV_STATUS_OK = 0,
    OCV_STATUS_OPENCV_EXCEPTION = 1,   ///< cv::Exception; the message holds OpenCV's reason
    OCV_STATUS_BAD_ARGUMENT = 2,       ///< an argument the bridge itself rejected
    OCV_STATUS_REALLOCATED = 3,        ///< OpenCV replaced the caller's output buffer
    OCV_STATUS_DECODE_FAILED = 4,      ///< no decoder accepted the bytes
    OCV_STATUS_ENCODE_FAILED = 5,      ///< the encoder refused the image or parameters
    OCV_STATUS_OPEN_FAILED = 6,        ///< a video file or device could not be opened
    OCV_STATUS_CXX_EXCEPTION = 7,      ///< any other C++ exception (std::bad_alloc, ...)
} OCVStatus;

/// Filled with a readable reason whenever a call does not return OCV_STATUS_OK.
typedef struct OCVError {
    char message[512];
} OCVError;

/// OpenCV matrix types Ocular uses (CV_8UC1, CV_8UC2, CV_8UC3, CV_8UC4).
typedef enum OCVMatType {
    OCV_8UC1 = 0,
    OCV_8UC2 = 8,
    OCV_8UC3 = 16,
    OCV_8UC4 = 24,
} OCVMatType;

/// A view of 8-bit pixels owned by the caller; the bridge never frees it.
/// For planar YUV the view is OpenCV's: one 8UC1 matrix of 3/2 × height rows.
typedef struct OCVImage {
    void *_Nullable data;
    int32_t columns;
    int32_t rows;
    int64_t bytesPerRow;
    OCVMatType type;
} OCVImage;

/// A rectangle of whole pixels.
typedef struct OCVRectangle {
    int32_t x;
    int32_t y;
    int32_t width;
    int32_t height;
} OCVRectangle;

#ifdef __cplusplus
}
#endif

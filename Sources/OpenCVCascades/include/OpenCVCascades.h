// OpenCV's cascade classifiers (objdetect) behind the same plain C conventions as OpenCVBridge.
//
// A target of its own so that only code that detects faces links libopencv_objdetect, and with it
// dnn, calib3d, features2d and protobuf: every other process starts without them.
#pragma once

#include <OpenCVBridgeCore.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded cv::CascadeClassifier. Not safe to use from two threads at once.
typedef struct OCVCascade OCVCascade;

/// One object a cascade found, with how many neighbouring windows agreed on it.
typedef struct OCVDetection {
    int32_t x;
    int32_t y;
    int32_t width;
    int32_t height;
    int32_t neighbours;
} OCVDetection;

/// Loads a Haar or LBP cascade from an XML file. Fails with OCV_STATUS_OPEN_FAILED when OpenCV reads
/// no classifier from it.
OCVStatus ocv_cascade_load(const char *_Nonnull path, OCVCascade *_Nullable *_Nonnull cascade,
                           OCVError *_Nonnull error);

/// The size of the cascade's detection window (the smallest object it can see).
void ocv_cascade_window(const OCVCascade *_Nonnull cascade, int32_t *_Nonnull width, int32_t *_Nonnull height);

/// cv::CascadeClassifier::detectMultiScale with neighbour counts on an 8-bit gray image. Objects
/// between `minimumSize` and `maximumSize` pixels wide (0: no bound) are searched; the results stay
/// in the cascade until the next call: read them with ocv_cascade_detections.
OCVStatus ocv_cascade_detect(OCVCascade *_Nonnull cascade, const OCVImage *_Nonnull gray, double scaleFactor,
                             int32_t minimumNeighbours, int32_t minimumSize, int32_t maximumSize,
                             int32_t *_Nonnull count, OCVError *_Nonnull error);

/// Copies up to `capacity` detections of the last ocv_cascade_detect into `detections`.
void ocv_cascade_detections(const OCVCascade *_Nonnull cascade, OCVDetection *_Nonnull detections, int32_t capacity);

void ocv_cascade_release(OCVCascade *_Nullable cascade);

#ifdef __cplusplus
}
#endif

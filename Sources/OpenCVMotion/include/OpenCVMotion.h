// Motion between frames (OpenCV's video module): corners worth following and pyramidal Lucas–Kanade
// optical flow, behind the same plain C conventions as OpenCVBridge.
//
// A target of its own so that only code that follows motion links libopencv_video.
#pragma once

#include <OpenCVBridgeCore.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Up to `capacity` Shi–Tomasi corners (cv::goodFeaturesToTrack) of an 8-bit gray image inside the
/// rectangle x, y, width, height (clipped to the image), strongest first: corners whose response is
/// at least `quality` times the strongest's, `minimumDistance` pixels apart. Written as x, y pairs
/// to `points` (2 × capacity floats); `count` says how many.
OCVStatus ocv_good_features(const OCVImage *_Nonnull gray, int32_t x, int32_t y, int32_t width, int32_t height,
                            int32_t capacity, double quality, double minimumDistance, float *_Nonnull points,
                            int32_t *_Nonnull count, OCVError *_Nonnull error);

/// Follows `count` points (x, y pairs) from `previous` to `next` (8-bit gray, the same size) by
/// pyramidal Lucas–Kanade (cv::calcOpticalFlowPyrLK: a `window` × `window` window, `levels` pyramid
/// levels above the image), then back again: `found[i]` is 1 when point i was followed both ways and
/// came back within `maximumRoundTrip` pixels of where it started, and 0 otherwise (always 0 for a
/// point outside `previous` or not finite). Where it moved to is written to `moved` (2 × count
/// floats; a point not followed keeps its start there).
OCVStatus ocv_follow_points(const OCVImage *_Nonnull previous, const OCVImage *_Nonnull next, const float *_Nonnull points,
                            int32_t count, int32_t window, int32_t levels, double maximumRoundTrip,
                            float *_Nonnull moved, uint8_t *_Nonnull found, OCVError *_Nonnull error);

#ifdef __cplusplus
}
#endif

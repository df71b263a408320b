#include "OpenCVMotion.h"

// The exception fence and matrix views are OpenCVBridge's (header-only, not part of its C module).
#include "Bridging.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <cmath>
#include <vector>

using namespace ocular_bridge;

OCVStatus ocv_good_features(const OCVImage *gray, int32_t x, int32_t y, int32_t width, int32_t height, int32_t capacity,
                            double quality, double minimumDistance, float *points, int32_t *count, OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (gray->type != OCV_8UC1 || capacity < 1 || !(quality > 0 && quality < 1) || !(minimumDistance >= 0)) {
            setMessage(error, "corners are sought in an 8-bit gray image, at least one, with a quality between 0 and 1");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const cv::Mat image = matrix(gray);
        const cv::Rect region = cv::Rect(x, y, width, height) & cv::Rect(0, 0, image.cols, image.rows);
        // The corner measure needs a 3 × 3 neighbourhood: a smaller region has no corners.
        if (region.width < 3 || region.height < 3) return OCV_STATUS_OK;
        std::vector<cv::Point2f> corners;
        cv::goodFeaturesToTrack(image(region), corners, capacity, quality, minimumDistance);
        const size_t kept = std::min(corners.size(), static_cast<size_t>(capacity));
        for (size_t index = 0; index < kept; ++index) {
            points[2 * index] = corners[index].x + static_cast<float>(region.x);
            points[2 * index + 1] = corners[index].y + static_cast<float>(region.y);
        }
        *count = static_cast<int32_t>(kept);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_follow_points(const OCVImage *previous, const OCVImage *next, const float *points, int32_t count, int32_t window,
                            int32_t levels, double maximumRoundTrip, float *moved, uint8_t *found, OCVError *error) {
    return fenced(error, [&] {
        if (previous->type != OCV_8UC1 || next->type != OCV_8UC1 || previous->columns != next->columns ||
            previous->rows != next->rows) {
            setMessage(error, "points are followed between two 8-bit gray images of the same size");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        if (count < 0 || window < 3 || window > 255 || levels < 0 || levels > 8 || !(maximumRoundTrip > 0)) {
            setMessage(error, "optical flow needs a window of 3 to 255 pixels, 0 to 8 pyramid levels and a positive round-trip bound");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        for (int32_t index = 0; index < count; ++index) found[index] = 0;
        // Only points inside the image are followed: OpenCV rounds a coordinate to an int, and a NaN or
        // a huge one has no meaningful rounding.
        std::vector<cv::Point2f> start;
        std::vector<int32_t> indices;
        for (int32_t index = 0; index < count; ++index) {
            const float x = points[2 * index], y = points[2 * index + 1];
            moved[2 * index] = x;
            moved[2 * index + 1] = y;
            if (std::isfinite(x) && std::isfinite(y) && x >= 0 && y >= 0 && x < previous->columns && y < previous->rows) {
                start.emplace_back(x, y);
                indices.push_back(index);
            }
        }
        if (start.empty()) return OCV_STATUS_OK;
        std::vector<cv::Point2f> forward, backward;
        std::vector<uchar> forwardFound, backwardFound;
        std::vector<float> forwardError, backwardError;
        const cv::Size size(window, window);
        const cv::Mat before = matrix(previous), after = matrix(next);
        cv::calcOpticalFlowPyrLK(before, after, start, forward, forwardFound, forwardError, size, levels);
        // Followed back from where it landed, a point that was followed well returns to its start;
        // one that slid along an edge or onto something else does not (Kalal et al.'s forward-backward error).
        cv::calcOpticalFlowPyrLK(after, before, forward, backward, backwardFound, backwardError, size, levels);
        for (size_t kept = 0; kept < start.size(); ++kept) {
            const int32_t index = indices[kept];
            const cv::Point2f roundTrip = backward[kept] - start[kept];
            const bool followed = forwardFound[kept] && backwardFound[kept] &&
                                  std::hypot(roundTrip.x, roundTrip.y) <= maximumRoundTrip;
            found[index] = followed ? 1 : 0;
            moved[2 * index] = forward[kept].x;
            moved[2 * index + 1] = forward[kept].y;
        }
        return OCV_STATUS_OK;
    });
}

// What the steps measure of a labelled region: how nearly it is an ellipse, its box, the borders it
// shares with its neighbours.
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <utility>
#include <vector>


namespace ocular_bean_counter {

double ellipseScore(const cv::Mat &region) {
    const cv::Moments m = cv::moments(region, true);
    if (m.m00 < 5) return 0;
    const double a = m.mu20 / m.m00, b = m.mu11 / m.m00, c = m.mu02 / m.m00;
    const double common = std::sqrt(std::max(0.0, (a - c) * (a - c) / 4 + b * b));
    const double major = (a + c) / 2 + common, minor = (a + c) / 2 - common;
    if (minor <= 0) return 0;
    cv::Mat ellipse = cv::Mat::zeros(region.size(), CV_8U);
    const double degrees = 0.5 * std::atan2(2 * b, a - c) * 180 / CV_PI;
    cv::ellipse(ellipse, cv::RotatedRect(cv::Point2f(static_cast<float>(m.m10 / m.m00), static_cast<float>(m.m01 / m.m00)),
                                         cv::Size2f(static_cast<float>(4 * std::sqrt(major)), static_cast<float>(4 * std::sqrt(minor))),
                                         static_cast<float>(degrees)),
                cv::Scalar(255), cv::FILLED);
    cv::Mat inside = region != 0;
    const double both = cv::countNonZero(ellipse & inside), either = cv::countNonZero(ellipse | inside);
    return either > 0 ? both / either : 0;
}

std::vector<cv::Rect> labelBoxes(const cv::Mat &labels) {
    // Corners (left, top, right, bottom) first: a rectangle's union at every pixel cost the demo frame
    // about a millisecond.
    std::vector<cv::Vec4i> corners;
    for (int y = 0; y < labels.rows; ++y) {
        const int32_t *row = labels.ptr<int32_t>(y);
        for (int x = 0; x < labels.cols; ++x) {
            const int label = row[x];
            if (label <= 0) continue;
            if (static_cast<size_t>(label) >= corners.size()) corners.resize(label + 1, cv::Vec4i(INT_MAX, INT_MAX, -1, -1));
            cv::Vec4i &corner = corners[label];
            corner[0] = std::min(corner[0], x);
            corner[1] = std::min(corner[1], y);
            corner[2] = std::max(corner[2], x);
            corner[3] = std::max(corner[3], y);
        }
    }
    std::vector<cv::Rect> boxes(corners.size());
    for (size_t label = 0; label < corners.size(); ++label)
        if (corners[label][2] >= 0) boxes[label] = cv::Rect(corners[label][0], corners[label][1], corners[label][2] - corners[label][0] + 1, corners[label][3] - corners[label][1] + 1);
    return boxes;
}

std::map<std::pair<int, int>, int> sharedBorders(const cv::Mat &labels) {
    std::map<std::pair<int, int>, int> touching;
    for (int y = 0; y < labels.rows; ++y) {
        const int32_t *row = labels.ptr<int32_t>(y);
        const int32_t *below = y + 1 < labels.rows ? labels.ptr<int32_t>(y + 1) : nullptr;
        for (int x = 0; x < labels.cols; ++x) {
            if (row[x] <= 0) continue;
            if (x + 1 < labels.cols && row[x + 1] > 0 && row[x + 1] != row[x])
                ++touching[{std::min(row[x], row[x + 1]), std::max(row[x], row[x + 1])}];
            if (below && below[x] > 0 && below[x] != row[x]) ++touching[{std::min(row[x], below[x]), std::max(row[x], below[x])}];
        }
    }
    return touching;
}

void markEllipses(const cv::Mat &labels, double threshold, cv::Mat &marked) {
    const std::vector<cv::Rect> boxes = labelBoxes(labels);
    const cv::Rect whole(0, 0, labels.cols, labels.rows);
    for (size_t label = 1; label < boxes.size(); ++label) {
        if (boxes[label].empty()) continue;
        // A margin of 2 so the ellipse drawn round the region is not clipped by its box.
        const cv::Rect box = cv::Rect(boxes[label].x - 2, boxes[label].y - 2, boxes[label].width + 4, boxes[label].height + 4) & whole;
        const cv::Mat region = labels(box) == static_cast<int>(label);
        if (ellipseScore(region) >= threshold) marked(box).setTo(255, region);
    }
}

}  // namespace ocular_bean_counter

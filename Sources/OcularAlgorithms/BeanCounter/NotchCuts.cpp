// Notch cuts: a region whose outline has two deep notches facing each other is two objects, one
// lying over the other, cut along the line between the notches.
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>


namespace ocular_bean_counter {

// Splits objects the distance map cannot: a bean lying over a coin's edge, two beans crossed. Their
// union has no pinch inside, but its outline has two notches where one outline enters the other.
// A region filling less than `notchSolidity` of its convex hull whose outline has two notches at
// least `notchDepth` of its radius (and `notchShallowest` pixels) deep, closer to each other than
// `notchReach` times the sum of their depths, is cut along the line between them; each part is looked
// at again, at most `notchRounds` times. Parts under `notchSliver` of the region stay with it.
void cutAtNotches(cv::Mat &labels, const OcularBlobSeparationSettings &settings) {
    const double depthFraction = settings.notchDepth, solidity = settings.notchSolidity, reach = settings.notchReach,
                 sliver = settings.notchSliver;
    const int rounds = settings.notchRounds;
    int next = 0;
    double maximum = 0;
    cv::minMaxLoc(labels, nullptr, &maximum);
    next = static_cast<int>(maximum) + 1;
    // Each region is looked at inside its own rectangle: a cluttered frame has hundreds of regions,
    // and comparing the whole frame for each took longer than finding them.
    std::vector<cv::Rect> boxes(next);
    for (int y = 0; y < labels.rows; ++y) {
        const int32_t *row = labels.ptr<int32_t>(y);
        for (int x = 0; x < labels.cols; ++x) {
            const int label = row[x];
            if (label <= 0 || label >= next) continue;
            cv::Rect &box = boxes[label];
            if (box.empty()) box = cv::Rect(x, y, 1, 1);
            else box |= cv::Rect(x, y, 1, 1);
        }
    }
    std::vector<int> pending;
    for (int label = 1; label < next; ++label) if (!boxes[label].empty()) pending.push_back(label);
    std::vector<int> tries(next + 64, 0);
    while (!pending.empty()) {
        const int label = pending.back();
        pending.pop_back();
        if (label >= static_cast<int>(tries.size())) tries.resize(label + 64, 0);
        if (tries[label]++ >= rounds) continue;
        const cv::Rect box = boxes[label];
        cv::Mat inBox = labels(box);
        cv::Mat region = inBox == label;
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(region, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
        if (contours.empty()) continue;
        const auto &outline = *std::max_element(contours.begin(), contours.end(),
                                                [](const auto &a, const auto &b) { return a.size() < b.size(); });
        if (outline.size() < static_cast<size_t>(std::max(0, settings.notchShortestOutline))) continue;
        const double area = cv::contourArea(outline);
        std::vector<int> hull;
        cv::convexHull(outline, hull, false, false);
        if (hull.size() < 4) continue;
        std::vector<cv::Point> hullPoints;
        for (int index : hull) hullPoints.push_back(outline[index]);
        if (area >= solidity * cv::contourArea(hullPoints)) continue;
        std::sort(hull.begin(), hull.end());
        std::vector<cv::Vec4i> defects;
        try {
            cv::convexityDefects(outline, hull, defects);
        } catch (const cv::Exception &) {
            continue;  // a self-touching outline: leave the region whole
        }
        const double radius = std::sqrt(area / CV_PI);
        std::vector<std::pair<cv::Point, double>> notches;
        for (const auto &defect : defects) {
            const double depth = defect[3] / 256.0;
            if (depth >= std::max(settings.notchShallowest, depthFraction * radius)) notches.push_back({outline[defect[2]], depth});
        }
        if (notches.size() < 2) continue;
        // The pair of notches closest for their depths: where the two outlines cross.
        double best = 1e9;
        std::pair<cv::Point, cv::Point> cut;
        for (size_t a = 0; a < notches.size(); ++a) {
            for (size_t b = a + 1; b < notches.size(); ++b) {
                const double apart = cv::norm(notches[a].first - notches[b].first);
                const double score = apart / (notches[a].second + notches[b].second);
                if (score < best) { best = score; cut = {notches[a].first, notches[b].first}; }
            }
        }
        if (best > reach) continue;
        // Cut, and give every part but the largest a label of its own.
        cv::line(region, cut.first, cut.second, cv::Scalar(0), 2, cv::LINE_8);
        cv::Mat parts, statistics, centroids;
        const int count = cv::connectedComponentsWithStats(region, parts, statistics, centroids, 4);
        if (count < 3) continue;
        int largest = 1;
        for (int part = 2; part < count; ++part)
            if (statistics.at<int>(part, cv::CC_STAT_AREA) > statistics.at<int>(largest, cv::CC_STAT_AREA)) largest = part;
        std::vector<int> relabel(count, label);
        for (int part = 1; part < count; ++part) {
            // Slivers the line cut off stay with the region.
            if (part == largest || statistics.at<int>(part, cv::CC_STAT_AREA) < sliver * area) continue;
            relabel[part] = next++;
            // A part lies inside its region's rectangle.
            boxes.push_back(box);
        }
        for (int y = 0; y < inBox.rows; ++y) {
            int32_t *row = inBox.ptr<int32_t>(y);
            const int32_t *part = parts.ptr<int32_t>(y);
            const uint8_t *inside = region.ptr<uint8_t>(y);
            for (int x = 0; x < inBox.cols; ++x) {
                if (row[x] != label) continue;
                // Pixels on the cut line go to the region they touch first.
                if (!inside[x]) continue;
                row[x] = relabel[part[x]];
            }
        }
        pending.push_back(label);
        for (int part = 1; part < count; ++part) if (relabel[part] != label) pending.push_back(relabel[part]);
    }
}

}  // namespace ocular_bean_counter

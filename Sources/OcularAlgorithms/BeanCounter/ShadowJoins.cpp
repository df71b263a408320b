// Shadow joins: a region the table's colour, darkened, that is not an ellipse is the shadow of the
// object it shares the longest border with.
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>


namespace ocular_bean_counter {

void joinShadows(cv::Mat &labels, const cv::Mat &brightness, const cv::Mat &lean, double shadowLean, double darkest, double lightest,
                 double shadowEllipse) {
    std::vector<double> bright, leaning;
    std::vector<int> area;
    for (int y = 0; y < labels.rows; ++y) {
        const int32_t *row = labels.ptr<int32_t>(y);
        const float *b = brightness.ptr<float>(y), *l = lean.ptr<float>(y);
        for (int x = 0; x < labels.cols; ++x) {
            const int here = row[x];
            if (here <= 0) continue;
            if (static_cast<size_t>(here) >= area.size()) {
                area.resize(here + 1, 0);
                bright.resize(here + 1, 0);
                leaning.resize(here + 1, 0);
            }
            ++area[here];
            bright[here] += b[x];
            leaning[here] += l[x];
        }
    }
    // Each border under both its labels, so a label's neighbours are one range of the map.
    std::map<std::pair<int, int>, int> touching;
    for (const auto &[pair, length] : sharedBorders(labels)) {
        touching[pair] = length;
        touching[{pair.second, pair.first}] = length;
    }
    // A region as dark and grey as a shadow that is nearly an ellipse is an object (a coffee bean on
    // dark card): a shadow the seams part from its object is the crescent along its side.
    std::vector<double> ellipses(area.size(), -1);
    std::vector<cv::Rect> boxes;
    const auto shadow = [&](size_t label) {
        const double meanBrightness = bright[label] / area[label];
        if (!(leaning[label] / area[label] < shadowLean && meanBrightness >= darkest && meanBrightness <= lightest)) return false;
        if (ellipses[label] < 0) {
            if (boxes.empty()) boxes = labelBoxes(labels);
            // Its moment ellipse may reach past its rectangle (a crescent's does), so half as much again round it.
            const cv::Rect &own = boxes[label];
            const int reach = std::max(own.width, own.height) / 2;
            const cv::Rect around = cv::Rect(own.x - reach, own.y - reach, own.width + 2 * reach, own.height + 2 * reach) & cv::Rect(0, 0, labels.cols, labels.rows);
            ellipses[label] = ellipseScore(labels(around) == static_cast<int>(label));
        }
        return ellipses[label] < shadowEllipse;
    };
    std::vector<int> target(area.size(), 0);
    for (size_t label = 1; label < area.size(); ++label) {
        if (area[label] == 0 || !shadow(label)) continue;
        int best = 0, longest = 0;
        for (auto entry = touching.lower_bound({static_cast<int>(label), 0}); entry != touching.end() && entry->first.first == static_cast<int>(label); ++entry) {
            const int other = entry->first.second;
            if (!shadow(other) && entry->second > longest) {
                longest = entry->second;
                best = other;
            }
        }
        target[label] = best;
    }
    for (int y = 0; y < labels.rows; ++y) {
        int32_t *row = labels.ptr<int32_t>(y);
        for (int x = 0; x < labels.cols; ++x) if (row[x] > 0 && target[row[x]] > 0) row[x] = target[row[x]];
    }
}

}  // namespace ocular_bean_counter

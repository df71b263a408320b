// Joining neighbours into ellipses: a toonie's gold centre and its silver ring, a bean cut along its
// highlight, a sliver a split left.
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>


namespace ocular_bean_counter {

void joinIntoEllipses(cv::Mat &labels, const OcularBlobSeparationSettings &settings, double smallestSide) {
    const double smallArea = settings.smallPart * CV_PI * smallestSide * smallestSide / 4;
    std::map<std::pair<int, int>, double> unionScores;
    std::map<int, double> scores;
    const cv::Rect whole(0, 0, labels.cols, labels.rows);
    // Boxes, areas and the border each pair shares are counted once and then kept up to date as
    // regions join (a join adds areas and borders and unites boxes): counting them afresh over the
    // whole frame after every join took 130–175 ms on a cluttered 640 × 480 picture with no table.
    std::vector<cv::Rect> boxes = labelBoxes(labels);
    std::vector<int> areas(boxes.size(), 0);
    for (int y = 0; y < labels.rows; ++y) {
        const int32_t *row = labels.ptr<int32_t>(y);
        for (int x = 0; x < labels.cols; ++x) if (row[x] > 0) ++areas[row[x]];
    }
    std::map<std::pair<int, int>, int> touching = sharedBorders(labels);
    const auto scoreOf = [&](int a, int b) {
        const cv::Rect box = (b > 0 ? boxes[a] | boxes[b] : boxes[a]) & whole;
        cv::Mat inBox = labels(box), region = inBox == a;
        if (b > 0) region |= inBox == b;
        cv::Mat padded;
        cv::copyMakeBorder(region, padded, 2, 2, 2, 2, cv::BORDER_CONSTANT, cv::Scalar(0));
        return ellipseScore(padded);
    };
    while (true) {
        double best = -1;
        std::pair<int, int> join{0, 0};
        for (const auto &[pair, length] : touching) {
            if (length < 3) continue;
            auto found = unionScores.find(pair);
            const double together = found != unionScores.end() ? found->second : (unionScores[pair] = scoreOf(pair.first, pair.second));
            for (int label : {pair.first, pair.second})
                if (!scores.count(label)) scores[label] = scoreOf(label, 0);
            const bool small = std::min(areas[pair.first], areas[pair.second]) < smallArea;
            const bool ellipse = together >= settings.mergeEllipse && together >= std::max(scores[pair.first], scores[pair.second]);
            if ((small || ellipse) && together > best) {
                best = together;
                join = pair;
            }
        }
        if (best < 0) return;
        const auto [kept, gone] = join;
        cv::Mat inBox = labels(boxes[gone]);
        inBox.setTo(kept, inBox == gone);
        areas[kept] += areas[gone];
        areas[gone] = 0;
        boxes[kept] |= boxes[gone];
        boxes[gone] = cv::Rect();
        // The borders `gone` shared become `kept`'s; the one between them is inside now.
        std::vector<std::pair<int, int>> moved;
        for (auto entry = touching.begin(); entry != touching.end();) {
            const auto [first, second] = entry->first;
            if (first != gone && second != gone) {
                ++entry;
                continue;
            }
            const int other = first == gone ? second : first;
            if (other != kept) moved.push_back({other, entry->second});
            entry = touching.erase(entry);
        }
        for (const auto &[other, length] : moved) touching[{std::min(kept, other), std::max(kept, other)}] += length;
        for (auto entry = unionScores.begin(); entry != unionScores.end();) {
            const bool stale = entry->first.first == kept || entry->first.second == kept ||
                               entry->first.first == gone || entry->first.second == gone;
            entry = stale ? unionScores.erase(entry) : std::next(entry);
        }
        scores.erase(kept);
        scores.erase(gone);
    }
}

}  // namespace ocular_bean_counter

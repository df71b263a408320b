// Splitting regions by colour and by shape.
//
// The distance map parts objects that meet at a pinch. A ring of beans round a coin has none: beans
// lying along a coin's edge, the gaps between them filled, make one round region. But each object is
// nearly an ellipse (a coin seen at a slant, a bean), and neighbours differ in colour or meet along a
// dark seam. So each region is split, by colour or by its own shape, when its parts are more nearly
// ellipses than the whole or the colour changes sharply across the cut; and afterwards neighbours
// are joined when together they make an ellipse at least as well as either alone (a toonie's gold
// centre and its silver ring; a bean cut along its highlight).
#include "Separation.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>


namespace ocular_bean_counter {

namespace {

/// Parts of `region` by colour: the chromaticities (`colours`, 3 floats a pixel) in two clusters,
/// a seed at each persistent core of each cluster, flooded over the colour gradient. False when
/// fewer than two seeds stand.
bool colourParts(const cv::Mat &region, const cv::Mat &colours, const cv::Mat &gradient, const OcularBlobSeparationSettings &settings,
                 double smallestCore, cv::Mat &parts) {
    std::vector<cv::Vec3f> samples;
    for (int y = 0; y < region.rows; ++y)
        for (int x = 0; x < region.cols; ++x)
            if (region.at<uint8_t>(y, x)) samples.push_back(colours.at<cv::Vec3f>(y, x));
    if (samples.size() < 20) return false;
    cv::Mat clusters;
    {
        // k-means starts from the thread's random generator: seeded, the same frame splits the same way.
        cv::RNG &random = cv::theRNG();
        const uint64 saved = random.state;
        random.state = 0x0B1EC7;
        cv::kmeans(cv::Mat(samples).reshape(1, static_cast<int>(samples.size())), 2, clusters,
                   cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 1e-3), 2, cv::KMEANS_PP_CENTERS);
        random.state = saved;
    }
    cv::Mat cluster(region.size(), CV_8U, cv::Scalar(0));
    for (int y = 0, k = 0; y < region.rows; ++y)
        for (int x = 0; x < region.cols; ++x)
            if (region.at<uint8_t>(y, x)) cluster.at<uint8_t>(y, x) = static_cast<uint8_t>(clusters.at<int>(k++) + 1);
    parts = cv::Mat::zeros(region.size(), CV_32S);
    const cv::Mat square = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3));
    int seeds = 0;
    for (int which = 1; which <= 2; ++which) {
        cv::Mat members = cluster == which;
        cv::morphologyEx(members, members, cv::MORPH_OPEN, square);
        const cv::Mat distance = distanceInside(members);
        for (int peak : distancePeaks(distance, settings.persistence, settings.peakFloor)) {
            const int x = peak % distance.cols, y = peak / distance.cols;
            const float depth = distance.at<float>(y, x);
            if (depth < smallestCore) continue;
            cv::circle(parts, cv::Point(x, y), std::max(1, static_cast<int>(depth / 2)), cv::Scalar(++seeds), cv::FILLED);
        }
    }
    if (seeds < 2) return false;
    parts.setTo(0, region == 0);
    floodByElevation(parts, gradient, region);
    return true;
}

/// Parts of `region` by its own shape: its distance map's peaks at a lower persistence than the
/// frame's, flooded from the highest distance down.
bool shapeParts(const cv::Mat &region, const OcularBlobSeparationSettings &settings, double smallestCore, cv::Mat &parts) {
    const cv::Mat distance = distanceInside(region);
    parts = cv::Mat::zeros(region.size(), CV_32S);
    int seeds = 0;
    for (int peak : distancePeaks(distance, settings.splitPersistence, settings.splitPeakFloor)) {
        if (distance.at<float>(peak / distance.cols, peak % distance.cols) < 0.7 * smallestCore) continue;
        parts.at<int32_t>(peak / distance.cols, peak % distance.cols) = ++seeds;
    }
    if (seeds < 2) return false;
    cv::Mat depth = -distance;
    floodByElevation(parts, depth, region);
    return true;
}

/// How region `label` of `labels` (within `box`) is best split, by colour or by shape: the parts, as
/// labels 1… over `box`, where that makes it more nearly ellipses (or the colour changes sharply
/// across the cut); empty where neither does. Reads only the region's own pixels of `labels`.
cv::Mat bestSplit(const cv::Mat &labels, int label, const cv::Rect &box, const cv::Mat &colours, const cv::Mat &gradient,
                  const OcularBlobSeparationSettings &settings, double smallestCore) {
    const double smallestArea = 4 * CV_PI * smallestCore * smallestCore;
    const cv::Mat region = labels(box) == label;
    const int area = cv::countNonZero(region);
    if (area < smallestArea) return cv::Mat();
    const double before = ellipseScore(region);
    double best = -1;
    cv::Mat chosen;
    cv::Mat candidates[2];
    const bool made[2] = {colourParts(region, colours(box), gradient(box), settings, smallestCore, candidates[0]),
                          shapeParts(region, settings, smallestCore, candidates[1])};
    for (int which = 0; which < 2; ++which) {
        if (!made[which]) continue;
        const cv::Mat &parts = candidates[which];
        double maximum = 0;
        cv::minMaxLoc(parts, nullptr, &maximum);
        double weighted = 0, seam = 0;
        int present = 0, seamPixels = 0;
        for (int part = 1; part <= static_cast<int>(maximum); ++part) {
            const cv::Mat mine = parts == part;
            const int size = cv::countNonZero(mine);
            if (size == 0) continue;
            ++present;
            weighted += size * ellipseScore(mine);
        }
        if (present < 2) continue;
        weighted /= area;
        // The cut: pixels with a differently labelled neighbour to the right or below.
        for (int y = 0; y < parts.rows; ++y) {
            for (int x = 0; x < parts.cols; ++x) {
                const int32_t here = parts.at<int32_t>(y, x);
                if (here <= 0) continue;
                const bool right = x + 1 < parts.cols && parts.at<int32_t>(y, x + 1) > 0 && parts.at<int32_t>(y, x + 1) != here;
                const bool below = y + 1 < parts.rows && parts.at<int32_t>(y + 1, x) > 0 && parts.at<int32_t>(y + 1, x) != here;
                if (right || below) {
                    seam += gradient(box).at<float>(y, x);
                    ++seamPixels;
                }
            }
        }
        const double contrast = seamPixels > 0 ? seam / seamPixels : 0;
        const bool kept = weighted >= before + settings.splitMargin || contrast >= settings.strongBoundary;
        if (kept && weighted > best) {
            best = weighted;
            chosen = parts;
        }
    }
    return chosen;
}

}  // namespace

void splitRegions(cv::Mat &labels, const cv::Mat &colours, const cv::Mat &gradient, const OcularBlobSeparationSettings &settings,
                  double smallestCore) {
    std::vector<cv::Rect> boxes = labelBoxes(labels);
    int next = static_cast<int>(boxes.size());
    const cv::Rect whole(0, 0, labels.cols, labels.rows);
    const auto around = [&](int label) {
        return cv::Rect(boxes[label].x - 2, boxes[label].y - 2, boxes[label].width + 4, boxes[label].height + 4) & whole;
    };
    // Each region's first split depends on its own pixels alone, which no other region's split
    // changes: all of them are worked out side by side first (this was the separation's dearest step
    // after the coins), then applied in turn as before, the parts split again one by one.
    std::vector<cv::Mat> firstSplits(boxes.size());
    if (settings.splitDepth > 0) {
        cv::parallel_for_(cv::Range(1, std::max(1, static_cast<int>(boxes.size()))), [&](const cv::Range &labelsRange) {
            for (int label = labelsRange.start; label < labelsRange.end; ++label)
                if (!boxes[label].empty()) firstSplits[label] = bestSplit(labels, label, around(label), colours, gradient, settings, smallestCore);
        });
    }
    std::vector<std::pair<int, int>> pending;  // label, depth
    for (int label = 1; label < static_cast<int>(boxes.size()); ++label) if (!boxes[label].empty()) pending.push_back({label, 0});
    while (!pending.empty()) {
        const auto [label, depth] = pending.back();
        pending.pop_back();
        if (depth >= settings.splitDepth) continue;
        const cv::Rect box = around(label);
        cv::Mat inBox = labels(box);
        const cv::Mat chosen = depth == 0 ? firstSplits[label] : bestSplit(labels, label, box, colours, gradient, settings, smallestCore);
        if (chosen.empty()) continue;
        // The first part keeps the label; the others get new ones; each is looked at again.
        double maximum = 0;
        cv::minMaxLoc(chosen, nullptr, &maximum);
        std::vector<int> relabel(static_cast<size_t>(maximum) + 1, 0);
        bool first = true;
        for (int part = 1; part <= static_cast<int>(maximum); ++part) {
            if (cv::countNonZero(chosen == part) == 0) continue;
            relabel[part] = first ? label : next++;
            first = false;
        }
        boxes.resize(next);
        for (int y = 0; y < inBox.rows; ++y) {
            int32_t *row = inBox.ptr<int32_t>(y);
            const int32_t *part = chosen.ptr<int32_t>(y);
            for (int x = 0; x < inBox.cols; ++x) {
                if (row[x] != label || part[x] <= 0) continue;
                row[x] = relabel[part[x]];
                if (row[x] == label) continue;  // the kept label's box still holds it
                const cv::Rect pixel(box.x + x, box.y + y, 1, 1);
                cv::Rect &target = boxes[row[x]];
                target = target.empty() ? pixel : (target | pixel);
            }
        }
        for (int part = 1; part <= static_cast<int>(maximum); ++part) if (relabel[part] > 0) pending.push_back({relabel[part], depth + 1});
    }
}

void colourFeatures(const cv::Mat &ratio, const OcularBlobSeparationSettings &settings, cv::Mat &colours, cv::Mat &gradient) {
    colours = cv::Mat(ratio.size(), CV_32FC3, cv::Scalar::all(0));
    gradient = cv::Mat(ratio.size(), CV_32F, cv::Scalar(0));
    if (settings.seamGradient <= 0 && settings.splitDepth <= 0) return;
        cv::Mat smooth;
        cv::GaussianBlur(ratio, smooth, cv::Size(0, 0), settings.colourSigma);
        cv::Mat features(ratio.size(), CV_32FC4);
        cv::parallel_for_(cv::Range(0, smooth.rows), [&](const cv::Range &rows) {
            for (int y = rows.start; y < rows.end; ++y) {
                const cv::Vec3f *in = smooth.ptr<cv::Vec3f>(y);
                cv::Vec3f *chroma = colours.ptr<cv::Vec3f>(y);
                cv::Vec4f *feature = features.ptr<cv::Vec4f>(y);
                for (int x = 0; x < smooth.cols; ++x) {
                    const float brightness = std::max((in[x][0] + in[x][1] + in[x][2]) / 3, 1e-3f);
                    for (int c = 0; c < 3; ++c) chroma[x][c] = in[x][c] / brightness - 1;
                    feature[x] = cv::Vec4f(chroma[x][0], chroma[x][1], chroma[x][2],
                                           static_cast<float>(settings.brightnessWeight * std::log(brightness)));
                }
            }
        });
        cv::Mat dx, dy, magnitude;
        cv::Sobel(features, dx, CV_32F, 1, 0, 3);
        cv::Sobel(features, dy, CV_32F, 0, 1, 3);
        cv::Mat squares = dx.mul(dx) + dy.mul(dy);
        cv::transform(squares, magnitude, cv::Matx14f(1, 1, 1, 1));
        cv::sqrt(magnitude, gradient);
}

}  // namespace ocular_bean_counter

// Seeds and flooding: the peaks of a distance map that stand clear of the peak they join, and the
// watersheds that grow those seeds back over the objects (by distance, or by an elevation such as
// the colour gradient).
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>
#include <vector>


namespace ocular_bean_counter {

namespace {

// One seed per object: the peaks of the distance map that stand clear of the peak they join.
// Pixels are taken from the highest distance down, joining the regions they touch (union-find);
// when two regions meet at level L, the lower peak P is an object of its own if P − L is at least
// `persistence` × P (and a pixel and a half): two coins touching meet near 0, a bean's bumpy ridge
// meets just below its top.
//
// Distances are taken in steps of 1/16 pixel (a bucket sort: most of a cluttered frame can be
// "object", and sorting its pixels one by one took longer than everything else).
constexpr double distanceSteps = 16;

int distanceLevel(float distance) { return static_cast<int>(distance * distanceSteps); }

/// How many levels the distance map spans.
size_t levelCount(const cv::Mat &distance) {
    double largest = 0;
    cv::minMaxLoc(distance, nullptr, &largest);
    return static_cast<size_t>(distanceLevel(static_cast<float>(largest))) + 1;
}

/// The object pixels (distance above 0) in buckets by level, each bucket in index order.
std::vector<std::vector<int>> pixelsByLevel(const cv::Mat &distance) {
    const int count = distance.rows * distance.cols;
    const float *d = distance.ptr<float>(0);
    std::vector<std::vector<int>> levels(levelCount(distance));
    for (int index = 0; index < count; ++index) if (d[index] > 0) levels[distanceLevel(d[index])].push_back(index);
    return levels;
}

}  // namespace

std::vector<int> distancePeaks(const cv::Mat &distance, double persistence, double floor) {
    const int columns = distance.cols, count = distance.rows * distance.cols;
    std::vector<int> order;
    order.reserve(count);
    const float *d = distance.ptr<float>(0);
    const std::vector<std::vector<int>> levels = pixelsByLevel(distance);
    for (auto level = levels.rbegin(); level != levels.rend(); ++level) order.insert(order.end(), level->begin(), level->end());
    std::vector<int> parent(count, -1), peak(count, -1);
    const auto root = [&](int i) {
        while (parent[i] != i) { parent[i] = parent[parent[i]]; i = parent[i]; }
        return i;
    };
    std::vector<int> seeds;
    for (int index : order) {
        parent[index] = index;
        peak[index] = index;
        const int x = index % columns, y = index / columns;
        for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
                const int nx = x + dx, ny = y + dy;
                if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= columns || ny >= distance.rows) continue;
                const int neighbour = ny * columns + nx;
                if (parent[neighbour] < 0) continue;
                int a = root(index), b = root(neighbour);
                if (a == b) continue;
                if (d[peak[a]] > d[peak[b]] || (d[peak[a]] == d[peak[b]] && peak[a] < peak[b])) std::swap(a, b);
                // a holds the lower peak.
                const double height = d[peak[a]], level = d[index];
                if (height - level >= std::max(floor, persistence * height)) seeds.push_back(peak[a]);
                parent[a] = b;
            }
        }
    }
    for (int index : order) if (parent[index] == index) seeds.push_back(peak[index]);
    return seeds;
}

// Watershed by flooding on the distance map: each object pixel goes to the seed whose region
// reaches it first, taking pixels from the highest distance down, so objects part where their
// outlines pinch.
void flood(const cv::Mat &distance, const std::vector<int> &seeds, cv::Mat &labels) {
    labels = cv::Mat::zeros(distance.size(), CV_32S);
    const int columns = distance.cols;
    const float *d = distance.ptr<float>(0);
    int32_t *label = labels.ptr<int32_t>(0);
    // A queue per distance level, first in first out within one, so regions grow evenly at a level;
    // a pixel higher than the level being flooded joins that level's queue (Meyer's flooding).
    std::vector<std::vector<int>> queues(levelCount(distance));
    std::vector<size_t> heads(queues.size(), 0);
    int current = static_cast<int>(queues.size()) - 1;
    for (size_t i = 0; i < seeds.size(); ++i) {
        label[seeds[i]] = static_cast<int32_t>(i + 1);
        queues[distanceLevel(d[seeds[i]])].push_back(seeds[i]);
    }
    while (current >= 0) {
        if (heads[current] == queues[current].size()) {
            --current;
            continue;
        }
        const int index = queues[current][heads[current]++];
        const int x = index % columns, y = index / columns;
        const int offsets[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (const auto &offset : offsets) {
            const int nx = x + offset[0], ny = y + offset[1];
            if (nx < 0 || ny < 0 || nx >= columns || ny >= distance.rows) continue;
            const int neighbour = ny * columns + nx;
            if (label[neighbour] != 0 || d[neighbour] <= 0) continue;
            label[neighbour] = label[index];
            queues[std::min(current, distanceLevel(d[neighbour]))].push_back(neighbour);
        }
    }
}

void floodByElevation(cv::Mat &labels, const cv::Mat &elevationView, const cv::Mat &maskView) {
    // Pixels are addressed as y × columns + x: views into a larger frame are copied first.
    const cv::Mat elevation = elevationView.isContinuous() ? elevationView : elevationView.clone();
    const cv::Mat mask = maskView.isContinuous() ? maskView : maskView.clone();
    CV_Assert(labels.isContinuous());
    using Entry = std::tuple<float, uint64_t, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
    uint64_t order = 0;
    const int columns = labels.cols, rows = labels.rows;
    int32_t *label = labels.ptr<int32_t>(0);
    const float *height = elevation.ptr<float>(0);
    const uint8_t *inside = mask.ptr<uint8_t>(0);
    for (int index = 0; index < rows * columns; ++index)
        if (label[index] > 0) queue.emplace(height[index], order++, index);
    const int offsets[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    while (!queue.empty()) {
        const int index = std::get<2>(queue.top());
        queue.pop();
        const int x = index % columns, y = index / columns;
        for (const auto &offset : offsets) {
            const int nx = x + offset[0], ny = y + offset[1];
            if (nx < 0 || ny < 0 || nx >= columns || ny >= rows) continue;
            const int neighbour = ny * columns + nx;
            if (label[neighbour] != 0 || !inside[neighbour]) continue;
            label[neighbour] = label[index];
            queue.emplace(std::max(height[neighbour], height[index]), order++, neighbour);
        }
    }
}

cv::Mat distanceInside(const cv::Mat &part) {
    cv::Mat padded, distance;
    cv::copyMakeBorder(part, padded, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::distanceTransform(padded, distance, cv::DIST_L2, cv::DIST_MASK_5);
    return distance(cv::Rect(1, 1, part.cols, part.rows)).clone();
}

}  // namespace ocular_bean_counter

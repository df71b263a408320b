// Blob detection against a plain background, kept in one call so the half-size frame, the
// mask and the contours stay in buffers reused from frame to frame.
#include "Bridging.hpp"
#include "OcularAlgorithms.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <future>
#include <map>
#include <queue>
#include <tuple>
#include <memory>
#include <vector>

using namespace ocular_bridge;

// MARK: - Separating detection: a lit table, touching objects

namespace {

// The background's colour as a smooth surface: per channel, a quadratic in x and y (in [-1, 1]
// across the frame) and the fourth power of the distance from the frame's centre, fitted to the
// pixels that look like background. Light falling across a table is smooth, and a lens darkens a
// photo's corners about as the fourth power of the cosine of the angle off its axis, which a
// quadratic alone cannot follow: on a phone's photo of dark card the corners fell a fifth below the
// quadratic's fit and came out as objects. Objects are not smooth, and are left out of the fit as outliers.
struct BackgroundSurface {
    static constexpr int termCount = 7;
    cv::Vec<double, termCount> coefficients[3];
    // The frame's sides over its longer side: the distance from the centre is measured in the
    // frame's own proportions, so the darkening is round on a portrait photo too.
    double aspectX = 1, aspectY = 1;

    void terms(double x, double y, double *out) const {
        const double radius2 = x * x * aspectX * aspectX + y * y * aspectY * aspectY;
        out[0] = 1; out[1] = x; out[2] = y; out[3] = x * x; out[4] = x * y; out[5] = y * y; out[6] = radius2 * radius2;
    }

    double value(int channel, double x, double y) const {
        double t[termCount];
        terms(x, y, t);
        double sum = 0;
        for (int i = 0; i < termCount; ++i) sum += coefficients[channel][i] * t[i];
        return sum;
    }

    // Along the row at `y` the surface is a quartic in x with no cubic term: its coefficients of 1,
    // x, x² and x⁴.
    void row(int channel, double y, double *out) const {
        const cv::Vec<double, termCount> &k = coefficients[channel];
        const double ax2 = aspectX * aspectX, ay2 = aspectY * aspectY * y * y;
        out[0] = k[0] + k[2] * y + k[5] * y * y + k[6] * ay2 * ay2;
        out[1] = k[1] + k[4] * y;
        out[2] = k[3] + k[6] * 2 * ax2 * ay2;
        out[3] = k[6] * ax2 * ax2;
    }

    // The surface of the table: fitted from the brighter half of the pixels and from the darker
    // half, the one that more of the picture lies close to (within `surfaceClose` of its
    // brightness). The table is lighter than what lies on it when most of what stands out from it
    // is darker: most tables are, but coins on black velvet are not. (Which start won said nothing
    // of it: on a table the objects fill less than half of, both starts end on the table.)
    static BackgroundSurface fit(const cv::Mat &small, double floor, const OcularBlobSeparationSettings &settings,
                                 bool &lighterThanObjects) {
        int brighterInliers = 0, darkerInliers = 0;
        const BackgroundSurface brighter = fit(small, floor, settings, true, brighterInliers);
        const BackgroundSurface darker = fit(small, floor, settings, false, darkerInliers);
        const BackgroundSurface &table = darkerInliers <= brighterInliers ? brighter : darker;
        int darkerObjects = 0, lighterObjects = 0;
        for (int y = 0; y < small.rows; ++y) {
            for (int x = 0; x < small.cols; ++x) {
                const double fx = 2.0 * (x + 0.5) / small.cols - 1, fy = 2.0 * (y + 0.5) / small.rows - 1;
                const cv::Vec3b pixel = small.at<cv::Vec3b>(y, x);
                double model = 0, sum = 0;
                for (int c = 0; c < 3; ++c) {
                    model += table.value(c, fx, fy);
                    sum += pixel[c];
                }
                if (sum < (1 - settings.surfaceClose) * model) ++darkerObjects;
                else if (sum > (1 + settings.surfaceClose) * model) ++lighterObjects;
            }
        }
        lighterThanObjects = darkerObjects >= lighterObjects;
        return table;
    }

    // Fits the surface to a small copy of the frame, dropping pixels that stand out from the
    // previous fit: objects are outliers of the background, whatever colour they are. `close`
    // gets how many pixels lie within `surfaceClose` of the final surface.
    static BackgroundSurface fit(const cv::Mat &small, double floor, const OcularBlobSeparationSettings &settings, bool startBrighter,
                                 int &close) {
        const double outliers = settings.surfaceOutliers;
        const int n = small.rows * small.cols;
        constexpr int T = termCount;
        BackgroundSurface surface{};
        surface.aspectX = static_cast<double>(small.cols) / std::max(small.cols, small.rows);
        surface.aspectY = static_cast<double>(small.rows) / std::max(small.cols, small.rows);
        cv::Mat design(n, T, CV_64F), values(n, 3, CV_64F);
        for (int y = 0; y < small.rows; ++y) {
            for (int x = 0; x < small.cols; ++x) {
                const int row = y * small.cols + x;
                surface.terms(2.0 * (x + 0.5) / small.cols - 1, 2.0 * (y + 0.5) / small.rows - 1, design.ptr<double>(row));
                const cv::Vec3b pixel = small.at<cv::Vec3b>(y, x);
                for (int c = 0; c < 3; ++c) values.at<double>(row, c) = pixel[c];
            }
        }
        // The first fit is to the brighter (or darker) half by each pixel's sum: a start inside the
        // background converges in a few rounds.
        std::vector<double> sums(n);
        for (int row = 0; row < n; ++row) sums[row] = values.at<double>(row, 0) + values.at<double>(row, 1) + values.at<double>(row, 2);
        std::vector<double> sorted = sums;
        std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.end());
        const double median = sorted[n / 2];
        std::vector<uint8_t> inlier(n);
        for (int row = 0; row < n; ++row) inlier[row] = startBrighter ? sums[row] >= median : sums[row] <= median;
        close = 0;
        for (int round = 0; round < settings.surfaceRounds; ++round) {
            int count = 0;
            for (int row = 0; row < n; ++row) count += inlier[row];
            if (count < settings.surfaceLeastPixels) break;
            // Least squares by the normal equations: seven unknowns whose terms lie in [-1, 1] are well
            // conditioned, and a 7×7 solve is a hundredth of an SVD of the thousands of inliers.
            cv::Matx<double, T, T> normal = cv::Matx<double, T, T>::zeros();
            cv::Matx<double, T, 3> moments = cv::Matx<double, T, 3>::zeros();
            for (int row = 0; row < n; ++row) {
                if (!inlier[row]) continue;
                const double *t = design.ptr<double>(row), *v = values.ptr<double>(row);
                for (int i = 0; i < T; ++i) {
                    for (int j = i; j < T; ++j) normal(i, j) += t[i] * t[j];
                    for (int c = 0; c < 3; ++c) moments(i, c) += t[i] * v[c];
                }
            }
            for (int i = 0; i < T; ++i)
                for (int j = 0; j < i; ++j) normal(i, j) = normal(j, i);
            cv::Mat solution;
            if (!cv::solve(cv::Mat(normal), cv::Mat(moments), solution, cv::DECOMP_CHOLESKY))
                cv::solve(cv::Mat(normal), cv::Mat(moments), solution, cv::DECOMP_SVD);
            for (int c = 0; c < 3; ++c)
                for (int i = 0; i < T; ++i) surface.coefficients[c][i] = solution.at<double>(i, c);
            // Residuals relative to the background's brightness; a pixel stays in when it is within
            // `outliers` median residuals (and at least `floor`) of the surface.
            std::vector<double> residuals(n);
            for (int row = 0; row < n; ++row) {
                const double *t = design.ptr<double>(row);
                double worst = 0;
                for (int c = 0; c < 3; ++c) {
                    double model = 0;
                    for (int i = 0; i < T; ++i) model += surface.coefficients[c][i] * t[i];
                    worst = std::max(worst, std::abs(values.at<double>(row, c) - model) / std::max(model, settings.surfaceDarkest));
                }
                residuals[row] = worst;
            }
            std::vector<double> inside;
            for (int row = 0; row < n; ++row) if (inlier[row]) inside.push_back(residuals[row]);
            std::nth_element(inside.begin(), inside.begin() + inside.size() / 2, inside.end());
            const double limit = std::max(floor, outliers * inside[inside.size() / 2]);
            for (int row = 0; row < n; ++row) inlier[row] = residuals[row] <= limit;
            close = static_cast<int>(std::count_if(residuals.begin(), residuals.end(),
                                                   [&](double residual) { return residual <= settings.surfaceClose; }));
        }
        return surface;
    }
};

} // namespace

struct BlobSeparation {
    cv::Mat bgr;          // the frame as 8-bit BGR, when it came otherwise
    cv::Mat working;      // the frame shrunk to the working size (never a view of the frame)
    cv::Mat small;        // shrunk further, for fitting the background
    cv::Mat objects;      // 255 where an object is, at the working size
    cv::Mat carved;       // the objects with their seams taken out
    cv::Mat whole;        // 255 over regions parted by their outline alone that are ellipses: never cut at seams
    cv::Mat distance;     // distance of each object pixel to the background (or a seam)
    cv::Mat labels;       // 1… per separated object, 0 for background
    cv::Mat brightness;   // each working pixel's brightness as a fraction of the table's under it
    cv::Mat lean;         // how far its colour leans from the table's
    cv::Mat ratio;        // its colour divided by the table's, per channel
    BackgroundSurface background;
    double scale = 1;     // working size / frame size
    std::vector<int> rectangleLabels;
};

struct OcularBlobFinder {
    cv::Mat resized;
    cv::Mat mask;
    cv::Mat edges;
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Rect> rectangles;
    // The separating detection's buffers, made on its first use.
    std::unique_ptr<BlobSeparation> separation;
};

OCVStatus ocular_blob_finder_create(OcularBlobFinder **finder, OCVError *error) {
    *finder = nullptr;
    return fenced(error, [&] {
        *finder = new OcularBlobFinder();
        return OCV_STATUS_OK;
    });
}

void ocular_blob_finder_release(OcularBlobFinder *finder) { delete finder; }

OCVStatus ocular_blob_finder_find(OcularBlobFinder *finder, const OCVImage *image, const OcularBlobSettings *settings,
                               int32_t *count, OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (!(settings->scale > 0 && settings->scale <= 1)) {
            setMessage(error, "the working scale must lie in (0, 1], got %g", settings->scale);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const cv::Mat frame = matrix(image);
        const double scale = settings->scale;
        const cv::Mat *working = &frame;
        if (scale != 1) {
            // At least one pixel each way: a tiny frame has no blobs rather than no mask.
            const cv::Size size(std::max(1, cvRound(frame.cols * scale)), std::max(1, cvRound(frame.rows * scale)));
            cv::resize(frame, finder->resized, size, 0, 0, cv::INTER_AREA);
            working = &finder->resized;
        }
        // The background is whatever lies within `deviations` standard deviations of the mean colour.
        cv::Scalar mean, deviation;
        cv::meanStdDev(*working, mean, deviation);
        const cv::Scalar halfRange = deviation * settings->deviations;
        cv::inRange(*working, mean - halfRange, mean + halfRange, finder->mask);
        // Eroding the background merges an object's speckles (a bean's streaks) into one blob.
        const int kernelSide = static_cast<int>(std::min(working->cols, working->rows) * settings->erosionFraction);
        if (kernelSide > 0 && settings->erosionIterations > 0) {
            const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(kernelSide, kernelSide));
            cv::erode(finder->mask, finder->mask, kernel, cv::Point(-1, -1), settings->erosionIterations);
        }
        cv::Canny(finder->mask, finder->edges, settings->cannyLow, settings->cannyHigh);
        finder->contours.clear();
        cv::findContours(finder->edges, finder->contours, cv::RETR_TREE, cv::CHAIN_APPROX_SIMPLE);
        // The smallest blob is measured on the full frame, as the textbook does.
        const int smallest = static_cast<int>(std::min(frame.cols, frame.rows) * settings->minimumFraction);
        const cv::Rect whole(0, 0, frame.cols, frame.rows);
        finder->rectangles.clear();
        for (const auto &contour : finder->contours) {
            const cv::Rect found = cv::boundingRect(contour);
            const cv::Rect full = cv::Rect(static_cast<int>(found.x / scale), static_cast<int>(found.y / scale),
                                           static_cast<int>(found.width / scale), static_cast<int>(found.height / scale)) &
                                  whole;
            if (full.width < smallest || full.height < smallest) continue;
            finder->rectangles.push_back(full);
        }
        *count = static_cast<int32_t>(finder->rectangles.size());
        return OCV_STATUS_OK;
    });
}

void ocular_blob_finder_rectangles(const OcularBlobFinder *finder, OCVRectangle *rectangles, int32_t capacity) {
    const size_t count = std::min(finder->rectangles.size(), static_cast<size_t>(std::max(capacity, 0)));
    for (size_t index = 0; index < count; ++index) {
        const cv::Rect &found = finder->rectangles[index];
        rectangles[index] = OCVRectangle{found.x, found.y, found.width, found.height};
    }
}

OCVImage ocular_blob_finder_mask(const OcularBlobFinder *finder) {
    const cv::Mat &mask = finder->mask;
    return OCVImage{mask.data, mask.cols, mask.rows, static_cast<int64_t>(mask.step), OCV_8UC1};
}

// MARK: - Separating detection: the rest

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

// MARK: Splitting by colour and shape, joining into ellipses
//
// The distance map parts objects that meet at a pinch. A ring of beans round a coin has none: beans
// lying along a coin's edge, the gaps between them filled, make one round region. But each object is
// nearly an ellipse (a coin seen at a slant, a bean), and neighbours differ in colour or meet along a
// dark seam. So each region is split, by colour or by its own shape, when its parts are more nearly
// ellipses than the whole or the colour changes sharply across the cut; and afterwards neighbours
// are joined when together they make an ellipse at least as well as either alone (a toonie's gold
// centre and its silver ring; a bean cut along its highlight).

/// How nearly a region (8-bit, nonzero inside) is an ellipse: its intersection over union with the
/// ellipse of the same second moments; 0 for a region too small to say.
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

/// Grows the labelled seeds of `labels` (int32, 0 unlabelled) over the nonzero pixels of `mask`,
/// lowest `elevation` first (a watershed by flooding, ties in order of arrival).
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

/// The distance transform of a part, the frame's edge not counted as background.
cv::Mat distanceInside(const cv::Mat &part) {
    cv::Mat padded, distance;
    cv::copyMakeBorder(part, padded, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::distanceTransform(padded, distance, cv::DIST_L2, cv::DIST_MASK_5);
    return distance(cv::Rect(1, 1, part.cols, part.rows)).clone();
}

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

/// The bounding box of each label of `labels` (index = label; empty for none).
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

/// Splits each region of `labels` by colour or shape where that makes it more nearly ellipses (or
/// the colour changes sharply across the cut), again on each part, `splitDepth` times at most.
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

/// How many pixel pairs (right and below neighbours) each pair of labels of `labels` shares, keyed
/// by the smaller label first.
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

/// Joins neighbouring regions that together make an ellipse (IoU ≥ `mergeEllipse`) at least as well
/// as the better of the two alone, best first; a part too small to be an object (under `smallPart`
/// times the area of a disc as wide as the smallest blob) joins the neighbour with which it makes the
/// best ellipse.
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

// MARK: Seams and filled gaps

/// The distance a seam pixel is given: above 0, so it is flooded, and in the lowest level, so last.
constexpr float seamDistance = 0.01f;

/// Sets `marked` (8-bit, zero) to 255 over each region of `labels` that is an ellipse at least
/// `threshold` well (``ellipseScore``).
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

/// `objects` with its seams taken out: the pixels whose colour gradient reaches `threshold`, outside
/// `uncut`, when the seam they lie on reaches the table. A seam enclosed by one object (a pinto bean's
/// speckle) stays in it: objects that touch meet along seams that run out to the table. All of
/// `objects` when `threshold` is 0.
void cutAtSeams(const cv::Mat &objects, const cv::Mat &gradient, double threshold, const cv::Mat &uncut, cv::Mat &carved) {
    objects.copyTo(carved);
    if (threshold <= 0) return;
    carved.setTo(0, (gradient >= threshold) & (uncut == 0));
    cv::Mat pieces;
    const int count = cv::connectedComponents(carved == 0, pieces, 8, CV_32S);
    std::vector<uint8_t> reachesTable(count, 0);
    for (int y = 0; y < pieces.rows; ++y) {
        const int32_t *piece = pieces.ptr<int32_t>(y);
        const uint8_t *object = objects.ptr<uint8_t>(y);
        for (int x = 0; x < pieces.cols; ++x) if (!object[x]) reachesTable[piece[x]] = 1;
    }
    for (int y = 0; y < pieces.rows; ++y) {
        const int32_t *piece = pieces.ptr<int32_t>(y);
        const uint8_t *object = objects.ptr<uint8_t>(y);
        uint8_t *kept = carved.ptr<uint8_t>(y);
        for (int x = 0; x < pieces.cols; ++x) if (object[x] && !reachesTable[piece[x]]) kept[x] = 255;
    }
}

/// Unlabels each region of `labels` more than `share` of whose pixels were not marked as object
/// themselves (`marked` 0) but filled in as a hole.
void dropFilled(cv::Mat &labels, const cv::Mat &marked, double share) {
    std::vector<int> filled, all;
    for (int y = 0; y < labels.rows; ++y) {
        const int32_t *row = labels.ptr<int32_t>(y);
        const uint8_t *mark = marked.ptr<uint8_t>(y);
        for (int x = 0; x < labels.cols; ++x) {
            if (row[x] <= 0) continue;
            if (static_cast<size_t>(row[x]) >= all.size()) {
                all.resize(row[x] + 1, 0);
                filled.resize(row[x] + 1, 0);
            }
            ++all[row[x]];
            if (!mark[x]) ++filled[row[x]];
        }
    }
    for (int y = 0; y < labels.rows; ++y) {
        int32_t *row = labels.ptr<int32_t>(y);
        for (int x = 0; x < labels.cols; ++x) if (row[x] > 0 && filled[row[x]] > share * all[row[x]]) row[x] = 0;
    }
}

/// Joins each region of `labels` whose mean colour leans from the table's by less than `shadowLean`
/// and whose mean brightness against the table's lies between `darkest` and `lightest` (a shadow: the
/// table's colour, darkened), unless it is an ellipse at least `shadowEllipse` well, to the neighbour
/// it shares the longest border with; a region with no neighbour stays.
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

/// Keeps the outer outlines of `mask` whose rectangle reaches `smallestSide` on some side, filled
/// (holes close); the rest goes. `contours` is scratch kept from frame to frame.
void keepLarge(cv::Mat &mask, double smallestSide, std::vector<std::vector<cv::Point>> &contours) {
    contours.clear();
    cv::findContours(mask, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
    mask.setTo(0);
    for (size_t index = 0; index < contours.size(); ++index) {
        const cv::Rect bounds = cv::boundingRect(contours[index]);
        if (bounds.width < smallestSide && bounds.height < smallestSide) continue;
        cv::drawContours(mask, contours, static_cast<int>(index), cv::Scalar(255), cv::FILLED);
    }
}

/// Adds each coin to `labels` as an object of its own: the object's pixels within its carved disc,
/// and the regions beside it that lie wholly within reach of its centre, its rim or shadow left where
/// the circle fell a little inside the coin or the coin is seen at a slant. `labels` and `objects` are
/// the part of the frame from `origin` on; the coins are in the frame.
void giveCoinsTheirPixels(cv::Mat &labels, const cv::Mat &objects, const std::vector<cv::Vec3f> &coins, cv::Point origin,
                          const OcularBlobSeparationSettings &settings) {
    const std::vector<cv::Rect> boxes = labelBoxes(labels);
    const int highest = static_cast<int>(boxes.size()) - 1;
    int next = std::max(highest, 0);
    cv::Mat disc(labels.size(), CV_8U);
    for (const cv::Vec3f &coin : coins) {
        const int own = ++next;
        // Rounded in the frame, then moved: cvRound takes halves to even, and circles found at half
        // size are centred on halves.
        const cv::Point centre = cv::Point(cvRound(coin[0]), cvRound(coin[1])) - origin;
        const int carved = cvRound(coin[2] * settings.coinCarve) + 1;
        // The regions met just outside the carved disc.
        std::vector<int> beside;
        const int steps = std::max(16, static_cast<int>(8 * coin[2]));
        for (int step = 0; step < steps; ++step) {
            const double angle = 2 * CV_PI * step / steps;
            const int x = cvRound(centre.x + (carved + 2) * std::cos(angle)), y = cvRound(centre.y + (carved + 2) * std::sin(angle));
            if (x < 0 || y < 0 || x >= labels.cols || y >= labels.rows) continue;
            const int label = labels.at<int32_t>(y, x);
            if (label > 0 && label <= highest && std::find(beside.begin(), beside.end(), label) == beside.end())
                beside.push_back(label);
        }
        // A region beside it that lies wholly within reach of its centre is its rim or shadow.
        const double reach = settings.coinCrescentReach * coin[2];
        std::vector<int> rims;
        for (int label : beside) {
            const cv::Rect &box = boxes[label];
            bool near = true;
            for (int y = box.y; y < box.y + box.height && near; ++y) {
                const int32_t *row = labels.ptr<int32_t>(y);
                for (int x = box.x; x < box.x + box.width; ++x)
                    if (row[x] == label && std::hypot(x + origin.x - coin[0], y + origin.y - coin[1]) > reach) { near = false; break; }
            }
            if (near) rims.push_back(label);
        }
        disc.setTo(0);
        cv::circle(disc, centre, carved, cv::Scalar(255), cv::FILLED);
        labels.setTo(own, disc & objects & (labels == 0));
        for (int label : rims) {
            cv::Mat region = labels(boxes[label]);
            region.setTo(own, region == label);
        }
    }
}

/// How much of a circle's outline the object it lies in goes on across, sampled at 72 angles just
/// outside the outline ((1 + rim) × radius) where there is object: `sameColour`, the share where the
/// smoothed colour there is much the colour just inside ((1 − rim) × radius); `edgeless`, the share
/// where no edge crosses the outline (the colour gradient stays below `coinEdgeContrast` between
/// (1 ∓ rim / 1.5) × radius). A coin ends at its outline, and what touches it meets it at an edge
/// along a short arc; a circle fitted to a bean's end has the rest of the bean beyond it, shaded on
/// without an edge, across about half its outline.
struct Continuation { double sameColour = 0, edgeless = 0; };

/// The colour gradient's magnitude at one pixel of an 8-bit BGR picture: the strongest channel's,
/// by Sobel's 3×3 kernels (as cv::Sobel would give there), the picture's edge repeated outward.
float colourGradient(const cv::Mat &picture, cv::Point at) {
    const auto pixel = [&](int dx, int dy) {
        return picture.at<cv::Vec3b>(std::clamp(at.y + dy, 0, picture.rows - 1), std::clamp(at.x + dx, 0, picture.cols - 1));
    };
    float strongest = 0;
    for (int c = 0; c < 3; ++c) {
        const int gx = pixel(1, -1)[c] + 2 * pixel(1, 0)[c] + pixel(1, 1)[c] - pixel(-1, -1)[c] - 2 * pixel(-1, 0)[c] - pixel(-1, 1)[c];
        const int gy = pixel(-1, 1)[c] + 2 * pixel(0, 1)[c] + pixel(1, 1)[c] - pixel(-1, -1)[c] - 2 * pixel(0, -1)[c] - pixel(1, -1)[c];
        strongest = std::max(strongest, std::sqrt(static_cast<float>(gx * gx + gy * gy)));
    }
    return strongest;
}

Continuation continuation(const cv::Mat &smooth, const cv::Mat &blurred, const cv::Mat &objects, const cv::Vec3f &circle,
                          const OcularBlobSeparationSettings &settings) {
    const int angles = settings.coinOutlineSamples, radii = settings.coinRimSamples;
    int same = 0, edgeless = 0;
    const auto at = [&](double angle, double radius) {
        const int x = std::clamp(cvRound(circle[0] + radius * std::cos(angle)), 0, smooth.cols - 1);
        const int y = std::clamp(cvRound(circle[1] + radius * std::sin(angle)), 0, smooth.rows - 1);
        return cv::Point(x, y);
    };
    for (int step = 0; step < angles; ++step) {
        const double angle = 2 * CV_PI * step / angles;
        const cv::Point inner = at(angle, (1 - settings.coinRim) * circle[2]), outer = at(angle, (1 + settings.coinRim) * circle[2]);
        if (objects.at<uint8_t>(outer) == 0) continue;
        const cv::Vec3f a = cv::Vec3f(smooth.at<cv::Vec3b>(inner)) + cv::Vec3f::all(1), b = cv::Vec3f(smooth.at<cv::Vec3b>(outer)) + cv::Vec3f::all(1);
        const float sumA = a[0] + a[1] + a[2], sumB = b[0] + b[1] + b[2];
        float chroma = 0;
        for (int c = 0; c < 3; ++c) chroma = std::max(chroma, std::abs(a[c] / sumA - b[c] / sumB));
        if (chroma < settings.coinSameChroma && std::abs(std::log(sumA / sumB)) < settings.coinSameBrightness) ++same;
        float strongest = 0;
        for (int k = 0; k < radii; ++k) {
            const double fraction = 1 - settings.coinRim / 1.5 + 2 * settings.coinRim / 1.5 * k / (radii - 1);
            strongest = std::max(strongest, colourGradient(blurred, at(angle, fraction * circle[2])));
        }
        if (strongest < settings.coinEdgeContrast) ++edgeless;
    }
    return {static_cast<double>(same) / angles, static_cast<double>(edgeless) / angles};
}

/// Circles of radius `smallest` to `largest` (working pixels) in `gray` (the working frame's) made
/// `scale` times the size and smoothed by a Gaussian of 1 pixel there: HOUGH_GRADIENT_ALT with the
/// settings' dp and least distance between centres. In working coordinates.
std::vector<cv::Vec3f> circlesIn(const cv::Mat &gray, double scale, double smallest, double largest, const OcularBlobSeparationSettings &settings) {
    std::vector<cv::Vec3f> circles;
    const int from = std::max(1, static_cast<int>(smallest * scale)), to = static_cast<int>(std::ceil(largest * scale));
    if (to <= from) return circles;
    cv::Mat smooth;
    if (scale < 1) cv::resize(gray, smooth, cv::Size(std::max(1, cvRound(gray.cols * scale)), std::max(1, cvRound(gray.rows * scale))), 0, 0, cv::INTER_AREA);
    cv::GaussianBlur(scale < 1 ? smooth : gray, smooth, cv::Size(0, 0), 1.0);
    cv::HoughCircles(smooth, circles, cv::HOUGH_GRADIENT_ALT, settings.coinHoughResolution, settings.coinHoughSpacing * scale, settings.coinEdge, settings.coinRoundness, from, to);
    for (cv::Vec3f &circle : circles) {
        circle[0] = static_cast<float>((circle[0] + 0.5) / scale - 0.5);
        circle[1] = static_cast<float>((circle[1] + 0.5) / scale - 0.5);
        circle[2] = static_cast<float>(circle[2] / scale);
    }
    return circles;
}

/// The circles of the working frame that may be coins, biggest first. A coin's radius is at most
/// `coinLargest` of the frame's short side; the big ones are looked for at half size, beside the small ones at full size.
std::vector<cv::Vec3f> proposeCoins(const cv::Mat &working, const OcularBlobSeparationSettings &settings) {
    cv::Mat gray;
    cv::cvtColor(working, gray, cv::COLOR_BGR2GRAY);
    const int shortSide = std::min(working.cols, working.rows);
    const double smallest = std::max(4, static_cast<int>(settings.coinSmallest * shortSide)), largest = std::floor(settings.coinLargest * shortSide);
    // Each search reaches a little past the boundary, so a coin on it is found by one.
    const double halfFrom = std::max(smallest, settings.coinHalfSizeFrom * shortSide), over = settings.coinSearchOverlap;
    std::vector<cv::Vec3f> circles, big;
    cv::parallel_for_(cv::Range(0, 2), [&](const cv::Range &tasks) {
        for (int task = tasks.start; task < tasks.end; ++task) {
            if (task == 0) {
                circles = circlesIn(gray, 1, smallest, std::min(largest, over * halfFrom), settings);
            } else {
                big = circlesIn(gray, 0.5, halfFrom / over, largest, settings);
            }
        }
    });
    circles.insert(circles.end(), big.begin(), big.end());
    std::sort(circles.begin(), circles.end(), [](const cv::Vec3f &a, const cv::Vec3f &b) {
        return std::tie(b[2], a[1], a[0]) < std::tie(a[2], b[1], b[0]);
    });
    return circles;
}

/// The coins among the proposed `circles` (biggest first): those whose disc is object, that do not
/// overlap a bigger coin, and where the object stops at the outline.
std::vector<cv::Vec3f> judgeCoins(const cv::Mat &working, const cv::Mat &objects, const std::vector<cv::Vec3f> &circles,
                                  const OcularBlobSeparationSettings &settings) {
    std::vector<cv::Vec3f> coins;
    if (circles.empty()) return coins;
    cv::Mat disc(objects.size(), CV_8U);
    // Colours are compared after a Gaussian of 2 pixels, edges found after one of 1 (both in 8 bits, as
    // the scenes' constants were chosen), only round the circles that come to be judged: a blur of a
    // submatrix reads the frame beyond it, so the values are the whole frame's (two whole-frame blurs
    // cost 2 ms of a core at 640×480 for the few hundred points sampled).
    cv::Mat smooth(working.size(), working.type()), blurred(working.size(), working.type());
    for (const cv::Vec3f &circle : circles) {
        const cv::Point centre(cvRound(circle[0]), cvRound(circle[1]));
        const int radius = static_cast<int>(circle[2]);
        const cv::Rect box = cv::Rect(centre.x - radius, centre.y - radius, 2 * radius + 1, 2 * radius + 1) & cv::Rect(0, 0, objects.cols, objects.rows);
        if (box.empty()) continue;
        disc(box).setTo(0);
        cv::circle(disc, centre, radius, cv::Scalar(255), cv::FILLED);
        const double inside = cv::countNonZero(disc(box));
        if (inside == 0 || cv::countNonZero(disc(box) & objects(box)) < settings.coinCoverage * inside) continue;
        const bool overlaps = std::any_of(coins.begin(), coins.end(), [&](const cv::Vec3f &coin) {
            return std::hypot(circle[0] - coin[0], circle[1] - coin[1]) < coin[2] + circle[2] - settings.coinOverlap * std::min(coin[2], circle[2]);
        });
        if (overlaps) continue;
        // The points sampled lie within (1 + rim) radii of the centre, and the gradient reads one pixel beyond.
        const int reach = static_cast<int>(std::ceil((1 + settings.coinRim) * circle[2])) + 2;
        const cv::Rect around = cv::Rect(centre.x - reach, centre.y - reach, 2 * reach + 1, 2 * reach + 1) & cv::Rect(0, 0, working.cols, working.rows);
        cv::GaussianBlur(working(around), smooth(around), cv::Size(0, 0), 2.0);
        cv::GaussianBlur(working(around), blurred(around), cv::Size(0, 0), 1.0);
        const Continuation across = continuation(smooth, blurred, objects, circle, settings);
        if (across.sameColour >= settings.coinContinuation || across.edgeless >= settings.coinEdgeless) continue;
        coins.push_back(circle);
    }
    return coins;
}

} // namespace

OCVStatus ocular_blob_finder_separate(OcularBlobFinder *finder, const OCVImage *image, const OcularBlobSeparationSettings *settings,
                                   int32_t *count, OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (settings->workingShortSide < 16) {
            setMessage(error, "the working size must be at least 16 pixels, got %d", settings->workingShortSide);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        if (!finder->separation) finder->separation = std::make_unique<BlobSeparation>();
        BlobSeparation &s = *finder->separation;
        const cv::Mat frame = matrix(image);
        if (frame.type() != CV_8UC3) {
            setMessage(error, "separating blobs needs 8-bit BGR, got type %d", frame.type());
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const int shortSide = std::min(frame.cols, frame.rows);
        finder->rectangles.clear();
        s.rectangleLabels.clear();
        // Too small a frame has too few pixels to tell a table from what lies on it.
        if (shortSide < 16) {
            finder->mask = cv::Mat(frame.size(), CV_8U, cv::Scalar(255));
            return OCV_STATUS_OK;
        }
        s.scale = std::min(1.0, static_cast<double>(settings->workingShortSide) / shortSide);
        // `working` may be the caller's frame itself, which must never be kept: `s.working` only ever
        // holds memory of its own, or a later resize would write into a frame long gone.
        cv::Mat working = frame;
        if (s.scale < 1) {
            cv::resize(frame, s.working, cv::Size(std::max(1, cvRound(frame.cols * s.scale)), std::max(1, cvRound(frame.rows * s.scale))),
                       0, 0, cv::INTER_AREA);
            working = s.working;
        }
        // Circles are proposed from the working frame alone: the search, the finding's dearest step and
        // mostly one core's work, runs on a thread of its own while the mask and the colours are made.
        std::future<std::vector<cv::Vec3f>> proposals;
        if (settings->coinRoundness > 0) proposals = std::async(std::launch::async, [&working, settings] { return proposeCoins(working, *settings); });
        // The background surface, fitted on a copy about `surfaceSide` pixels across its short side.
        const double fitScale = std::min(1.0, static_cast<double>(settings->surfaceSide) / std::min(working.cols, working.rows));
        cv::resize(working, s.small, cv::Size(std::max(2, cvRound(working.cols * fitScale)), std::max(2, cvRound(working.rows * fitScale))),
                   0, 0, cv::INTER_AREA);
        bool lightTable = true;
        s.background = BackgroundSurface::fit(s.small, settings->tint / 2, *settings, lightTable);
        // Each pixel against the background under it: its brightness as a fraction of the
        // background's (light divided out), and how far its colour leans from the background's
        // once brightness is set aside. A shadow is darker by a fraction but keeps the table's colour.
        s.objects.create(working.size(), CV_8U);
        s.brightness.create(working.size(), CV_32F);
        s.lean.create(working.size(), CV_32F);
        s.ratio.create(working.size(), CV_32FC3);
        // Rows are independent: bands of them on every core (OpenCV's own thread pool). In floats, with
        // the background's reciprocal worked out a row at a time, so a pixel costs one division where
        // it cost six in doubles: this loop was the finding's dearest after the circle search.
        const float darker = static_cast<float>(lightTable ? settings->darker : settings->darkerOnDarkTable), brighter = static_cast<float>(settings->brighter),
                    tint = static_cast<float>(settings->tint);
        cv::parallel_for_(cv::Range(0, working.rows), [&](const cv::Range &rows) {
            std::vector<float> inverses(3 * static_cast<size_t>(working.cols));
            for (int y = rows.start; y < rows.end; ++y) {
                const cv::Vec3b *row = working.ptr<cv::Vec3b>(y);
                uint8_t *out = s.objects.ptr<uint8_t>(y);
                float *bright = s.brightness.ptr<float>(y), *leaning = s.lean.ptr<float>(y);
                cv::Vec3f *ratios = s.ratio.ptr<cv::Vec3f>(y);
                const double fy = 2.0 * (y + 0.5) / working.rows - 1;
                // Along a row the surface is a polynomial in x alone (``BackgroundSurface::row``); each
                // channel's 1 / (surface + 1) there.
                for (int c = 0; c < 3; ++c) {
                    double k[4];
                    s.background.row(c, fy, k);
                    const float p0 = static_cast<float>(k[0]), p1 = static_cast<float>(k[1]), p2 = static_cast<float>(k[2]),
                                p4 = static_cast<float>(k[3]), step = 2.0f / working.cols;
                    float *inverse = inverses.data() + static_cast<size_t>(c) * working.cols;
                    for (int x = 0; x < working.cols; ++x) {
                        const float fx = (x + 0.5f) * step - 1, fx2 = fx * fx;
                        inverse[x] = 1 / (std::max(p0 + fx * p1 + fx2 * (p2 + p4 * fx2), 0.0f) + 1);
                    }
                }
                const float *blue = inverses.data(), *green = blue + working.cols, *red = green + working.cols;
                for (int x = 0; x < working.cols; ++x) {
                    const float r0 = (row[x][0] + 1.0f) * blue[x], r1 = (row[x][1] + 1.0f) * green[x], r2 = (row[x][2] + 1.0f) * red[x];
                    const float brightness = (r0 + r1 + r2) / 3;
                    // The largest of |ratio / brightness − 1| over the channels.
                    const float lean = std::max({std::abs(r0 - brightness), std::abs(r1 - brightness), std::abs(r2 - brightness)}) / brightness;
                    out[x] = brightness < darker || brightness > brighter || lean > tint ? 255 : 0;
                    bright[x] = brightness;
                    leaning[x] = lean;
                    ratios[x] = cv::Vec3f(r0, r1, r2);
                }
            }
        });
        const cv::Mat marked = s.objects.clone();
        // Specks go, holes (a coin's shine) fill, and what is smaller than the smallest blob goes.
        const cv::Mat square = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3));
        cv::morphologyEx(s.objects, s.objects, cv::MORPH_OPEN, square);
        cv::morphologyEx(s.objects, s.objects, cv::MORPH_CLOSE, square);
        const double smallestSide = shortSide * settings->minimumFraction * s.scale;
        keepLarge(s.objects, smallestSide, finder->contours);
        // A hole that looks like table is table: the paper showing between a ring of beans and its coin.
        // Only on a table lighter than what lies on it: on dark cloth a coin's dark relief looks like cloth.
        if (lightTable) {
            cv::Mat holes = s.objects & (marked == 0), pockets;
            const int count = cv::connectedComponents(holes, pockets, 4, CV_32S);
            std::vector<double> brightness(count, 0), lean(count, 0);
            std::vector<int> size(count, 0);
            for (int y = 0; y < pockets.rows; ++y) {
                const int32_t *pocket = pockets.ptr<int32_t>(y);
                const float *bright = s.brightness.ptr<float>(y), *leaning = s.lean.ptr<float>(y);
                for (int x = 0; x < pockets.cols; ++x) {
                    if (pocket[x] <= 0) continue;
                    brightness[pocket[x]] += bright[x];
                    lean[pocket[x]] += leaning[x];
                    ++size[pocket[x]];
                }
            }
            std::vector<uint8_t> table(count, 0);
            for (int pocket = 1; pocket < count; ++pocket)
                table[pocket] = std::abs(brightness[pocket] / size[pocket] - 1) < settings->pocketBrightness && lean[pocket] / size[pocket] < settings->pocketLean;
            for (int y = 0; y < pockets.rows; ++y) {
                const int32_t *pocket = pockets.ptr<int32_t>(y);
                uint8_t *object = s.objects.ptr<uint8_t>(y);
                for (int x = 0; x < pockets.cols; ++x) if (pocket[x] > 0 && table[pocket[x]]) object[x] = 0;
            }
        }
        // From here on nothing looks further than a few pixels outside an object, so the rest is worked
        // out in the box round the objects (a ring or a heap fills a third of the frame or less; the
        // demo's scattered coins and beans, under half) and the labels put back in the frame after.
        // Every step gives there what it gave over the whole frame: their pixels keep their order, and
        // the box's margin is table, as the frame round it is. The colour step's blur reads the ratio
        // beyond the box, as OpenCV's filters do round a submatrix; the margin keeps the Sobel's own
        // border out of the regions (that step was the separation's dearest: 9 of 40 ms at 720p).
        const int margin = static_cast<int>(std::ceil(4 * settings->colourSigma)) + 4;
        const cv::Rect objectsBox = cv::boundingRect(s.objects);
        const cv::Rect box = cv::Rect(objectsBox.x - margin, objectsBox.y - margin, objectsBox.width + 2 * margin,
                                      objectsBox.height + 2 * margin) & cv::Rect(0, 0, working.cols, working.rows);
        // The colours compared: chromaticities and log brightness of the smoothed ratio to the table, and
        // their gradient (worked out while the circles are looked for: they need the mask, not the coins).
        cv::Mat colours, gradient;
        if (!objectsBox.empty()) {
            colours = cv::Mat(box.size(), CV_32FC3, cv::Scalar::all(0));
            gradient = cv::Mat(box.size(), CV_32F, cv::Scalar(0));
            if (settings->seamGradient > 0 || settings->splitDepth > 0) {
                cv::Mat smooth;
                cv::GaussianBlur(s.ratio(box), smooth, cv::Size(0, 0), settings->colourSigma);
                cv::Mat features(box.size(), CV_32FC4);
                cv::parallel_for_(cv::Range(0, smooth.rows), [&](const cv::Range &rows) {
                    for (int y = rows.start; y < rows.end; ++y) {
                        const cv::Vec3f *in = smooth.ptr<cv::Vec3f>(y);
                        cv::Vec3f *chroma = colours.ptr<cv::Vec3f>(y);
                        cv::Vec4f *feature = features.ptr<cv::Vec4f>(y);
                        for (int x = 0; x < smooth.cols; ++x) {
                            const float brightness = std::max((in[x][0] + in[x][1] + in[x][2]) / 3, 1e-3f);
                            for (int c = 0; c < 3; ++c) chroma[x][c] = in[x][c] / brightness - 1;
                            feature[x] = cv::Vec4f(chroma[x][0], chroma[x][1], chroma[x][2],
                                                   static_cast<float>(settings->brightnessWeight * std::log(brightness)));
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
        }
        // Coins first: a round object is told from what touches it by its outline, which no split of
        // the mask finds as surely. The rest is separated with the coins carved out, then the coins are
        // given back their pixels as objects of their own.
        const std::vector<cv::Vec3f> coins = proposals.valid() ? judgeCoins(working, s.objects, proposals.get(), *settings)
                                                               : std::vector<cv::Vec3f>();
        cv::Mat rest = s.objects;
        if (!coins.empty()) {
            rest = s.objects.clone();
            for (const cv::Vec3f &coin : coins)
                cv::circle(rest, cv::Point(cvRound(coin[0]), cvRound(coin[1])), cvRound(coin[2] * settings->coinCarve) + 1, cv::Scalar(0), cv::FILLED);
            if (settings->carveOpening > 0) {
                // Opened only round the coins: elsewhere a bean's tip or a thin shadow keeps its shape.
                const int side = 2 * settings->carveOpening + 1;
                cv::Mat opened, band(rest.size(), CV_8U, cv::Scalar(0));
                cv::morphologyEx(rest, opened, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(side, side)));
                for (const cv::Vec3f &coin : coins)
                    cv::circle(band, cv::Point(cvRound(coin[0]), cvRound(coin[1])), cvRound(coin[2] * (settings->coinCarve + settings->coinRim)) + side,
                               cv::Scalar(255), cv::FILLED);
                opened.copyTo(rest, band);
            }
            // Without filling: a ring of beans closes round the hole its coin left.
            cv::Mat parts, stats, centres;
            const int count = cv::connectedComponentsWithStats(rest, parts, stats, centres, 8, CV_32S);
            for (int part = 1; part < count; ++part) {
                if (stats.at<int>(part, cv::CC_STAT_WIDTH) >= smallestSide || stats.at<int>(part, cv::CC_STAT_HEIGHT) >= smallestSide) continue;
                rest.setTo(0, parts == part);
            }
        }
        s.labels.create(working.size(), CV_32S);
        s.labels.setTo(0);
        if (!objectsBox.empty()) {
            const cv::Mat inBox = rest(box).clone();
            // The distance map is taken with the seams out, so objects part where their colours change
            // even where their outlines do not pinch (beans side by side in a heap); a seam pixel is
            // flooded last, by whichever neighbour reaches it first. A region the outline alone parts
            // that is an ellipse already is one object, and keeps its seams: a coin's relief, a bean's stripe.
            cv::Mat labels;
            s.whole.create(box.size(), CV_8U);
            s.whole.setTo(0);
            if (settings->seamGradient > 0 && settings->wholeEllipse < 1) {
                cv::distanceTransform(inBox, s.distance, cv::DIST_L2, cv::DIST_MASK_5);
                flood(s.distance, distancePeaks(s.distance, settings->persistence, settings->peakFloor), labels);
                markEllipses(labels, settings->wholeEllipse, s.whole);
            }
            cutAtSeams(inBox, gradient, settings->seamGradient, s.whole, s.carved);
            cv::distanceTransform(s.carved, s.distance, cv::DIST_L2, cv::DIST_MASK_5);
            s.distance.setTo(seamDistance, inBox & (s.carved == 0));
            flood(s.distance, distancePeaks(s.distance, settings->persistence, settings->peakFloor), labels);
            if (settings->splitDepth > 0) {
                const double smallestCore = settings->smallestCore * std::min(working.cols, working.rows);
                splitRegions(labels, colours, gradient, *settings, smallestCore);
                joinIntoEllipses(labels, *settings, smallestSide);
            }
            if (settings->notchDepth > 0) cutAtNotches(labels, *settings);
            // What was mostly a filled hole is the table's shade in a gap between objects, not an object
            // (on a light table only, as the holes' test above: on dark cloth a coin's relief is filled in).
            if (lightTable && settings->filledShare < 1) dropFilled(labels, marked(box), settings->filledShare);
            // A seam also runs between an object and its own deep shadow, which is no object: it goes
            // back to the object it lies against. A shadow is in the mask for its darkness, so a region
            // lighter on average than the darkness that marks an object on this table is none (coffee
            // beans on dark card: 0.56–0.69 of the card).
            if (settings->shadowLean > 0)
                joinShadows(labels, s.brightness(box), s.lean(box), settings->shadowLean, settings->shadowDarkest,
                            std::min(settings->shadowLightest, static_cast<double>(darker)), settings->shadowEllipse);
            if (!coins.empty()) giveCoinsTheirPixels(labels, s.objects(box), coins, box.tl(), *settings);
            labels.copyTo(s.labels(box));
        }
        // Each object's rectangle, back at the frame's size.
        std::vector<cv::Rect> found;
        std::vector<int> bounds;  // per label: minX, minY, maxX, maxY
        for (int y = box.y; y < box.y + box.height; ++y) {  // outside the box, no label
            const int32_t *row = s.labels.ptr<int32_t>(y);
            for (int x = box.x; x < box.x + box.width; ++x) {
                const int label = row[x];
                if (label == 0) continue;
                if (static_cast<int>(bounds.size()) < label * 4) bounds.resize(label * 4, -1);
                int *b = &bounds[(label - 1) * 4];
                if (b[0] < 0) { b[0] = b[2] = x; b[1] = b[3] = y; continue; }
                b[0] = std::min(b[0], x); b[1] = std::min(b[1], y); b[2] = std::max(b[2], x); b[3] = std::max(b[3], y);
            }
        }
        const cv::Rect whole(0, 0, frame.cols, frame.rows);
        const int smallest = static_cast<int>(shortSide * settings->minimumFraction);
        for (size_t label = 1; label * 4 <= bounds.size(); ++label) {
            const int *b = &bounds[(label - 1) * 4];
            if (b[0] < 0) continue;
            const int x0 = static_cast<int>(std::floor(b[0] / s.scale)), y0 = static_cast<int>(std::floor(b[1] / s.scale));
            const int x1 = static_cast<int>(std::ceil((b[2] + 1) / s.scale)), y1 = static_cast<int>(std::ceil((b[3] + 1) / s.scale));
            const cv::Rect full = cv::Rect(x0, y0, x1 - x0, y1 - y0) & whole;
            if (full.width < smallest && full.height < smallest) continue;
            finder->rectangles.push_back(full);
            s.rectangleLabels.push_back(static_cast<int>(label));
        }
        // The mask shown by the Image/Mask toggle: 255 for background, as the textbook's.
        cv::compare(s.labels, 0, finder->mask, cv::CMP_EQ);
        *count = static_cast<int32_t>(finder->rectangles.size());
        return OCV_STATUS_OK;
    });
}

OCVStatus ocular_blob_finder_isolate(const OcularBlobFinder *finder, const OCVImage *image, int32_t index, const OCVImage *output,
                                  const OCVImage *mask, double *tableBrightness, OCVError *error) {
    return fenced(error, [&] {
        if (!finder->separation || index < 0 || static_cast<size_t>(index) >= finder->separation->rectangleLabels.size()) {
            setMessage(error, "no separated blob %d", index);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const BlobSeparation &s = *finder->separation;
        const cv::Mat frame = matrix(image);
        const cv::Rect bounds = finder->rectangles[index];
        cv::Mat out = matrix(output), own = matrix(mask);
        if (frame.type() != CV_8UC3 || out.type() != CV_8UC3 || out.cols != bounds.width || out.rows != bounds.height ||
            own.type() != CV_8UC1 || own.size() != out.size() || bounds.x + bounds.width > frame.cols ||
            bounds.y + bounds.height > frame.rows) {
            setMessage(error, "the blob's picture must be 8-bit BGR and its mask 8-bit gray, both of its rectangle's size");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // The table's brightness under the blob's centre, by which its light can be divided out.
        {
            const double fx = 2.0 * (bounds.x + bounds.width / 2.0) / frame.cols - 1, fy = 2.0 * (bounds.y + bounds.height / 2.0) / frame.rows - 1;
            *tableBrightness = (s.background.value(0, fx, fy) + s.background.value(1, fx, fy) + s.background.value(2, fx, fy)) / 3;
        }
        const int ownLabel = s.rectangleLabels[index];
        // A neighbour's pixels become the table under them, so that one object's description holds
        // none of another's colour or texture.
        for (int y = 0; y < bounds.height; ++y) {
            const int frameY = bounds.y + y;
            const int labelY = std::min(s.labels.rows - 1, static_cast<int>(frameY * s.scale));
            const double fy = 2.0 * (frameY + 0.5) / frame.rows - 1;
            const cv::Vec3b *source = frame.ptr<cv::Vec3b>(frameY);
            cv::Vec3b *target = out.ptr<cv::Vec3b>(y);
            uint8_t *mine = own.ptr<uint8_t>(y);
            const int32_t *labels = s.labels.ptr<int32_t>(labelY);
            for (int x = 0; x < bounds.width; ++x) {
                const int frameX = bounds.x + x;
                const int label = labels[std::min(s.labels.cols - 1, static_cast<int>(frameX * s.scale))];
                mine[x] = label == ownLabel ? 255 : 0;
                if (label == 0 || label == ownLabel) {
                    target[x] = source[frameX];
                    continue;
                }
                const double fx = 2.0 * (frameX + 0.5) / frame.cols - 1;
                for (int c = 0; c < 3; ++c) target[x][c] = cv::saturate_cast<uint8_t>(s.background.value(c, fx, fy));
            }
        }
        return OCV_STATUS_OK;
    });
}

// MARK: - One object on a backdrop (training pictures), and scenes made of them

OCVStatus ocular_object_alpha(const OCVImage *image, const OcularCutoutSettings *settings, const OCVImage *alpha,
                              double *backdropBrightness, OCVError *error) {
    return fenced(error, [&] {
        const OcularCutoutSettings &cut = *settings;
        if (cut.workingSide < 8 || cut.border < 1 || cut.grabCutIterations < 1) {
            setMessage(error, "cutting out an object needs a working side of at least 8, a border of at least 1 and a GrabCut iteration");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const cv::Mat picture = matrix(image);
        cv::Mat out = matrix(alpha);
        if (picture.type() != CV_8UC3 || out.type() != CV_8UC1 || out.size() != picture.size() || picture.rows < 8 || picture.cols < 8) {
            setMessage(error, "an object's alpha needs an 8-bit BGR picture of at least 8×8 and a gray image of its size");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // GrabCut on a copy at most `workingSide` pixels across. Its seeds: the border is backdrop; a pixel of about the backdrop's
        // colour and brightness is probably backdrop, and so is one darker but of its colour (the
        // object's shadow, deep in these photos); anything else is probably object. The colour
        // models then take in a pale pinto bean's body, which a threshold on the difference from
        // the backdrop left out while it took the shadow.
        const double shrink = std::min(1.0, static_cast<double>(cut.workingSide) / std::max(picture.cols, picture.rows));
        cv::Mat small;
        if (shrink < 1) {
            cv::resize(picture, small, cv::Size(std::max(8, cvRound(picture.cols * shrink)), std::max(8, cvRound(picture.rows * shrink))), 0, 0,
                       cv::INTER_AREA);
        } else {
            small = picture.clone();
        }
        cv::Vec3d backdrop;
        {
            std::vector<uint8_t> border[3];
            for (int y = 0; y < small.rows; ++y) {
                for (int x = 0; x < small.cols; ++x) {
                    if (y >= cut.border && y < small.rows - cut.border && x >= cut.border && x < small.cols - cut.border) continue;
                    const cv::Vec3b pixel = small.at<cv::Vec3b>(y, x);
                    for (int c = 0; c < 3; ++c) border[c].push_back(pixel[c]);
                }
            }
            for (int c = 0; c < 3; ++c) {
                std::nth_element(border[c].begin(), border[c].begin() + border[c].size() / 2, border[c].end());
                backdrop[c] = border[c][border[c].size() / 2];
            }
            *backdropBrightness = (backdrop[0] + backdrop[1] + backdrop[2]) / 3;
        }
        cv::Mat seeds(small.size(), CV_8U);
        int objectSeeds = 0;
        for (int y = 0; y < small.rows; ++y) {
            const cv::Vec3b *row = small.ptr<cv::Vec3b>(y);
            uint8_t *seed = seeds.ptr<uint8_t>(y);
            for (int x = 0; x < small.cols; ++x) {
                if (y < cut.border || x < cut.border || y >= small.rows - cut.border || x >= small.cols - cut.border) {
                    seed[x] = cv::GC_BGD;
                    continue;
                }
                double ratio[3], brightness = 0, lean = 0;
                for (int c = 0; c < 3; ++c) {
                    ratio[c] = (row[x][c] + 1.0) / (backdrop[c] + 1.0);
                    brightness += ratio[c] / 3;
                }
                for (int c = 0; c < 3; ++c) lean = std::max(lean, std::abs(ratio[c] / brightness - 1));
                const bool likeBackdrop = brightness > cut.backdropDarkest && brightness < cut.backdropLightest && lean < cut.backdropLean;
                const bool likeShadow = brightness > cut.shadowDarkest && brightness < cut.shadowLightest && lean < cut.shadowLean;
                seed[x] = likeBackdrop || likeShadow ? cv::GC_PR_BGD : cv::GC_PR_FGD;
                if (seed[x] == cv::GC_PR_FGD) ++objectSeeds;
            }
        }
        cv::Mat object;
        if (objectSeeds >= cut.leastObjectSeeds) {
            cv::Mat backgroundModel, foregroundModel;
            // GrabCut starts its colour models with k-means, which draws from the thread's random
            // generator: a fixed seed makes the same picture give the same cut (and model) each time.
            struct SeededRandom {
                cv::RNG &random = cv::theRNG();
                const uint64 saved = random.state;
                SeededRandom() { random.state = 0x0B1EC7; }
                ~SeededRandom() { random.state = saved; }
            } seeded;
            cv::grabCut(small, seeds, cv::Rect(), backgroundModel, foregroundModel, cut.grabCutIterations, cv::GC_INIT_WITH_MASK);
            object = (seeds == cv::GC_FGD) | (seeds == cv::GC_PR_FGD);
            cv::morphologyEx(object, object, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3)));
        }
        std::vector<std::vector<cv::Point>> contours;
        if (!object.empty()) cv::findContours(object, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
        out.setTo(0);
        // A coin photographed alone is its circle when GrabCut kept too little of it: a silver coin on
        // white paper is as dark as the shadows the seeds take for backdrop, a shiny one as light as
        // the paper, and the cut kept a sliver of the rim or a toonie's centre alone.
        if (cut.coinKept > 0 && !object.empty()) {
            cv::Mat gray;
            cv::cvtColor(small, gray, cv::COLOR_BGR2GRAY);
            cv::GaussianBlur(gray, gray, cv::Size(), 1);
            const int side = std::min(small.cols, small.rows);
            std::vector<cv::Vec3f> circles;
            cv::HoughCircles(gray, circles, cv::HOUGH_GRADIENT_ALT, 1.5, side, 300, cut.coinRoundness,
                             std::max(4, cvRound(cut.coinSmallest * side)), std::max(5, cvRound(cut.coinLargest * side)));
            const cv::Vec3f *coin = nullptr;
            for (const cv::Vec3f &circle : circles) {
                const bool central = std::abs(circle[0] - small.cols / 2.0) < 0.15 * side && std::abs(circle[1] - small.rows / 2.0) < 0.15 * side;
                if (central && (!coin || circle[2] > (*coin)[2])) coin = &circle;
            }
            if (coin) {
                cv::Mat disc = cv::Mat::zeros(small.size(), CV_8U);
                cv::circle(disc, cv::Point2f((*coin)[0], (*coin)[1]), cvRound((*coin)[2]), cv::Scalar(255), cv::FILLED);
                const double kept = cv::countNonZero(object & disc);
                if (kept < cut.coinKept * cv::countNonZero(disc)) {
                    cv::resize(disc, out, out.size(), 0, 0, cv::INTER_LINEAR);
                    return checkWrittenInPlace(out, alpha, error);
                }
            }
        }
        if (contours.empty()) return checkWrittenInPlace(out, alpha, error);
        size_t largest = 0;
        for (size_t index = 1; index < contours.size(); ++index)
            if (cv::contourArea(contours[index]) > cv::contourArea(contours[largest])) largest = index;
        // The largest part, holes filled, back at the picture's size with a soft edge.
        cv::Mat filled = cv::Mat::zeros(small.size(), CV_8U);
        cv::drawContours(filled, contours, static_cast<int>(largest), cv::Scalar(255), cv::FILLED);
        cv::resize(filled, out, out.size(), 0, 0, cv::INTER_LINEAR);
        return checkWrittenInPlace(out, alpha, error);
    });
}

OCVStatus ocular_composite_object(const OCVImage *object, const OCVImage *alpha, const double *coefficients, const OCVImage *canvas,
                               double shadowX, double shadowY, double shadowSigma, double shadowStrength,
                               OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat picture = matrix(object), opacity = matrix(alpha);
        cv::Mat target = matrix(canvas);
        if (picture.type() != CV_8UC3 || opacity.type() != CV_8UC1 || opacity.size() != picture.size() || target.type() != CV_8UC3) {
            setMessage(error, "compositing needs an 8-bit BGR object, its gray alpha and a BGR canvas");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // Only the rectangle the object and its shadow reach is touched: a 5-megapixel photo with a
        // dozen objects would otherwise be warped and blurred whole a dozen times.
        const double *m = coefficients;
        double minX = 1e18, minY = 1e18, maxX = -1e18, maxY = -1e18;
        for (const cv::Point2d corner : {cv::Point2d(0, 0), cv::Point2d(picture.cols, 0), cv::Point2d(0, picture.rows),
                                         cv::Point2d(picture.cols, picture.rows)}) {
            const double x = m[0] * corner.x + m[1] * corner.y + m[2], y = m[3] * corner.x + m[4] * corner.y + m[5];
            minX = std::min(minX, x); maxX = std::max(maxX, x); minY = std::min(minY, y); maxY = std::max(maxY, y);
        }
        const double reach = shadowStrength > 0 ? std::abs(shadowX) + std::abs(shadowY) + 4 * shadowSigma + 2 : 2;
        const cv::Rect area = cv::Rect(cv::Point(static_cast<int>(std::floor(minX - reach)), static_cast<int>(std::floor(minY - reach))),
                                       cv::Point(static_cast<int>(std::ceil(maxX + reach)), static_cast<int>(std::ceil(maxY + reach)))) &
                              cv::Rect(0, 0, target.cols, target.rows);
        if (area.empty()) return OCV_STATUS_OK;
        cv::Mat region = target(area);
        const cv::Mat map = (cv::Mat_<double>(2, 3) << m[0], m[1], m[2] - area.x, m[3], m[4], m[5] - area.y);
        cv::Mat placed, placedAlpha;
        cv::warpAffine(picture, placed, map, area.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
        cv::warpAffine(opacity, placedAlpha, map, area.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
        // A soft shadow: the alpha moved away from the light, blurred, darkening the table.
        if (shadowStrength > 0) {
            cv::Mat shadow;
            const cv::Mat shift = (cv::Mat_<double>(2, 3) << 1, 0, shadowX, 0, 1, shadowY);
            cv::warpAffine(placedAlpha, shadow, shift, area.size());
            if (shadowSigma > 0) cv::GaussianBlur(shadow, shadow, cv::Size(0, 0), shadowSigma);
            for (int y = 0; y < region.rows; ++y) {
                cv::Vec3b *row = region.ptr<cv::Vec3b>(y);
                const uint8_t *dark = shadow.ptr<uint8_t>(y);
                for (int x = 0; x < region.cols; ++x) {
                    if (dark[x] == 0) continue;  // most of the table: no shadow, and ×1 changes nothing
                    const double keep = 1 - shadowStrength * dark[x] / 255.0;
                    for (int c = 0; c < 3; ++c) row[x][c] = cv::saturate_cast<uint8_t>(row[x][c] * keep);
                }
            }
        }
        for (int y = 0; y < region.rows; ++y) {
            cv::Vec3b *row = region.ptr<cv::Vec3b>(y);
            const cv::Vec3b *over = placed.ptr<cv::Vec3b>(y);
            const uint8_t *a = placedAlpha.ptr<uint8_t>(y);
            for (int x = 0; x < region.cols; ++x) {
                if (a[x] == 0) continue;
                const double weight = a[x] / 255.0;
                for (int c = 0; c < 3; ++c) row[x][c] = cv::saturate_cast<uint8_t>(over[x][c] * weight + row[x][c] * (1 - weight));
            }
        }
        return OCV_STATUS_OK;
    });
}

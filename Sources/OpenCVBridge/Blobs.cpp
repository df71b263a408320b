// Blob detection against a plain background (SPEC §5), kept in one call so the half-size frame, the
// mask and the contours stay in buffers reused from frame to frame.
#include "Bridging.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <queue>
#include <memory>
#include <vector>

using namespace ocular_bridge;

// MARK: - Separating detection: a lit table, touching objects

namespace {

// The background's colour as a smooth surface: per channel, a quadratic in x and y (in [-1, 1]
// across the frame) fitted to the pixels that look like background. Light falling across a table
// is smooth; objects are not, and are left out of the fit as outliers.
struct BackgroundSurface {
    cv::Vec<double, 6> coefficients[3];

    static void terms(double x, double y, double *out) {
        out[0] = 1; out[1] = x; out[2] = y; out[3] = x * x; out[4] = x * y; out[5] = y * y;
    }

    double value(int channel, double x, double y) const {
        double t[6];
        terms(x, y, t);
        double sum = 0;
        for (int i = 0; i < 6; ++i) sum += coefficients[channel][i] * t[i];
        return sum;
    }

    // The surface of the table: fitted from the brighter half of the pixels and from the darker
    // half, the one that more of the picture lies close to (within 10 % of its brightness). Most
    // tables are lighter than what lies on them, but coins on black velvet are not.
    static BackgroundSurface fit(const cv::Mat &small, double floor) {
        int brighterInliers = 0, darkerInliers = 0;
        const BackgroundSurface brighter = fit(small, floor, true, brighterInliers);
        const BackgroundSurface darker = fit(small, floor, false, darkerInliers);
        return darkerInliers > brighterInliers ? darker : brighter;
    }

    // Fits the surface to a small copy of the frame, dropping pixels that stand out from the
    // previous fit: objects are outliers of the background, whatever colour they are. `close`
    // gets how many pixels lie within 10 % of the final surface.
    static BackgroundSurface fit(const cv::Mat &small, double floor, bool startBrighter, int &close) {
        const int n = small.rows * small.cols;
        cv::Mat design(n, 6, CV_64F), values(n, 3, CV_64F);
        for (int y = 0; y < small.rows; ++y) {
            for (int x = 0; x < small.cols; ++x) {
                const int row = y * small.cols + x;
                terms(2.0 * (x + 0.5) / small.cols - 1, 2.0 * (y + 0.5) / small.rows - 1, design.ptr<double>(row));
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
        BackgroundSurface surface{};
        close = 0;
        for (int round = 0; round < 5; ++round) {
            int count = 0;
            for (int row = 0; row < n; ++row) count += inlier[row];
            if (count < 12) break;
            cv::Mat a(count, 6, CV_64F), b(count, 3, CV_64F);
            for (int row = 0, k = 0; row < n; ++row) {
                if (!inlier[row]) continue;
                design.row(row).copyTo(a.row(k));
                values.row(row).copyTo(b.row(k));
                ++k;
            }
            cv::Mat solution;
            cv::solve(a, b, solution, cv::DECOMP_SVD);
            for (int c = 0; c < 3; ++c)
                for (int i = 0; i < 6; ++i) surface.coefficients[c][i] = solution.at<double>(i, c);
            // Residuals relative to the background's brightness; a pixel stays in when it is within
            // 2.5 median residuals (and at least `floor`) of the surface.
            std::vector<double> residuals(n);
            for (int row = 0; row < n; ++row) {
                const double *t = design.ptr<double>(row);
                double worst = 0;
                for (int c = 0; c < 3; ++c) {
                    double model = 0;
                    for (int i = 0; i < 6; ++i) model += surface.coefficients[c][i] * t[i];
                    worst = std::max(worst, std::abs(values.at<double>(row, c) - model) / std::max(model, 8.0));
                }
                residuals[row] = worst;
            }
            std::vector<double> inside;
            for (int row = 0; row < n; ++row) if (inlier[row]) inside.push_back(residuals[row]);
            std::nth_element(inside.begin(), inside.begin() + inside.size() / 2, inside.end());
            const double limit = std::max(floor, 2.5 * inside[inside.size() / 2]);
            for (int row = 0; row < n; ++row) inlier[row] = residuals[row] <= limit;
            close = static_cast<int>(std::count_if(residuals.begin(), residuals.end(), [](double residual) { return residual <= 0.1; }));
        }
        return surface;
    }
};

} // namespace

struct OCVBlobSeparation {
    cv::Mat bgr;          // the frame as 8-bit BGR, when it came otherwise
    cv::Mat working;      // the frame shrunk to the working size (never a view of the frame)
    cv::Mat small;        // shrunk further, for fitting the background
    cv::Mat objects;      // 255 where an object is, at the working size
    cv::Mat distance;     // distance of each object pixel to the background
    cv::Mat labels;       // 1… per separated object, 0 for background
    BackgroundSurface background;
    double scale = 1;     // working size / frame size
    std::vector<int> rectangleLabels;
};

struct OCVBlobFinder {
    cv::Mat resized;
    cv::Mat mask;
    cv::Mat edges;
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Rect> rectangles;
    // The separating detection's buffers, made on its first use.
    std::unique_ptr<OCVBlobSeparation> separation;
};

OCVStatus ocv_blob_finder_create(OCVBlobFinder **finder, OCVError *error) {
    *finder = nullptr;
    return fenced(error, [&] {
        *finder = new OCVBlobFinder();
        return OCV_STATUS_OK;
    });
}

void ocv_blob_finder_release(OCVBlobFinder *finder) { delete finder; }

OCVStatus ocv_blob_finder_find(OCVBlobFinder *finder, const OCVImage *image, const OCVBlobSettings *settings,
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

void ocv_blob_finder_rectangles(const OCVBlobFinder *finder, OCVRectangle *rectangles, int32_t capacity) {
    const size_t count = std::min(finder->rectangles.size(), static_cast<size_t>(std::max(capacity, 0)));
    for (size_t index = 0; index < count; ++index) {
        const cv::Rect &found = finder->rectangles[index];
        rectangles[index] = OCVRectangle{found.x, found.y, found.width, found.height};
    }
}

OCVImage ocv_blob_finder_mask(const OCVBlobFinder *finder) {
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

std::vector<int> distancePeaks(const cv::Mat &distance, double persistence) {
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
                if (height - level >= std::max(1.5, persistence * height)) seeds.push_back(peak[a]);
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
// A region filling less than `solidity` of its convex hull whose outline has two notches at least
// `depthFraction` of its radius (and 2 pixels) deep, closer to each other than 2.5 times the sum of
// their depths, is cut along the line between them; each part is looked at again, at most `rounds`
// times.
void cutAtNotches(cv::Mat &labels, double depthFraction, double solidity, int rounds) {
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
        if (outline.size() < 12) continue;
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
            if (depth >= std::max(2.0, depthFraction * radius)) notches.push_back({outline[defect[2]], depth});
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
        if (best > 2.5) continue;
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
            if (part == largest || statistics.at<int>(part, cv::CC_STAT_AREA) < 0.08 * area) continue;
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

} // namespace

OCVStatus ocv_blob_finder_separate(OCVBlobFinder *finder, const OCVImage *image, const OCVBlobSeparationSettings *settings,
                                   int32_t *count, OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (settings->workingShortSide < 16) {
            setMessage(error, "the working size must be at least 16 pixels, got %d", settings->workingShortSide);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        if (!finder->separation) finder->separation = std::make_unique<OCVBlobSeparation>();
        OCVBlobSeparation &s = *finder->separation;
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
        // The background surface, fitted on a copy about 48 pixels across its short side.
        const double fitScale = std::min(1.0, 48.0 / std::min(working.cols, working.rows));
        cv::resize(working, s.small, cv::Size(std::max(2, cvRound(working.cols * fitScale)), std::max(2, cvRound(working.rows * fitScale))),
                   0, 0, cv::INTER_AREA);
        s.background = BackgroundSurface::fit(s.small, settings->tint / 2);
        // Each pixel against the background under it: its brightness as a fraction of the
        // background's (light divided out), and how far its colour leans from the background's
        // once brightness is set aside. A shadow is darker by a fraction but keeps the table's colour.
        s.objects.create(working.size(), CV_8U);
        for (int y = 0; y < working.rows; ++y) {
            const cv::Vec3b *row = working.ptr<cv::Vec3b>(y);
            uint8_t *out = s.objects.ptr<uint8_t>(y);
            const double fy = 2.0 * (y + 0.5) / working.rows - 1;
            for (int x = 0; x < working.cols; ++x) {
                const double fx = 2.0 * (x + 0.5) / working.cols - 1;
                double ratio[3], brightness = 0;
                for (int c = 0; c < 3; ++c) {
                    ratio[c] = (row[x][c] + 1.0) / (std::max(s.background.value(c, fx, fy), 0.0) + 1.0);
                    brightness += ratio[c] / 3;
                }
                double lean = 0;
                for (int c = 0; c < 3; ++c) lean = std::max(lean, std::abs(ratio[c] / brightness - 1));
                const bool object = brightness < settings->darker || brightness > settings->brighter || lean > settings->tint;
                out[x] = object ? 255 : 0;
            }
        }
        // Specks go, holes (a coin's shine) fill, and what is smaller than the smallest blob goes.
        const cv::Mat square = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3));
        cv::morphologyEx(s.objects, s.objects, cv::MORPH_OPEN, square);
        cv::morphologyEx(s.objects, s.objects, cv::MORPH_CLOSE, square);
        finder->contours.clear();
        cv::findContours(s.objects, finder->contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
        s.objects.setTo(0);
        const double smallestSide = shortSide * settings->minimumFraction * s.scale;
        for (size_t index = 0; index < finder->contours.size(); ++index) {
            const cv::Rect bounds = cv::boundingRect(finder->contours[index]);
            if (bounds.width < smallestSide && bounds.height < smallestSide) continue;
            cv::drawContours(s.objects, finder->contours, static_cast<int>(index), cv::Scalar(255), cv::FILLED);
        }
        cv::distanceTransform(s.objects, s.distance, cv::DIST_L2, cv::DIST_MASK_5);
        flood(s.distance, distancePeaks(s.distance, settings->persistence), s.labels);
        if (settings->notchDepth > 0) cutAtNotches(s.labels, settings->notchDepth, settings->notchSolidity, 3);
        // Each object's rectangle, back at the frame's size.
        std::vector<cv::Rect> found;
        std::vector<int> bounds;  // per label: minX, minY, maxX, maxY
        for (int y = 0; y < s.labels.rows; ++y) {
            const int32_t *row = s.labels.ptr<int32_t>(y);
            for (int x = 0; x < s.labels.cols; ++x) {
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

OCVStatus ocv_blob_finder_isolate(const OCVBlobFinder *finder, const OCVImage *image, int32_t index, const OCVImage *output,
                                  const OCVImage *mask, double *tableBrightness, OCVError *error) {
    return fenced(error, [&] {
        if (!finder->separation || index < 0 || static_cast<size_t>(index) >= finder->separation->rectangleLabels.size()) {
            setMessage(error, "no separated blob %d", index);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const OCVBlobSeparation &s = *finder->separation;
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

OCVStatus ocv_object_alpha(const OCVImage *image, const OCVImage *alpha, double *backdropBrightness, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat picture = matrix(image);
        cv::Mat out = matrix(alpha);
        if (picture.type() != CV_8UC3 || out.type() != CV_8UC1 || out.size() != picture.size() || picture.rows < 8 || picture.cols < 8) {
            setMessage(error, "an object's alpha needs an 8-bit BGR picture of at least 8×8 and a gray image of its size");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // GrabCut on a copy at most 200 pixels across (the size objects are described at, and fast:
        // about 60 ms a picture). Its seeds: the border is backdrop; a pixel of about the backdrop's
        // colour and brightness is probably backdrop, and so is one darker but of its colour (the
        // object's shadow, deep in these photos); anything else is probably object. The colour
        // models then take in a pale pinto bean's body, which a threshold on the difference from
        // the backdrop left out while it took the shadow.
        const double shrink = std::min(1.0, 200.0 / std::max(picture.cols, picture.rows));
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
                    if (y > 1 && y < small.rows - 2 && x > 1 && x < small.cols - 2) continue;
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
                if (y < 2 || x < 2 || y >= small.rows - 2 || x >= small.cols - 2) {
                    seed[x] = cv::GC_BGD;
                    continue;
                }
                double ratio[3], brightness = 0, lean = 0;
                for (int c = 0; c < 3; ++c) {
                    ratio[c] = (row[x][c] + 1.0) / (backdrop[c] + 1.0);
                    brightness += ratio[c] / 3;
                }
                for (int c = 0; c < 3; ++c) lean = std::max(lean, std::abs(ratio[c] / brightness - 1));
                const bool likeBackdrop = brightness > 0.85 && brightness < 1.15 && lean < 0.08;
                const bool likeShadow = brightness > 0.38 && brightness < 0.8 && lean < 0.23;
                seed[x] = likeBackdrop || likeShadow ? cv::GC_PR_BGD : cv::GC_PR_FGD;
                if (seed[x] == cv::GC_PR_FGD) ++objectSeeds;
            }
        }
        cv::Mat object;
        if (objectSeeds >= 16) {
            cv::Mat backgroundModel, foregroundModel;
            // GrabCut starts its colour models with k-means, which draws from the thread's random
            // generator: a fixed seed makes the same picture give the same cut (and model) each time.
            struct SeededRandom {
                cv::RNG &random = cv::theRNG();
                const uint64 saved = random.state;
                SeededRandom() { random.state = 0x0B1EC7; }
                ~SeededRandom() { random.state = saved; }
            } seeded;
            cv::grabCut(small, seeds, cv::Rect(), backgroundModel, foregroundModel, 5, cv::GC_INIT_WITH_MASK);
            object = (seeds == cv::GC_FGD) | (seeds == cv::GC_PR_FGD);
            cv::morphologyEx(object, object, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3)));
        }
        std::vector<std::vector<cv::Point>> contours;
        if (!object.empty()) cv::findContours(object, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
        out.setTo(0);
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

OCVStatus ocv_composite_object(const OCVImage *object, const OCVImage *alpha, const double *coefficients, const OCVImage *canvas,
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

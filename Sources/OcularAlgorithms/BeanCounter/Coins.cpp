// Coins first: circles proposed by HoughCircles, judged by whether their disc is object and the
// object ends at their outline, carved out of the mask and given back their pixels at the end.
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>


namespace ocular_bean_counter {

namespace {

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

}  // namespace

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

cv::Mat carveCoins(const cv::Mat &objects, const std::vector<cv::Vec3f> &coins, const OcularBlobSeparationSettings &settings,
                   double smallestSide) {
    cv::Mat rest = objects.clone();
    for (const cv::Vec3f &coin : coins)
        cv::circle(rest, cv::Point(cvRound(coin[0]), cvRound(coin[1])), cvRound(coin[2] * settings.coinCarve) + 1, cv::Scalar(0), cv::FILLED);
    if (settings.carveOpening > 0) {
        // Opened only round the coins: elsewhere a bean's tip or a thin shadow keeps its shape.
        const int side = 2 * settings.carveOpening + 1;
        cv::Mat opened, band(rest.size(), CV_8U, cv::Scalar(0));
        cv::morphologyEx(rest, opened, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(side, side)));
        for (const cv::Vec3f &coin : coins)
            cv::circle(band, cv::Point(cvRound(coin[0]), cvRound(coin[1])), cvRound(coin[2] * (settings.coinCarve + settings.coinRim)) + side,
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
    return rest;
}

}  // namespace ocular_bean_counter

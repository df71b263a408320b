// One object on a backdrop (training pictures), cut out by GrabCut; and scenes made of such objects.
#include "Bridging.hpp"
#include "OcularAlgorithms.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ocular_bridge;

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

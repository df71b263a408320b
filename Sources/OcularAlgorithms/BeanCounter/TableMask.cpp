// What is table and what is not: the mask of what stands out from the fitted surface, cleaned of
// specks and of the table showing through a hole.
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <vector>


namespace ocular_bean_counter {

void cleanMask(cv::Mat &mask) {
    const cv::Mat square = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3));
    cv::morphologyEx(mask, mask, cv::MORPH_OPEN, square);
    cv::morphologyEx(mask, mask, cv::MORPH_CLOSE, square);
}

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

void compareWithTable(const cv::Mat &working, const BackgroundSurface &table, float darker, float brighter, float tint,
                      cv::Mat &objects, cv::Mat &brightnessMap, cv::Mat &leanMap, cv::Mat &ratioMap) {
    objects.create(working.size(), CV_8U);
    brightnessMap.create(working.size(), CV_32F);
    leanMap.create(working.size(), CV_32F);
    ratioMap.create(working.size(), CV_32FC3);
    // Rows are independent: bands of them on every core (OpenCV's own thread pool). In floats, with
    // the background's reciprocal worked out a row at a time, so a pixel costs one division where
    // it cost six in doubles: this loop was the finding's dearest after the circle search.
    cv::parallel_for_(cv::Range(0, working.rows), [&](const cv::Range &rows) {
        std::vector<float> inverses(3 * static_cast<size_t>(working.cols));
        for (int y = rows.start; y < rows.end; ++y) {
            const cv::Vec3b *row = working.ptr<cv::Vec3b>(y);
            uint8_t *out = objects.ptr<uint8_t>(y);
            float *bright = brightnessMap.ptr<float>(y), *leaning = leanMap.ptr<float>(y);
            cv::Vec3f *ratios = ratioMap.ptr<cv::Vec3f>(y);
            const double fy = 2.0 * (y + 0.5) / working.rows - 1;
            // Along a row the surface is a polynomial in x alone (``BackgroundSurface::row``); each
            // channel's 1 / (surface + 1) there.
            for (int c = 0; c < 3; ++c) {
                double k[4];
                table.row(c, fy, k);
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
}

void clearTablePockets(cv::Mat &objects, const cv::Mat &marked, const cv::Mat &brightnessMap, const cv::Mat &leanMap,
                       const OcularBlobSeparationSettings &settings) {
    cv::Mat holes = objects & (marked == 0), pockets;
    const int count = cv::connectedComponents(holes, pockets, 4, CV_32S);
    std::vector<double> brightness(count, 0), lean(count, 0);
    std::vector<int> size(count, 0);
    for (int y = 0; y < pockets.rows; ++y) {
        const int32_t *pocket = pockets.ptr<int32_t>(y);
        const float *bright = brightnessMap.ptr<float>(y), *leaning = leanMap.ptr<float>(y);
        for (int x = 0; x < pockets.cols; ++x) {
            if (pocket[x] <= 0) continue;
            brightness[pocket[x]] += bright[x];
            lean[pocket[x]] += leaning[x];
            ++size[pocket[x]];
        }
    }
    std::vector<uint8_t> table(count, 0);
    for (int pocket = 1; pocket < count; ++pocket)
        table[pocket] = std::abs(brightness[pocket] / size[pocket] - 1) < settings.pocketBrightness && lean[pocket] / size[pocket] < settings.pocketLean;
    for (int y = 0; y < pockets.rows; ++y) {
        const int32_t *pocket = pockets.ptr<int32_t>(y);
        uint8_t *object = objects.ptr<uint8_t>(y);
        for (int x = 0; x < pockets.cols; ++x) if (pocket[x] > 0 && table[pocket[x]]) object[x] = 0;
    }
}

}  // namespace ocular_bean_counter

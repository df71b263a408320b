// Blending as the textbook writes it, call by call: inverted edges, Screen, Multiply, Hue.
#include "Support.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

using namespace bench_baseline;

bool baseline_invert(const uint8_t *bgra, int32_t width, int32_t height, uint8_t *inverted, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, 1, error)) return false;
        cv::Mat output(height, width, CV_8UC4, inverted);
        cv::subtract(cv::Scalar::all(255), bgraView(bgra, width, height), output);
        return output.data == inverted;
    });
}

bool baseline_hud_inverted_edges(const uint8_t *bgra, int32_t width, int32_t height, uint8_t *inverted,
                                 BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, 1, error)) return false;
        cv::Mat blurred, edges, tinted;
        cv::GaussianBlur(bgraView(bgra, width, height), blurred, cv::Size(5, 5), 0);
        cv::Laplacian(blurred, edges, -1, 3);
        cv::multiply(edges, cv::Scalar(0, 1, 0.5, 1), tinted);
        cv::Mat output(height, width, CV_8UC4, inverted);
        cv::subtract(cv::Scalar::all(255), tinted, output);
        return output.data == inverted;
    });
}

bool baseline_screen_textbook(const uint8_t *frame, const uint8_t *invertedSource, int32_t width, int32_t height,
                              int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(frame, width, height, iterations, error)) return false;
        const cv::Mat backdrop = bgraView(frame, width, height), inverted = bgraView(invertedSource, width, height);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat invertedFrame, product, screened;
            cv::subtract(cv::Scalar::all(255), backdrop, invertedFrame);
            cv::multiply(invertedFrame, inverted, product, 1 / 255.0);
            cv::subtract(cv::Scalar::all(255), product, screened);
            return screened;
        });
        return true;
    });
}

bool baseline_multiply_textbook(const uint8_t *frame, const uint8_t *source, int32_t width, int32_t height,
                                int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(frame, width, height, iterations, error)) return false;
        const cv::Mat backdrop = bgraView(frame, width, height), picture = bgraView(source, width, height);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat product;
            cv::multiply(backdrop, picture, product, 1 / 255.0);
            return product;
        });
        return true;
    });
}

namespace {

/// Lum(C) = 0.3 R + 0.59 G + 0.11 B of float planes in B, G, R order.
cv::Mat luminosity(const std::vector<cv::Mat> &bgr) { return 0.11 * bgr[0] + 0.59 * bgr[1] + 0.3 * bgr[2]; }

cv::Mat planeMinimum(const std::vector<cv::Mat> &bgr) { return cv::min(bgr[0], cv::min(bgr[1], bgr[2])); }
cv::Mat planeMaximum(const std::vector<cv::Mat> &bgr) { return cv::max(bgr[0], cv::max(bgr[1], bgr[2])); }

}  // namespace

bool baseline_hue_op_by_op(const uint8_t *frame, const uint8_t *source, int32_t width, int32_t height,
                           int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(frame, width, height, iterations, error)) return false;
        const cv::Mat backdrop = bgraView(frame, width, height), picture = bgraView(source, width, height);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat backdropFloat, sourceFloat;
            backdrop.convertTo(backdropFloat, CV_32F);
            picture.convertTo(sourceFloat, CV_32F);
            std::vector<cv::Mat> cb, cs;
            cv::split(backdropFloat, cb);
            cv::split(sourceFloat, cs);
            // SetSat(Cs, Sat(Cb)): (Cs − min) · Sat(Cb) / (max − min), 0 where Cs is gray.
            const cv::Mat low = planeMinimum(cs), range = planeMaximum(cs) - low;
            cv::Mat scale;
            cv::divide(planeMaximum(cb) - planeMinimum(cb), range, scale);
            scale.setTo(0, range <= 0);
            std::vector<cv::Mat> c(3);
            for (int channel = 0; channel < 3; ++channel) c[channel] = (cs[channel] - low).mul(scale);
            // SetLum(C, Lum(Cb)).
            const cv::Mat shift = luminosity(cb) - luminosity(c);
            for (int channel = 0; channel < 3; ++channel) c[channel] += shift;
            // ClipColor.
            const cv::Mat l = luminosity(c), n = planeMinimum(c), x = planeMaximum(c);
            const cv::Mat below = n < 0, above = x > 255;
            cv::Mat lowScale, highScale;
            cv::divide(l, l - n, lowScale);
            cv::divide(255 - l, x - l, highScale);
            for (int channel = 0; channel < 3; ++channel) {
                cv::Mat offset = c[channel] - l;
                cv::Mat(l + offset.mul(lowScale)).copyTo(c[channel], below);
                offset = c[channel] - l;
                cv::Mat(l + offset.mul(highScale)).copyTo(c[channel], above);
            }
            c.push_back(cb[3]);
            cv::Mat merged, output;
            cv::merge(c, merged);
            merged.convertTo(output, CV_8U);
            return output;
        });
        return true;
    });
}

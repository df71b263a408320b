// The Core Image–style filters, as OpenCV calls one after another.
#include "Support.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/photo.hpp>
#include <opencv2/xphoto/white_balance.hpp>

#include <algorithm>
#include <cmath>

using namespace bench_baseline;

bool baseline_filters(int32_t which, const uint8_t *bgr, int32_t width, int32_t height, const float *colourControls,
                      const uint8_t *exposure, const uint8_t *gamma, const float *hue, float vibrance, double sigma,
                      int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgr, width, height, iterations, error)) return false;
        const cv::Mat frame(height, width, CV_8UC3, const_cast<uint8_t *>(bgr));
        const cv::Mat controls(3, 4, CV_32F, const_cast<float *>(colourControls)), turn(3, 4, CV_32F, const_cast<float *>(hue));
        const cv::Mat exposureTable(1, 256, CV_8UC1, const_cast<uint8_t *>(exposure)), gammaTable(1, 256, CV_8UC1, const_cast<uint8_t *>(gamma));
        timeCalls(iterations, samples, checksum, [&]() -> cv::Mat {
            cv::Mat out;
            // Vibrance in floats: c + (max − c)·(max − mean)·(−3·amount/255), per channel.
            const auto vibrant = [&](const cv::Mat &input) {
                cv::Mat floats, result;
                input.convertTo(floats, CV_32F);
                std::vector<cv::Mat> channels;
                cv::split(floats, channels);
                const cv::Mat largest = cv::max(cv::max(channels[0], channels[1]), channels[2]);
                const cv::Mat weight = (largest - (channels[0] + channels[1] + channels[2]) * (1.0 / 3)) * (-3.0 * vibrance / 255);
                for (auto &channel : channels) channel += (largest - channel).mul(weight);
                cv::merge(channels, floats);
                floats.convertTo(result, CV_8U);
                return result;
            };
            switch (which) {
            case 0:
                // The five filters one call after another, each writing an 8-bit picture.
                cv::transform(frame, out, controls);
                cv::LUT(out, exposureTable, out);
                cv::LUT(out, gammaTable, out);
                cv::transform(out, out, turn);
                return vibrant(out);
            case 1: cv::GaussianBlur(frame, out, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE); break;
            case 2: cv::transform(frame, out, controls); break;
            case 3: cv::LUT(frame, exposureTable, out); break;
            case 4: cv::LUT(frame, gammaTable, out); break;
            case 5: cv::transform(frame, out, turn); break;
            case 6: out = vibrant(frame); break;
            default: throw std::invalid_argument("unknown filter row " + std::to_string(which));
            }
            return out;
        });
        return true;
    });
}

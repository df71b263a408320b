// The stages' per-frame work: gray, white balance, tint, zoom, a JPEG round trip, a frame copied.
#include "Support.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/xphoto/white_balance.hpp>

#include <algorithm>
#include <cmath>

using namespace bench_baseline;

bool baseline_gray(const uint8_t *bgra, int32_t width, int32_t height, int32_t iterations, double *samples,
                   uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const cv::Mat source = bgraView(bgra, width, height);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat gray;  // fresh, as Image.converted(to:) returns a new image
            cv::cvtColor(source, gray, cv::COLOR_BGRA2GRAY);
            return gray;
        });
        return true;
    });
}

// Each channel times its factor, rounded and saturated: OpenCVBridge's ocv_multiply_channels, a 256-entry
// table per channel through cv::LUT (the same bytes cv::multiply by the Scalar gives, without its doubles).
static void multiplyChannels(const cv::Mat &input, const cv::Scalar &scale, cv::Mat &output) {
    cv::Mat table(1, 256, CV_8UC(input.channels()));
    for (int value = 0; value < 256; ++value) {
        for (int channel = 0; channel < input.channels(); ++channel) {
            table.ptr<uint8_t>()[value * input.channels() + channel] = cv::saturate_cast<uint8_t>(value * scale[channel]);
        }
    }
    cv::LUT(input, table, output);
}

bool baseline_white_balance(const uint8_t *bgra, int32_t width, int32_t height, float saturationThreshold,
                            int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const cv::Mat source = bgraView(bgra, width, height);
        const unsigned threshold255 = static_cast<unsigned>(cvRound(saturationThreshold * 255));
        timeCalls(iterations, samples, checksum, [&] {
            // Gray-world channel sums over the pixels xphoto's GrayworldWB counts, in row stripes.
            std::mutex lock;
            uint64_t totals[3] = {0, 0, 0};
            cv::parallel_for_(cv::Range(0, source.rows), [&](const cv::Range &rows) {
                uint64_t sums[3] = {0, 0, 0};
                for (int y = rows.start; y < rows.end; ++y) {
                    const uint8_t *pixel = source.ptr<uint8_t>(y);
                    for (int x = 0; x < source.cols; ++x, pixel += 4) {
                        const unsigned b = pixel[0], g = pixel[1], r = pixel[2];
                        const unsigned low = std::min(b, std::min(g, r)), high = std::max(b, std::max(g, r));
                        const bool counts = (high - low) * 255 <= threshold255 * high;
                        sums[0] += counts ? b : 0;
                        sums[1] += counts ? g : 0;
                        sums[2] += counts ? r : 0;
                    }
                }
                std::lock_guard<std::mutex> guard(lock);
                for (int channel = 0; channel < 3; ++channel) totals[channel] += sums[channel];
            }, cv::getNumThreads());
            // Gains ∝ 1 / sum, scaled to keep the mean BT.601 luma; alpha unchanged.
            const cv::Scalar means = cv::mean(source);
            const double weights[3] = {0.114, 0.587, 0.299};
            double inverse[3], luma = 0, balanced = 0;
            for (int channel = 0; channel < 3; ++channel) {
                inverse[channel] = totals[channel] ? 1.0 / static_cast<double>(totals[channel]) : 0;
                luma += weights[channel] * means[channel];
                balanced += weights[channel] * inverse[channel] * means[channel];
            }
            const double scale = balanced > 0 ? luma / balanced : 1;
            cv::Mat output;
            multiplyChannels(source, cv::Scalar(inverse[0] * scale, inverse[1] * scale, inverse[2] * scale, 1.0), output);
            return output;
        });
        return true;
    });
}

bool baseline_tint(const uint8_t *bgra, int32_t width, int32_t height, double red, double green, double blue,
                   int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const cv::Mat source = bgraView(bgra, width, height);
        const cv::Scalar factors(blue, green, red, 1.0);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat tinted;
            multiplyChannels(source, factors, tinted);
            return tinted;
        });
        return true;
    });
}

bool baseline_zoom(const uint8_t *bgra, int32_t width, int32_t height, double factor, int32_t iterations,
                   double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const cv::Mat source = bgraView(bgra, width, height);
        // Image.zoomed's arithmetic, step for step, about the middle (0.5, 0.5).
        const double w = width, h = height, shape = double(width) / double(height);
        const double fieldWidth = w / h > shape ? h * shape : w, fieldHeight = w / h > shape ? h : w / shape;
        const double cropWidth = fieldWidth / factor, cropHeight = fieldHeight / factor;
        const double middleX = std::min(std::max(0.5 * w, cropWidth / 2), w - cropWidth / 2);
        const double middleY = std::min(std::max(0.5 * h, cropHeight / 2), h - cropHeight / 2);
        const double left = middleX - cropWidth / 2, top = middleY - cropHeight / 2;
        const double scale = double(width) / cropWidth;
        const double coefficients[6] = {scale, 0, scale * (0.5 - left) - 0.5, 0, scale, scale * (0.5 - top) - 0.5};
        const cv::Mat map(2, 3, CV_64F, const_cast<double *>(coefficients));
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat zoomed(height, width, CV_8UC4);
            cv::warpAffine(source, zoomed, map, zoomed.size(), cv::INTER_CUBIC, cv::BORDER_REPLICATE);
            return zoomed;
        });
        return true;
    });
}

bool baseline_jpeg_round_trip(const uint8_t *jpeg, size_t count, int32_t quality, int32_t iterations,
                              double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(jpeg, count > 0 ? 1 : 0, 1, iterations, error)) return false;
        const cv::Mat encoded(1, static_cast<int>(count), CV_8UC1, const_cast<uint8_t *>(jpeg));
        const std::vector<int> parameters = {cv::IMWRITE_JPEG_QUALITY, quality};
        timeCalls(iterations, samples, checksum, [&] {
            const cv::Mat image = cv::imdecode(encoded, cv::IMREAD_COLOR);
            if (image.empty()) throw std::runtime_error("cv::imdecode could not read the JPEG");
            std::vector<uchar> output;
            if (!cv::imencode(".jpg", image, output, parameters)) throw std::runtime_error("cv::imencode refused the image");
            return output;
        });
        return true;
    });
}

bool baseline_copy_frame(const uint8_t *bgra, int32_t width, int32_t height, int32_t iterations, double *samples,
                         BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const size_t count = static_cast<size_t>(width) * static_cast<size_t>(height) * 4;
        std::vector<uint8_t> copy(count);
        for (int32_t iteration = 0; iteration < iterations; ++iteration) {
            const auto start = Clock::now();
            std::memcpy(copy.data(), bgra, count);
            samples[iteration] = nanoseconds(start, Clock::now());
            if (copy[count / 2] != bgra[count / 2]) throw std::runtime_error("memcpy did not copy");
        }
        return true;
    });
}

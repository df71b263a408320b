#include "OpenCVReference.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

int reference_decode(const void *bytes, size_t count, int mode, ReferenceImage *image) {
    *image = ReferenceImage{nullptr, 0, 0, 0};
    if (count == 0 || count > static_cast<size_t>(INT_MAX)) return -1;
    try {
        const cv::Mat encoded(1, static_cast<int>(count), CV_8UC1, const_cast<void *>(bytes));
        cv::Mat decoded = cv::imdecode(encoded, mode);
        if (decoded.empty()) return -1;
        if (decoded.depth() == CV_16U) {
            decoded.convertTo(decoded, CV_8U, 1.0 / 257.0);
        } else if (decoded.depth() != CV_8U) {
            cv::Mat scaled;
            cv::normalize(decoded, scaled, 0, 255, cv::NORM_MINMAX, CV_8U);
            decoded = scaled;
        }
        if (decoded.channels() == 2) {
            std::vector<cv::Mat> planes;
            cv::split(decoded, planes);
            const cv::Mat gray_alpha[] = {planes[0], planes[0], planes[0], planes[1]};
            cv::merge(gray_alpha, 4, decoded);
        }
        const size_t row_bytes = static_cast<size_t>(decoded.cols) * decoded.elemSize();
        auto *pixels = static_cast<uint8_t *>(std::malloc(row_bytes * decoded.rows));
        if (!pixels) return -1;
        for (int row = 0; row < decoded.rows; ++row) std::memcpy(pixels + row * row_bytes, decoded.ptr(row), row_bytes);
        *image = ReferenceImage{pixels, decoded.cols, decoded.rows, decoded.channels()};
        return 0;
    } catch (...) {
        return -1;
    }
}

void reference_image_free(ReferenceImage *image) {
    std::free(image->bytes);
    image->bytes = nullptr;
}

int reference_encode_jpeg(const uint8_t *pixels, int32_t columns, int32_t rows, int64_t bytesPerRow, int32_t quality, uint8_t **bytes,
                          size_t *count) {
    *bytes = nullptr;
    *count = 0;
    try {
        const cv::Mat image(rows, columns, CV_8UC3, const_cast<uint8_t *>(pixels), static_cast<size_t>(bytesPerRow));
        std::vector<uchar> encoded;
        if (!cv::imencode(".jpg", image, encoded, {cv::IMWRITE_JPEG_QUALITY, quality})) return -1;
        *bytes = static_cast<uint8_t *>(std::malloc(encoded.size()));
        if (!*bytes) return -1;
        std::memcpy(*bytes, encoded.data(), encoded.size());
        *count = encoded.size();
        return 0;
    } catch (...) {
        return -1;
    }
}

int reference_edges(const char *path, int method, double low, double high, int aperture, int direction, double scale,
                    ReferenceImage *image) {
    *image = ReferenceImage{nullptr, 0, 0, 0};
    try {
        const cv::Mat colour = cv::imread(path, cv::IMREAD_COLOR);
        if (colour.empty()) return -1;
        cv::Mat gray, edges;
        cv::cvtColor(colour, gray, cv::COLOR_BGR2GRAY);
        if (method == 0) {
            cv::Canny(gray, edges, low, high, aperture);
        } else {
            const auto derivative = [&](int dx, int dy, cv::Mat &result) {
                if (method == 2) cv::Scharr(gray, result, CV_32F, dx, dy);
                else cv::Sobel(gray, result, CV_32F, dx, dy, aperture);
            };
            if (direction == 2) {
                cv::Mat gx, gy, magnitude;
                derivative(1, 0, gx);
                derivative(0, 1, gy);
                cv::magnitude(gx, gy, magnitude);
                magnitude.convertTo(edges, CV_8U, scale);
            } else {
                cv::Mat slope;
                derivative(direction == 0 ? 1 : 0, direction == 1 ? 1 : 0, slope);
                cv::convertScaleAbs(slope, edges, scale);
            }
        }
        const size_t count = edges.total();
        image->bytes = static_cast<uint8_t *>(std::malloc(count));
        if (!image->bytes) return -1;
        for (int row = 0; row < edges.rows; ++row) std::memcpy(image->bytes + row * edges.cols, edges.ptr(row), static_cast<size_t>(edges.cols));
        image->columns = edges.cols;
        image->rows = edges.rows;
        image->channels = 1;
        return 0;
    } catch (...) {
        return -1;
    }
}

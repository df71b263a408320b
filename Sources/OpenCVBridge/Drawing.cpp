// imgproc's drawing functions: rectangles, circles, polylines, text and labelled tags.
#include "Bridging.hpp"
#include "OpenCVBridge.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ocular_bridge;

OCVStatus ocv_draw_rectangle(const OCVImage *image, int32_t x, int32_t y, int32_t width, int32_t height,
                             const double *colour, int32_t thickness, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        cv::rectangle(canvas, cv::Rect(x, y, width, height), cv::Scalar(colour[0], colour[1], colour[2], colour[3]),
                      thickness, cv::LINE_8);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_draw_circle(const OCVImage *image, double x, double y, int32_t radius, const double *colour,
                          int32_t thickness, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        // Sub-pixel centres: 2 fractional bits (quarter pixels).
        const int shift = 2;
        cv::circle(canvas, cv::Point(cvRound(x * (1 << shift)), cvRound(y * (1 << shift))), radius << shift,
                   cv::Scalar(colour[0], colour[1], colour[2], colour[3]), thickness, cv::LINE_8, shift);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_draw_polyline(const OCVImage *image, const double *points, int32_t count, const double *colour,
                            int32_t thickness, OCVError *error) {
    return fenced(error, [&] {
        if (count < 2 || thickness < 1 || thickness > 64) {
            setMessage(error, "a line needs 2 or more points (got %d) and a thickness of 1 to 64 (got %d)", int(count), int(thickness));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat canvas = matrix(image);
        // Sub-pixel vertices: 4 fractional bits; anti-aliased, as a chart's slanted lines should be.
        const int shift = 4;
        std::vector<cv::Point> vertices;
        vertices.reserve(size_t(count));
        for (int32_t i = 0; i < count; ++i) {
            vertices.emplace_back(cvRound(points[2 * i] * (1 << shift)), cvRound(points[2 * i + 1] * (1 << shift)));
        }
        cv::polylines(canvas, vertices, false, cv::Scalar(colour[0], colour[1], colour[2], colour[3]), thickness,
                      cv::LINE_AA, shift);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_draw_text(const OCVImage *image, const char *text, double x, double y, double height, int32_t anchor,
                        const double *colour, OCVError *error) {
    return fenced(error, [&] {
        if (!(height >= 4 && height <= 400) || anchor < 0 || anchor > 2) {
            setMessage(error, "text needs a height of 4 to 400 pixels (got %g) and an anchor of 0, 1 or 2 (got %d)", height, int(anchor));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat canvas = matrix(image);
        const int font = cv::FONT_HERSHEY_SIMPLEX;
        const double scale = height / 22.0;
        const int thickness = std::max(1, static_cast<int>(std::lround(height / 12)));
        int baseline = 0;
        const cv::Size size = cv::getTextSize(text, font, scale, thickness, &baseline);
        const double left = x - size.width * anchor / 2.0;
        cv::putText(canvas, text, cv::Point(cvRound(left), cvRound(y)), font, scale,
                    cv::Scalar(colour[0], colour[1], colour[2], colour[3]), thickness, cv::LINE_AA);
        return OCV_STATUS_OK;
    });
}

namespace {
/// Where a label's letters and tag go: shared by drawing and measuring, so a tag measured is the tag drawn.
struct LabelLayout {
    static constexpr int font = cv::FONT_HERSHEY_SIMPLEX;
    double scale;
    int thickness, pad, width, tall;
    cv::Size text;

    LabelLayout(const char *label, double height) {
        scale = height / 22.0;
        thickness = std::max(1, static_cast<int>(std::lround(height / 12)));
        int baseline = 0;
        text = cv::getTextSize(label, font, scale, thickness, &baseline);
        pad = std::max(2, static_cast<int>(height / 5));
        width = text.width + 2 * pad;
        tall = text.height + baseline + 2 * pad;
    }
};
}  // namespace

void ocv_label_size(const char *text, double height, int32_t *width, int32_t *tall) {
    *width = 0;
    *tall = 0;
    if (!(height >= 4 && height <= 400)) return;
    try {
        const LabelLayout layout(text, height);
        *width = layout.width;
        *tall = layout.tall;
    } catch (...) {
    }
}

OCVStatus ocv_draw_label(const OCVImage *image, const char *text, int32_t x, int32_t y, double height, const double *colour,
                         const double *ink, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        if (!(height >= 4 && height <= 400)) {
            setMessage(error, "a label's height must be 4 to 400 pixels, got %g", height);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // Hershey's simplex at the scale that makes capitals `height` pixels tall, on a filled tag so
        // it reads over any picture; the tag stays inside the picture.
        const LabelLayout layout(text, height);
        const int font = LabelLayout::font, thickness = layout.thickness, pad = layout.pad, width = layout.width, tall = layout.tall;
        const double scale = layout.scale;
        const cv::Size size = layout.text;
        const int left = std::clamp(x, 0, std::max(0, canvas.cols - width));
        const int top = std::clamp(y, 0, std::max(0, canvas.rows - tall));
        const cv::Scalar fill(colour[0], colour[1], colour[2], colour[3]), letters(ink[0], ink[1], ink[2], ink[3]);
        cv::rectangle(canvas, cv::Rect(left, top, width, tall), fill, cv::FILLED, cv::LINE_8);
        cv::putText(canvas, text, cv::Point(left + pad, top + pad + size.height), font, scale, letters, thickness, cv::LINE_AA);
        return OCV_STATUS_OK;
    });
}

// imgproc's image filtering and histograms: Gaussian blur, the Laplacian edge image, histogram equalisation
// and CLAHE; and its structural analysis: a mask's outline as a polygon.
#include "Bridging.hpp"
#include "OpenCVBridge.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <vector>

using namespace ocular_bridge;

OCVStatus ocv_mask_outline(const OCVImage *mask, double tolerance, double *points, int32_t capacity, int32_t *count,
                           OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        const cv::Mat region = matrix(mask);
        if (region.type() != CV_8UC1) {
            setMessage(error, "an outline is traced on an 8-bit gray mask, got type %d", region.type());
            return OCV_STATUS_BAD_ARGUMENT;
        }
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(region, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
        if (contours.empty()) return OCV_STATUS_OK;
        const auto largest = std::max_element(contours.begin(), contours.end(), [](const auto &a, const auto &b) {
            return cv::contourArea(a) < cv::contourArea(b);
        });
        std::vector<cv::Point> simplified;
        cv::approxPolyDP(*largest, simplified, tolerance, true);
        *count = static_cast<int32_t>(simplified.size());
        for (size_t index = 0; index < simplified.size() && index < static_cast<size_t>(std::max(capacity, 0)); ++index) {
            points[2 * index] = simplified[index].x;
            points[2 * index + 1] = simplified[index].y;
        }
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_gaussian_blur(const OCVImage *source, const OCVImage *destination, double sigma, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::GaussianBlur(matrix(source), output, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_equalize_histogram(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::equalizeHist(matrix(source), output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_equalize_clahe(const OCVImage *source, const OCVImage *destination, double clipLimit, int32_t tiles,
                             OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        // Creating the CLAHE object is cheap next to applying it; one per call keeps the bridge stateless.
        cv::createCLAHE(clipLimit, cv::Size(tiles, tiles))->apply(matrix(source), output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_edge_image(const OCVImage *source, const OCVImage *destination, const double *channelFactors,
                         OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination), blurred, edges;
        cv::GaussianBlur(input, blurred, cv::Size(5, 5), 0);
        cv::Laplacian(blurred, edges, -1, 3);
        cv::Scalar factors;
        for (int channel = 0; channel < input.channels() && channel < 4; ++channel) factors[channel] = channelFactors[channel];
        cv::multiply(edges, factors, output);
        return checkWrittenInPlace(output, destination, error);
    });
}

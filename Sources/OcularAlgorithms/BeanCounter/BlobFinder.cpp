// Blob detection against a plain background, the textbook's: kept in one call so the half-size frame,
// the mask and the contours stay in buffers reused from frame to frame.
#include "Bridging.hpp"
#include "OcularAlgorithms.h"
#include "BlobFinder.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>

using namespace ocular_bridge;

OCVStatus ocular_blob_finder_create(OcularBlobFinder **finder, OCVError *error) {
    *finder = nullptr;
    return fenced(error, [&] {
        *finder = new OcularBlobFinder();
        return OCV_STATUS_OK;
    });
}

void ocular_blob_finder_release(OcularBlobFinder *finder) { delete finder; }

OCVStatus ocular_blob_finder_find(OcularBlobFinder *finder, const OCVImage *image, const OcularBlobSettings *settings,
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

void ocular_blob_finder_rectangles(const OcularBlobFinder *finder, OCVRectangle *rectangles, int32_t capacity) {
    const size_t count = std::min(finder->rectangles.size(), static_cast<size_t>(std::max(capacity, 0)));
    for (size_t index = 0; index < count; ++index) {
        const cv::Rect &found = finder->rectangles[index];
        rectangles[index] = OCVRectangle{found.x, found.y, found.width, found.height};
    }
}

OCVImage ocular_blob_finder_mask(const OcularBlobFinder *finder) {
    const cv::Mat &mask = finder->mask;
    return OCVImage{mask.data, mask.cols, mask.rows, static_cast<int64_t>(mask.step), OCV_8UC1};
}

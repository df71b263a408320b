#include "OpenCVCascades.h"

// The exception fence and matrix views are OpenCVBridge's (header-only, not part of its C module).
#include "../OpenCVBridge/Bridging.hpp"

#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <vector>

using namespace ocular_bridge;

struct OCVCascade {
    cv::CascadeClassifier classifier;
    std::vector<cv::Rect> objects;
    std::vector<int> neighbours;
};

OCVStatus ocv_cascade_load(const char *path, OCVCascade **cascade, OCVError *error) {
    *cascade = nullptr;
    return fenced(error, [&] {
        auto loaded = std::make_unique<OCVCascade>();
        if (!loaded->classifier.load(path) || loaded->classifier.empty()) {
            setMessage(error, "OpenCV reads no cascade classifier from it");
            return OCV_STATUS_OPEN_FAILED;
        }
        *cascade = loaded.release();
        return OCV_STATUS_OK;
    });
}

void ocv_cascade_window(const OCVCascade *cascade, int32_t *width, int32_t *height) {
    const cv::Size size = cascade->classifier.getOriginalWindowSize();
    *width = size.width;
    *height = size.height;
}

OCVStatus ocv_cascade_detect(OCVCascade *cascade, const OCVImage *gray, double scaleFactor, int32_t minimumNeighbours,
                             int32_t minimumSize, int32_t maximumSize, int32_t *count, OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (gray->type != OCV_8UC1) {
            setMessage(error, "a cascade searches 8-bit gray images, got type %d", static_cast<int>(gray->type));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cascade->objects.clear();
        cascade->neighbours.clear();
        cascade->classifier.detectMultiScale(matrix(gray), cascade->objects, cascade->neighbours, scaleFactor,
                                             minimumNeighbours, 0, cv::Size(minimumSize, minimumSize),
                                             cv::Size(maximumSize, maximumSize));
        *count = static_cast<int32_t>(cascade->objects.size());
        return OCV_STATUS_OK;
    });
}

void ocv_cascade_detections(const OCVCascade *cascade, OCVDetection *detections, int32_t capacity) {
    const size_t count = std::min(cascade->objects.size(), static_cast<size_t>(std::max(capacity, 0)));
    for (size_t index = 0; index < count; ++index) {
        const cv::Rect &object = cascade->objects[index];
        const int agreeing = index < cascade->neighbours.size() ? cascade->neighbours[index] : 0;
        detections[index] = OCVDetection{object.x, object.y, object.width, object.height, agreeing};
    }
}

void ocv_cascade_release(OCVCascade *cascade) { delete cascade; }

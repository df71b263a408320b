#include "OpenCVNetworks.h"

// The exception fence and matrix views are OpenCVBridge's (header-only, not part of its C module).
#include "Bridging.hpp"

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect/face.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

using namespace ocular_bridge;

struct OCVNetwork {
    cv::dnn::Net net;
    std::vector<cv::Mat> outputs;
};

OCVStatus ocv_network_load_onnx(const char *path, OCVNetwork **network, OCVError *error) {
    *network = nullptr;
    return fenced(error, [&] {
        auto loaded = std::make_unique<OCVNetwork>();
        loaded->net = cv::dnn::readNetFromONNX(path);
        if (loaded->net.empty()) {
            setMessage(error, "OpenCV reads no network from it");
            return OCV_STATUS_OPEN_FAILED;
        }
        *network = loaded.release();
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_network_forward(OCVNetwork *network, const OCVImage *image, int32_t width, int32_t height, bool swapRedBlue,
                              const char *const *outputNames, int32_t outputCount, OCVError *error) {
    return fenced(error, [&] {
        if (image->type != OCV_8UC3) {
            setMessage(error, "a network reads 8-bit three-channel images, got type %d", static_cast<int>(image->type));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        if (width <= 0 || height <= 0 || outputCount <= 0) {
            setMessage(error, "a %dx%d input with %d outputs", width, height, outputCount);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const cv::Mat blob = cv::dnn::blobFromImage(matrix(image), 1.0, cv::Size(width, height), cv::Scalar(), swapRedBlue, false);
        network->net.setInput(blob);
        std::vector<cv::String> names(outputNames, outputNames + outputCount);
        network->outputs.clear();
        network->net.forward(network->outputs, names);
        return OCV_STATUS_OK;
    });
}

int64_t ocv_network_output_shape(const OCVNetwork *network, int32_t index, int32_t *dimensions) {
    std::fill(dimensions, dimensions + 4, 1);
    if (index < 0 || static_cast<size_t>(index) >= network->outputs.size()) return 0;
    const cv::Mat &output = network->outputs[static_cast<size_t>(index)];
    if (output.type() != CV_32F || !output.isContinuous()) return -1;
    for (int axis = 0; axis < std::min(output.dims, 4); ++axis) dimensions[4 - std::min(output.dims, 4) + axis] = output.size[axis];
    return static_cast<int64_t>(output.total());
}

void ocv_network_output(const OCVNetwork *network, int32_t index, float *into, int64_t capacity) {
    if (index < 0 || static_cast<size_t>(index) >= network->outputs.size()) return;
    const cv::Mat &output = network->outputs[static_cast<size_t>(index)];
    if (output.type() != CV_32F || !output.isContinuous()) return;
    const int64_t count = std::min(static_cast<int64_t>(output.total()), capacity);
    std::memcpy(into, output.ptr<float>(), static_cast<size_t>(count) * sizeof(float));
}

void ocv_network_release(OCVNetwork *network) { delete network; }

struct OCVFaceDetectorYN {
    cv::Ptr<cv::FaceDetectorYN> detector;
    cv::Size size;
};

OCVStatus ocv_yunet_create(const char *path, int32_t width, int32_t height, int32_t topK, OCVFaceDetectorYN **detector,
                           OCVError *error) {
    *detector = nullptr;
    return fenced(error, [&] {
        if (width <= 0 || height <= 0 || topK <= 0) {
            setMessage(error, "a %dx%d input keeping %d faces", width, height, topK);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        auto made = std::make_unique<OCVFaceDetectorYN>();
        made->size = cv::Size(width, height);
        made->detector = cv::FaceDetectorYN::create(path, "", made->size, 0.9f, 0.3f, topK);
        if (made->detector.empty()) {
            setMessage(error, "OpenCV reads no YuNet network from it");
            return OCV_STATUS_OPEN_FAILED;
        }
        *detector = made.release();
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_yunet_detect(OCVFaceDetectorYN *detector, const OCVImage *image, float scoreThreshold, float overlap, float *into,
                           int32_t capacity, int32_t *count, OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (image->type != OCV_8UC3 || image->columns != detector->size.width || image->rows != detector->size.height) {
            setMessage(error, "YuNet was made for %dx%d 8-bit BGR pictures, got %dx%d of type %d", detector->size.width,
                       detector->size.height, static_cast<int>(image->columns), static_cast<int>(image->rows), static_cast<int>(image->type));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        detector->detector->setScoreThreshold(scoreThreshold);
        detector->detector->setNMSThreshold(overlap);
        cv::Mat faces;
        detector->detector->detect(matrix(image), faces);
        if (faces.empty()) return OCV_STATUS_OK;
        if (faces.type() != CV_32F || faces.cols != 15 || !faces.isContinuous()) {
            setMessage(error, "YuNet answered a %dx%d matrix of type %d, not rows of 15 floats", faces.rows, faces.cols, faces.type());
            return OCV_STATUS_OPENCV_EXCEPTION;
        }
        const int32_t kept = std::min<int32_t>(faces.rows, capacity);
        std::memcpy(into, faces.ptr<float>(), static_cast<size_t>(kept) * 15 * sizeof(float));
        *count = kept;
        return OCV_STATUS_OK;
    });
}

void ocv_yunet_release(OCVFaceDetectorYN *detector) { delete detector; }

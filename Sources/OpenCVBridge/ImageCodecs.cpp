// Image decoding and encoding (imgcodecs).
#include "Bridging.hpp"

#include <opencv2/imgcodecs.hpp>

#include <vector>

using namespace ocular_bridge;

struct OCVBytes {
    std::vector<uchar> bytes;
};

OCULAR_SAME_VALUE(OCV_READ_UNCHANGED, cv::IMREAD_UNCHANGED);
OCULAR_SAME_VALUE(OCV_READ_GRAYSCALE, cv::IMREAD_GRAYSCALE);
OCULAR_SAME_VALUE(OCV_READ_COLOR, cv::IMREAD_COLOR);
OCULAR_SAME_VALUE(OCV_READ_ANYCOLOR, cv::IMREAD_ANYCOLOR);
OCULAR_SAME_VALUE(OCV_WRITE_JPEG_QUALITY, cv::IMWRITE_JPEG_QUALITY);
OCULAR_SAME_VALUE(OCV_WRITE_PNG_COMPRESSION, cv::IMWRITE_PNG_COMPRESSION);

OCVImage ocv_matrix_view(const OCVMatrix *matrix) { return view(matrix->matrix); }

void ocv_matrix_release(OCVMatrix *matrix) { delete matrix; }

/// Brings what IMREAD_UNCHANGED may return (16-bit, gray+alpha) to the 8-bit types Ocular knows.
static void normalise(cv::Mat &image) {
    if (image.depth() == CV_16U) {
        image.convertTo(image, CV_8U, 1.0 / 257.0);
    } else if (image.depth() != CV_8U) {
        cv::Mat scaled;
        cv::normalize(image, scaled, 0, 255, cv::NORM_MINMAX, CV_8U);
        image = scaled;
    }
    if (image.channels() == 2) {
        std::vector<cv::Mat> planes;
        cv::split(image, planes);
        cv::Mat bgra;
        const cv::Mat merged[] = {planes[0], planes[0], planes[0], planes[1]};
        cv::merge(merged, 4, bgra);
        image = bgra;
    }
}

OCVStatus ocv_decode_image(const void *bytes, size_t count, OCVReadMode mode, const OCVImage *into,
                           OCVMatrix **decoded, OCVError *error) {
    *decoded = nullptr;
    return fenced(error, [&] {
        const cv::Mat encoded(1, static_cast<int>(count), CV_8UC1, const_cast<void *>(bytes));
        cv::Mat image = into ? matrix(into) : cv::Mat();
        cv::imdecode(encoded, static_cast<int>(mode), &image);
        if (image.empty()) {
            setMessage(error, "no OpenCV decoder could read the data");
            return OCV_STATUS_DECODE_FAILED;
        }
        if (into && image.data == into->data) return OCV_STATUS_OK;
        normalise(image);
        *decoded = new OCVMatrix{image};
        return OCV_STATUS_OK;
    });
}

const uint8_t *ocv_bytes_data(const OCVBytes *bytes) { return bytes->bytes.data(); }

size_t ocv_bytes_count(const OCVBytes *bytes) { return bytes->bytes.size(); }

void ocv_bytes_release(OCVBytes *bytes) { delete bytes; }

OCVStatus ocv_encode_image(const char *fileExtension, const OCVImage *image, const int32_t *parameters,
                           int32_t parameterCount, OCVBytes **encoded, OCVError *error) {
    *encoded = nullptr;
    return fenced(error, [&] {
        std::vector<int> flags(parameters, parameters + (parameters ? parameterCount : 0));
        auto output = new OCVBytes();
        bool written = false;
        try {
            written = cv::imencode(fileExtension, matrix(image), output->bytes, flags);
        } catch (...) {
            delete output;
            throw;
        }
        if (!written) {
            delete output;
            setMessage(error, "the %s encoder refused the image", fileExtension);
            return OCV_STATUS_ENCODE_FAILED;
        }
        *encoded = output;
        return OCV_STATUS_OK;
    });
}

bool ocv_can_write_image(const char *fileName) {
    try {
        return cv::haveImageWriter(fileName);
    } catch (...) {
        return false;
    }
}

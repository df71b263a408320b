// Image decoding and encoding (imgcodecs).
#include "Bridging.hpp"

#include <opencv2/imgcodecs.hpp>

#include <optional>
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

/// Lends the caller's buffer to the one matrix OpenCV creates with exactly its size and type, and the
/// standard allocator everything else.
///
/// Why not hand cv::imdecode a matrix header over the buffer: when a decoder fails while reading the
/// header (a PNG whose IHDR CRC is wrong, bytes no decoder claims), imdecode returns that header
/// untouched, and its pixels (uninitialised memory, possibly another client's frame) would pass
/// for a decoded image. Through the allocator the destination stays empty until a decoder has
/// created it, and imdecode empties it again when the pixel data then fails.
class LendingAllocator final : public cv::MatAllocator {
  public:
    explicit LendingAllocator(const OCVImage &buffer) : buffer_(buffer) {}

    /// Whether OpenCV wrote into the lent buffer.
    bool lent() const { return lent_; }

    cv::UMatData *allocate(int dims, const int *sizes, int type, void *data, size_t *step, cv::AccessFlag flags,
                           cv::UMatUsageFlags usage) const override {
        const bool fits = !lent_ && data == nullptr && dims == 2 && sizes[0] == buffer_.rows &&
                          sizes[1] == buffer_.columns && type == static_cast<int>(buffer_.type);
        if (!fits) return standard()->allocate(dims, sizes, type, data, step, flags, usage);
        lent_ = true;
        step[1] = CV_ELEM_SIZE(type);
        step[0] = static_cast<size_t>(buffer_.bytesPerRow);
        auto *lending = new cv::UMatData(this);
        lending->data = lending->origdata = static_cast<uchar *>(buffer_.data);
        lending->size = step[0] * static_cast<size_t>(sizes[0]);
        lending->flags |= cv::UMatData::USER_ALLOCATED;  // never freed by OpenCV: the caller owns it
        return lending;
    }

    bool allocate(cv::UMatData *data, cv::AccessFlag flags, cv::UMatUsageFlags usage) const override {
        return data != nullptr && data->currAllocator != this ? standard()->allocate(data, flags, usage) : data != nullptr;
    }

    void deallocate(cv::UMatData *data) const override {
        if (data == nullptr) return;
        if (data->currAllocator != this) return standard()->deallocate(data);
        delete data;
    }

  private:
    static cv::MatAllocator *standard() { return cv::Mat::getStdAllocator(); }

    OCVImage buffer_;
    mutable bool lent_ = false;
};

OCVStatus ocv_decode_image(const void *bytes, size_t count, OCVReadMode mode, const OCVImage *into,
                           OCVMatrix **decoded, OCVError *error) {
    *decoded = nullptr;
    return fenced(error, [&] {
        if (count > static_cast<size_t>(INT32_MAX)) {
            setMessage(error, "%zu bytes are more than OpenCV decodes at once (2 GiB)", count);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const cv::Mat encoded(1, static_cast<int>(count), CV_8UC1, const_cast<void *>(bytes));
        // Declared before the matrix that uses it: the matrix releases its pixels first.
        std::optional<LendingAllocator> lending;
        cv::Mat image;
        if (into) {
            lending.emplace(*into);
            image.allocator = &*lending;
        }
        cv::imdecode(encoded, static_cast<int>(mode), &image);
        if (image.empty()) {
            setMessage(error, "no OpenCV decoder could read the data");
            return OCV_STATUS_DECODE_FAILED;
        }
        if (into && image.data == into->data) return OCV_STATUS_OK;
        // Decoded elsewhere (EXIF rotation, 16-bit, another size): hand over an independent copy
        // whose storage the lending allocator does not manage.
        cv::Mat owned;
        if (lending && image.u != nullptr && image.u->currAllocator == &*lending) {
            image.copyTo(owned);
        } else {
            owned = image;
        }
        image.release();
        normalise(owned);
        *decoded = new OCVMatrix{owned};
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

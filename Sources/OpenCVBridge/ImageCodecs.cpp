// Image decoding and encoding (imgcodecs).
#include "Codecs.hpp"

#include <strings.h>

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
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

/// Whether JPEG data reaches its end-of-image marker, walking the markers and the entropy-coded
/// segments the way libjpeg reads them.
///
/// Why: OpenCV's in-memory JPEG source suspends libjpeg when the data runs out, and its decoder does
/// not check for the suspension. The rows never decoded are then copied out of libjpeg's own
/// uninitialised buffers, and imdecode reports success (found by `make fuzz`, confirmed with
/// valgrind: every byte of a 12416×427 "image" uninitialised). Data that reaches EOI never runs out.
static bool jpegReachesEnd(const uint8_t *bytes, size_t count) {
    size_t at = 2;  // after SOI
    while (true) {
        while (at < count && bytes[at] != 0xFF) ++at;  // libjpeg skips extraneous bytes, with a warning
        while (at < count && bytes[at] == 0xFF) ++at;  // fill bytes
        if (at >= count) return false;
        const uint8_t marker = bytes[at++];
        if (marker == 0xD9) return true;                                      // EOI
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) continue;  // TEM, RSTn, SOI: no length
        if (at + 2 > count) return false;
        const size_t length = static_cast<size_t>(bytes[at]) << 8 | bytes[at + 1];
        if (length < 2 || length > count - at) return false;
        at += length;
        if (marker != 0xDA) continue;
        // Start of scan: entropy-coded data runs to the next marker; FF 00 is a stuffed FF, FF D0–D7
        // restart markers belong to the scan.
        while (true) {
            while (at < count && bytes[at] != 0xFF) ++at;
            if (at + 1 >= count) return false;
            const uint8_t next = bytes[at + 1];
            if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) {
                at += 2;
            } else if (next == 0xFF) {
                at += 1;
            } else {
                break;  // a marker, read by the outer loop
            }
        }
    }
}

/// The DEPTH (channel count) a PAM header declares, 0 when it has none within its first 4 KiB.
///
/// Why: OpenCV 4.6 converts 2- and 4-channel PAM to the gray or colour it is asked for by reading
/// past the rows it decoded, and in unchanged mode returns RGBA where every other decoder returns
/// BGRA: the pixels differ from one decode to the next (uninitialised memory). Such files are refused.
static int pamDepth(const uint8_t *bytes, size_t count) {
    const size_t limit = std::min<size_t>(count, 4096);
    std::string header(reinterpret_cast<const char *>(bytes), limit);
    std::istringstream tokens(header.substr(2));
    std::string token;
    while (tokens >> token) {
        if (token == "ENDHDR") break;
        if (token == "DEPTH" && tokens >> token) return std::atoi(token.substr(0, 6).c_str());
    }
    return 0;
}

OCVStatus ocv_decode_image(const void *bytes, size_t count, OCVReadMode mode, const OCVImage *into,
                           OCVMatrix **decoded, OCVError *error) {
    *decoded = nullptr;
    return fenced(error, [&] {
        if (count > static_cast<size_t>(INT32_MAX)) {
            setMessage(error, "%zu bytes are more than OpenCV decodes at once (2 GiB)", count);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const auto *data = static_cast<const uint8_t *>(bytes);
        if (count >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF && !jpegReachesEnd(data, count)) {
            setMessage(error, "the JPEG data ends before its end-of-image marker");
            return OCV_STATUS_DECODE_FAILED;
        }
        if (count >= 3 && data[0] == 'P' && data[1] == '7') {
            const int depth = pamDepth(data, count);
            if (depth != 0 && depth != 1 && depth != 3) {
                setMessage(error, "a PAM of %d channels is decoded into garbage by this OpenCV", depth);
                return OCV_STATUS_DECODE_FAILED;
            }
        }
        // A camera frame from a browser: libjpeg-turbo writes BGR itself, three times as fast as OpenCV 4.6.
        if (into && mode == OCV_READ_COLOR && ocv_decode_jpeg_as_bgr(data, count, into)) {
            return OCV_STATUS_OK;
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
        // The lending allocator serves the decoder's one allocation and nothing after it. A cv::Mat
        // passes its allocator on to every copy and to every matrix later created in it, so without
        // this line the 8-bit conversion of a 16-bit RGBA PNG (same size and type as the lent buffer)
        // was created in the lent buffer through an allocator that ends with this function: every
        // entry point crashed when the matrix was released.
        image.allocator = nullptr;
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
            // A JPEG with a quality alone is what libjpeg-turbo writes straight from BGR (JPEG.cpp).
            const bool jpeg = strcasecmp(fileExtension, ".jpg") == 0 || strcasecmp(fileExtension, ".jpeg") == 0 ||
                              strcasecmp(fileExtension, ".jpe") == 0;
            if (jpeg && flags.size() == 2 && flags[0] == cv::IMWRITE_JPEG_QUALITY) {
                written = encodeJPEGFromBGR(*image, flags[1], output->bytes);
            }
            if (!written) written = cv::imencode(fileExtension, matrix(image), output->bytes, flags);
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

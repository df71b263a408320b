// The library itself: OpenCV's version, threads and parallel framework; a checksum; a frame read and encoded.
#include "Support.hpp"

#include <opencv2/core/utility.hpp>
#include <opencv2/core/version.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <mutex>

using namespace bench_baseline;

const char *baseline_opencv_version(void) { return CV_VERSION; }

int32_t baseline_opencv_threads(void) {
    try {
        return cv::getNumThreads();
    } catch (...) {
        return -1;
    }
}

const char *baseline_parallel_framework(void) {
    // The "Parallel framework:" line of the build information (OpenCV 4.6 has no public getter).
    static const std::string framework = [] {
        try {
            const std::string information = cv::getBuildInformation();
            const std::string key = "Parallel framework:";
            const size_t start = information.find(key);
            if (start == std::string::npos) return std::string();
            const size_t end = information.find('\n', start);
            std::string value = information.substr(start + key.size(), end == std::string::npos ? std::string::npos : end - start - key.size());
            const size_t first = value.find_first_not_of(" \t");
            return first == std::string::npos ? std::string() : value.substr(first);
        } catch (...) {
            return std::string();
        }
    }();
    return framework.c_str();
}

uint64_t baseline_fnv1a(const uint8_t *bytes, size_t count) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (size_t index = 0; index < count; ++index) {
        hash ^= bytes[index];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

bool baseline_make_frame(const char *path, int32_t width, int32_t height, uint8_t *bgra, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, 1, error)) return false;
        const cv::Mat image = cv::imread(path, cv::IMREAD_COLOR);
        if (image.empty()) {
            setMessage(error, "cannot read the image '%s'", path);
            return false;
        }
        cv::Mat withAlpha;
        cv::cvtColor(image, withAlpha, cv::COLOR_BGR2BGRA);
        cv::Mat output(height, width, CV_8UC4, bgra);
        cv::resize(withAlpha, output, cv::Size(width, height), 0, 0, cv::INTER_AREA);
        if (output.data != bgra) {
            setMessage(error, "cv::resize did not write into the given buffer");
            return false;
        }
        return true;
    });
}

bool baseline_encode_jpeg(const uint8_t *bgra, int32_t width, int32_t height, int32_t quality, uint8_t *output,
                          size_t capacity, size_t *count, BaselineError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, 1, error)) return false;
        cv::Mat bgr;
        cv::cvtColor(bgraView(bgra, width, height), bgr, cv::COLOR_BGRA2BGR);
        std::vector<uchar> bytes;
        if (!cv::imencode(".jpg", bgr, bytes, {cv::IMWRITE_JPEG_QUALITY, quality})) {
            setMessage(error, "the JPEG encoder refused the image");
            return false;
        }
        if (bytes.size() > capacity) {
            setMessage(error, "the JPEG needs %zu bytes, the buffer holds %zu", bytes.size(), capacity);
            return false;
        }
        std::memcpy(output, bytes.data(), bytes.size());
        *count = bytes.size();
        return true;
    });
}

// The C++ baseline: each function repeats, per iteration, exactly the OpenCV work one call of the
// Swift API makes (see Sources/OpenCVBridge), including a fresh output, and times it.
#include "BenchBaseline.h"

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/core/version.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <opencv2/photo.hpp>
#include <opencv2/video/tracking.hpp>
#include <opencv2/xphoto/white_balance.hpp>

#include <algorithm>
#include <cmath>
#include <mutex>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void setMessage(BaselineError *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

void setMessage(BaselineError *error, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(error->message, sizeof error->message, format, arguments);
    va_end(arguments);
}

/// Runs `body`; every C++ exception becomes `false` and a message, none reaches Swift.
template <class Body>
bool fenced(BaselineError *error, Body &&body) noexcept {
    error->message[0] = '\0';
    try {
        return body();
    } catch (const cv::Exception &exception) {
        setMessage(error, "OpenCV: %s (in %s)", exception.err.c_str(), exception.func.c_str());
    } catch (const std::bad_alloc &) {
        setMessage(error, "out of memory");
    } catch (const std::exception &exception) {
        setMessage(error, "%s", exception.what());
    } catch (...) {
        setMessage(error, "unknown C++ exception");
    }
    return false;
}

using Clock = std::chrono::steady_clock;

double nanoseconds(Clock::time_point start, Clock::time_point end) {
    return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
}

bool checkArguments(const void *pixels, int32_t width, int32_t height, int32_t iterations, BaselineError *error) {
    if (!pixels || width <= 0 || height <= 0 || iterations <= 0) {
        setMessage(error, "bad arguments: %dx%d, %d iterations", width, height, iterations);
        return false;
    }
    return true;
}

/// A read-only matrix header over the caller's tightly packed BGRA pixels.
cv::Mat bgraView(const uint8_t *bgra, int32_t width, int32_t height) {
    return cv::Mat(height, width, CV_8UC4, const_cast<uint8_t *>(bgra));
}

uint64_t hashOutput(const cv::Mat &matrix) {
    CV_Assert(matrix.isContinuous());
    return baseline_fnv1a(matrix.data, matrix.total() * matrix.elemSize());
}

uint64_t hashOutput(const std::vector<uchar> &bytes) { return baseline_fnv1a(bytes.data(), bytes.size()); }

/// Times `iterations` calls of `work`, each making a fresh output that is freed inside the timing (as
/// the Swift API's result is); the last output's hash goes to `checksum` when one is asked for.
template <class Work>
void timeCalls(int32_t iterations, double *samples, uint64_t *checksum, Work &&work) {
    for (int32_t iteration = 0; iteration < iterations; ++iteration) {
        const auto start = Clock::now();
        {
            const auto output = work();
            if (checksum && iteration == iterations - 1) {
                samples[iteration] = nanoseconds(start, Clock::now());
                *checksum = hashOutput(output);
                continue;
            }
        }
        samples[iteration] = nanoseconds(start, Clock::now());
    }
}

}  // namespace

extern "C" {

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

bool baseline_gray(const uint8_t *bgra, int32_t width, int32_t height, int32_t iterations, double *samples,
                   uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const cv::Mat source = bgraView(bgra, width, height);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat gray;  // fresh, as Image.converted(to:) returns a new image
            cv::cvtColor(source, gray, cv::COLOR_BGRA2GRAY);
            return gray;
        });
        return true;
    });
}

// Each channel times its factor, rounded and saturated: OpenCVBridge's ocv_multiply_channels, a 256-entry
// table per channel through cv::LUT (the same bytes cv::multiply by the Scalar gives, without its doubles).
static void multiplyChannels(const cv::Mat &input, const cv::Scalar &scale, cv::Mat &output) {
    cv::Mat table(1, 256, CV_8UC(input.channels()));
    for (int value = 0; value < 256; ++value) {
        for (int channel = 0; channel < input.channels(); ++channel) {
            table.ptr<uint8_t>()[value * input.channels() + channel] = cv::saturate_cast<uint8_t>(value * scale[channel]);
        }
    }
    cv::LUT(input, table, output);
}

bool baseline_white_balance(const uint8_t *bgra, int32_t width, int32_t height, float saturationThreshold,
                            int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const cv::Mat source = bgraView(bgra, width, height);
        const unsigned threshold255 = static_cast<unsigned>(cvRound(saturationThreshold * 255));
        timeCalls(iterations, samples, checksum, [&] {
            // Gray-world channel sums over the pixels xphoto's GrayworldWB counts, in row stripes.
            std::mutex lock;
            uint64_t totals[3] = {0, 0, 0};
            cv::parallel_for_(cv::Range(0, source.rows), [&](const cv::Range &rows) {
                uint64_t sums[3] = {0, 0, 0};
                for (int y = rows.start; y < rows.end; ++y) {
                    const uint8_t *pixel = source.ptr<uint8_t>(y);
                    for (int x = 0; x < source.cols; ++x, pixel += 4) {
                        const unsigned b = pixel[0], g = pixel[1], r = pixel[2];
                        const unsigned low = std::min(b, std::min(g, r)), high = std::max(b, std::max(g, r));
                        const bool counts = (high - low) * 255 <= threshold255 * high;
                        sums[0] += counts ? b : 0;
                        sums[1] += counts ? g : 0;
                        sums[2] += counts ? r : 0;
                    }
                }
                std::lock_guard<std::mutex> guard(lock);
                for (int channel = 0; channel < 3; ++channel) totals[channel] += sums[channel];
            }, cv::getNumThreads());
            // Gains ∝ 1 / sum, scaled to keep the mean BT.601 luma; alpha unchanged.
            const cv::Scalar means = cv::mean(source);
            const double weights[3] = {0.114, 0.587, 0.299};
            double inverse[3], luma = 0, balanced = 0;
            for (int channel = 0; channel < 3; ++channel) {
                inverse[channel] = totals[channel] ? 1.0 / static_cast<double>(totals[channel]) : 0;
                luma += weights[channel] * means[channel];
                balanced += weights[channel] * inverse[channel] * means[channel];
            }
            const double scale = balanced > 0 ? luma / balanced : 1;
            cv::Mat output;
            multiplyChannels(source, cv::Scalar(inverse[0] * scale, inverse[1] * scale, inverse[2] * scale, 1.0), output);
            return output;
        });
        return true;
    });
}

bool baseline_tint(const uint8_t *bgra, int32_t width, int32_t height, double red, double green, double blue,
                   int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const cv::Mat source = bgraView(bgra, width, height);
        const cv::Scalar factors(blue, green, red, 1.0);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat tinted;
            multiplyChannels(source, factors, tinted);
            return tinted;
        });
        return true;
    });
}

bool baseline_zoom(const uint8_t *bgra, int32_t width, int32_t height, double factor, int32_t iterations,
                   double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const cv::Mat source = bgraView(bgra, width, height);
        // Image.zoomed's arithmetic, step for step, about the middle (0.5, 0.5).
        const double w = width, h = height, shape = double(width) / double(height);
        const double fieldWidth = w / h > shape ? h * shape : w, fieldHeight = w / h > shape ? h : w / shape;
        const double cropWidth = fieldWidth / factor, cropHeight = fieldHeight / factor;
        const double middleX = std::min(std::max(0.5 * w, cropWidth / 2), w - cropWidth / 2);
        const double middleY = std::min(std::max(0.5 * h, cropHeight / 2), h - cropHeight / 2);
        const double left = middleX - cropWidth / 2, top = middleY - cropHeight / 2;
        const double scale = double(width) / cropWidth;
        const double coefficients[6] = {scale, 0, scale * (0.5 - left) - 0.5, 0, scale, scale * (0.5 - top) - 0.5};
        const cv::Mat map(2, 3, CV_64F, const_cast<double *>(coefficients));
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat zoomed(height, width, CV_8UC4);
            cv::warpAffine(source, zoomed, map, zoomed.size(), cv::INTER_CUBIC, cv::BORDER_REPLICATE);
            return zoomed;
        });
        return true;
    });
}

bool baseline_jpeg_round_trip(const uint8_t *jpeg, size_t count, int32_t quality, int32_t iterations,
                              double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(jpeg, count > 0 ? 1 : 0, 1, iterations, error)) return false;
        const cv::Mat encoded(1, static_cast<int>(count), CV_8UC1, const_cast<uint8_t *>(jpeg));
        const std::vector<int> parameters = {cv::IMWRITE_JPEG_QUALITY, quality};
        timeCalls(iterations, samples, checksum, [&] {
            const cv::Mat image = cv::imdecode(encoded, cv::IMREAD_COLOR);
            if (image.empty()) throw std::runtime_error("cv::imdecode could not read the JPEG");
            std::vector<uchar> output;
            if (!cv::imencode(".jpg", image, output, parameters)) throw std::runtime_error("cv::imencode refused the image");
            return output;
        });
        return true;
    });
}

bool baseline_copy_frame(const uint8_t *bgra, int32_t width, int32_t height, int32_t iterations, double *samples,
                         BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, iterations, error)) return false;
        const size_t count = static_cast<size_t>(width) * static_cast<size_t>(height) * 4;
        std::vector<uint8_t> copy(count);
        for (int32_t iteration = 0; iteration < iterations; ++iteration) {
            const auto start = Clock::now();
            std::memcpy(copy.data(), bgra, count);
            samples[iteration] = nanoseconds(start, Clock::now());
            if (copy[count / 2] != bgra[count / 2]) throw std::runtime_error("memcpy did not copy");
        }
        return true;
    });
}

bool baseline_invert(const uint8_t *bgra, int32_t width, int32_t height, uint8_t *inverted, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, 1, error)) return false;
        cv::Mat output(height, width, CV_8UC4, inverted);
        cv::subtract(cv::Scalar::all(255), bgraView(bgra, width, height), output);
        return output.data == inverted;
    });
}

bool baseline_hud_inverted_edges(const uint8_t *bgra, int32_t width, int32_t height, uint8_t *inverted,
                                 BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgra, width, height, 1, error)) return false;
        cv::Mat blurred, edges, tinted;
        cv::GaussianBlur(bgraView(bgra, width, height), blurred, cv::Size(5, 5), 0);
        cv::Laplacian(blurred, edges, -1, 3);
        cv::multiply(edges, cv::Scalar(0, 1, 0.5, 1), tinted);
        cv::Mat output(height, width, CV_8UC4, inverted);
        cv::subtract(cv::Scalar::all(255), tinted, output);
        return output.data == inverted;
    });
}

bool baseline_screen_textbook(const uint8_t *frame, const uint8_t *invertedSource, int32_t width, int32_t height,
                              int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(frame, width, height, iterations, error)) return false;
        const cv::Mat backdrop = bgraView(frame, width, height), inverted = bgraView(invertedSource, width, height);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat invertedFrame, product, screened;
            cv::subtract(cv::Scalar::all(255), backdrop, invertedFrame);
            cv::multiply(invertedFrame, inverted, product, 1 / 255.0);
            cv::subtract(cv::Scalar::all(255), product, screened);
            return screened;
        });
        return true;
    });
}

bool baseline_multiply_textbook(const uint8_t *frame, const uint8_t *source, int32_t width, int32_t height,
                                int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(frame, width, height, iterations, error)) return false;
        const cv::Mat backdrop = bgraView(frame, width, height), picture = bgraView(source, width, height);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat product;
            cv::multiply(backdrop, picture, product, 1 / 255.0);
            return product;
        });
        return true;
    });
}

namespace {

/// Lum(C) = 0.3 R + 0.59 G + 0.11 B of float planes in B, G, R order.
cv::Mat luminosity(const std::vector<cv::Mat> &bgr) { return 0.11 * bgr[0] + 0.59 * bgr[1] + 0.3 * bgr[2]; }

cv::Mat planeMinimum(const std::vector<cv::Mat> &bgr) { return cv::min(bgr[0], cv::min(bgr[1], bgr[2])); }
cv::Mat planeMaximum(const std::vector<cv::Mat> &bgr) { return cv::max(bgr[0], cv::max(bgr[1], bgr[2])); }

}  // namespace

bool baseline_hue_op_by_op(const uint8_t *frame, const uint8_t *source, int32_t width, int32_t height,
                           int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(frame, width, height, iterations, error)) return false;
        const cv::Mat backdrop = bgraView(frame, width, height), picture = bgraView(source, width, height);
        timeCalls(iterations, samples, checksum, [&] {
            cv::Mat backdropFloat, sourceFloat;
            backdrop.convertTo(backdropFloat, CV_32F);
            picture.convertTo(sourceFloat, CV_32F);
            std::vector<cv::Mat> cb, cs;
            cv::split(backdropFloat, cb);
            cv::split(sourceFloat, cs);
            // SetSat(Cs, Sat(Cb)): (Cs − min) · Sat(Cb) / (max − min), 0 where Cs is gray.
            const cv::Mat low = planeMinimum(cs), range = planeMaximum(cs) - low;
            cv::Mat scale;
            cv::divide(planeMaximum(cb) - planeMinimum(cb), range, scale);
            scale.setTo(0, range <= 0);
            std::vector<cv::Mat> c(3);
            for (int channel = 0; channel < 3; ++channel) c[channel] = (cs[channel] - low).mul(scale);
            // SetLum(C, Lum(Cb)).
            const cv::Mat shift = luminosity(cb) - luminosity(c);
            for (int channel = 0; channel < 3; ++channel) c[channel] += shift;
            // ClipColor.
            const cv::Mat l = luminosity(c), n = planeMinimum(c), x = planeMaximum(c);
            const cv::Mat below = n < 0, above = x > 255;
            cv::Mat lowScale, highScale;
            cv::divide(l, l - n, lowScale);
            cv::divide(255 - l, x - l, highScale);
            for (int channel = 0; channel < 3; ++channel) {
                cv::Mat offset = c[channel] - l;
                cv::Mat(l + offset.mul(lowScale)).copyTo(c[channel], below);
                offset = c[channel] - l;
                cv::Mat(l + offset.mul(highScale)).copyTo(c[channel], above);
            }
            c.push_back(cb[3]);
            cv::Mat merged, output;
            cv::merge(c, merged);
            merged.convertTo(output, CV_8U);
            return output;
        });
        return true;
    });
}

}  // extern "C"

bool baseline_faces_textbook(const uint8_t *const *frames, int32_t frameCount, int32_t width, int32_t height,
                             double humanScale, double humanMinimum, double catScale, double catMinimum,
                             const char *humanCascade, const char *catCascade, const char *viewersLeftEyeCascade,
                             const char *viewersRightEyeCascade, double *samples, BaselineFace *faces, int32_t capacity,
                             int32_t *counts, BaselineError *error) {
    return fenced(error, [&] {
        cv::CascadeClassifier human, cat, leftEye, rightEye;
        const std::pair<cv::CascadeClassifier *, const char *> cascades[] = {
            {&human, humanCascade}, {&cat, catCascade}, {&leftEye, viewersLeftEyeCascade}, {&rightEye, viewersRightEyeCascade}};
        for (const auto &[classifier, path] : cascades) {
            if (!classifier->load(path)) throw std::runtime_error(std::string("cannot load the cascade ") + path);
        }
        int32_t stored = 0;
        for (int32_t index = 0; index < frameCount; ++index) {
            const cv::Mat frame(height, width, CV_8UC3, const_cast<uint8_t *>(frames[index]));
            const auto start = std::chrono::steady_clock::now();
            cv::Mat gray, small, equalized;
            cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
            cv::resize(gray, small, cv::Size(), 0.5, 0.5, cv::INTER_LINEAR);
            cv::equalizeHist(small, equalized);
            const int shortSide = std::min(equalized.cols, equalized.rows);
            std::vector<cv::Rect> humans, cats, found;
            const int humanSize = static_cast<int>(humanMinimum * shortSide), catSize = static_cast<int>(catMinimum * shortSide);
            human.detectMultiScale(equalized, humans, humanScale, 4, 0, cv::Size(humanSize, humanSize));
            cat.detectMultiScale(equalized, cats, catScale, 6, 0, cv::Size(catSize, catSize));
            std::vector<std::pair<cv::Rect, int>> kept;
            for (const cv::Rect &face : humans) {
                const cv::Mat region = equalized(face);
                const int half = face.width / 2, eyeSize = static_cast<int>(0.1 * face.width);
                std::vector<cv::Rect> left, right;
                leftEye.detectMultiScale(region(cv::Rect(0, 0, half, face.height)), left, 1.2, 2, 0, cv::Size(eyeSize, eyeSize));
                rightEye.detectMultiScale(region(cv::Rect(half, 0, face.width - half, face.height)), right, 1.2, 2, 0,
                                          cv::Size(eyeSize, eyeSize));
                kept.emplace_back(face, 1);
            }
            for (const cv::Rect &face : cats) {
                bool touchesHuman = false;
                for (const cv::Rect &person : humans) touchesHuman = touchesHuman || (face & person).area() > 0;
                if (!touchesHuman) kept.emplace_back(face, 2);
            }
            samples[index] = static_cast<double>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
            counts[index] = 0;
            for (const auto &[face, species] : kept) {
                if (stored >= capacity) break;
                faces[stored++] = BaselineFace{face.x * 2, face.y * 2, face.width * 2, face.height * 2, species};
                counts[index] += 1;
            }
        }
        return true;
    });
}

bool baseline_merge_faces(const uint8_t *bigger, int32_t biggerWidth, int32_t biggerHeight, const uint8_t *smaller,
                          int32_t smallerWidth, int32_t smallerHeight, const double *smallerLandmarks,
                          const double *biggerLandmarks, int32_t iterations, double *samples, uint64_t *checksum,
                          BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bigger, biggerWidth, biggerHeight, iterations, error) ||
            !checkArguments(smaller, smallerWidth, smallerHeight, iterations, error)) return false;
        const cv::Mat big(biggerHeight, biggerWidth, CV_8UC3, const_cast<uint8_t *>(bigger));
        const cv::Mat small(smallerHeight, smallerWidth, CV_8UC3, const_cast<uint8_t *>(smaller));
        cv::Point2f from[3], to[3];
        for (int index = 0; index < 3; ++index) {
            from[index] = cv::Point2f(float(smallerLandmarks[2 * index]), float(smallerLandmarks[2 * index + 1]));
            to[index] = cv::Point2f(float(biggerLandmarks[2 * index]), float(biggerLandmarks[2 * index + 1]));
        }
        timeCalls(iterations, samples, checksum, [&] {
            const cv::Mat map = cv::getAffineTransform(from, to);
            cv::Mat warped, merged;
            cv::warpAffine(small, warped, map, big.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
            cv::multiply(big, warped, merged, 1.0 / 255);
            return merged;
        });
        return true;
    });
}

namespace {

/// The textbook's blob detection on a BGR frame, then Ocular's one blob per object: the
/// rectangles inside no other, biggest first, each blob's pixels copied. Returns the rectangles as
/// int32 x, y, width, height rows (the hash compared with Swift's).
cv::Mat detectBlobs(const cv::Mat &frame, std::vector<cv::Mat> &blobs) {
    cv::Mat resized, mask, edges;
    cv::resize(frame, resized, cv::Size(std::max(1, cvRound(frame.cols * 0.5)), std::max(1, cvRound(frame.rows * 0.5))), 0, 0,
               cv::INTER_AREA);
    cv::Scalar mean, deviation;
    cv::meanStdDev(resized, mean, deviation);
    cv::inRange(resized, mean - deviation, mean + deviation, mask);
    const int side = static_cast<int>(std::min(resized.cols, resized.rows) * 0.005);
    if (side > 0) cv::erode(mask, mask, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(side, side)), cv::Point(-1, -1), 8);
    cv::Canny(mask, edges, 191, 255);
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(edges, contours, cv::RETR_TREE, cv::CHAIN_APPROX_SIMPLE);
    const int smallest = static_cast<int>(std::min(frame.cols, frame.rows) * 0.05);
    const cv::Rect whole(0, 0, frame.cols, frame.rows);
    std::vector<cv::Rect> found;
    for (const auto &contour : contours) {
        const cv::Rect box = cv::boundingRect(contour);
        const cv::Rect full = cv::Rect(static_cast<int>(box.x / 0.5), static_cast<int>(box.y / 0.5), static_cast<int>(box.width / 0.5),
                                       static_cast<int>(box.height / 0.5)) & whole;
        if (full.width >= smallest && full.height >= smallest) found.push_back(full);
    }
    std::sort(found.begin(), found.end(), [](const cv::Rect &a, const cv::Rect &b) {
        if (a.area() != b.area()) return a.area() > b.area();
        return a.y != b.y ? a.y < b.y : a.x < b.x;
    });
    std::vector<cv::Rect> kept;
    for (const cv::Rect &box : found) {
        const bool inside = std::any_of(kept.begin(), kept.end(), [&](const cv::Rect &outer) { return (outer & box) == box; });
        if (!inside) kept.push_back(box);
    }
    cv::Mat rectangles(static_cast<int>(kept.size()), 4, CV_32S);
    blobs.clear();
    for (size_t index = 0; index < kept.size(); ++index) {
        const cv::Rect &box = kept[index];
        int *row = rectangles.ptr<int>(static_cast<int>(index));
        row[0] = box.x, row[1] = box.y, row[2] = box.width, row[3] = box.height;
        blobs.push_back(frame(box).clone());
    }
    return rectangles;
}

/// The textbook's blob descriptor: 32³ BGR histogram over the pixel count, ORB on the CLAHE gray.
struct TextbookDescriptor {
    cv::Mat histogram;
    cv::Mat keypoints;
};

TextbookDescriptor describe(const cv::Mat &bgr, cv::ORB &orb, cv::CLAHE &clahe) {
    TextbookDescriptor descriptor;
    const int channels[] = {0, 1, 2};
    const int sizes[] = {32, 32, 32};
    const float range[] = {0, 256};
    const float *ranges[] = {range, range, range};
    cv::calcHist(&bgr, 1, channels, cv::noArray(), descriptor.histogram, 3, sizes, ranges);
    descriptor.histogram /= static_cast<double>(bgr.total());
    cv::Mat gray, equalized;
    cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
    clahe.apply(gray, equalized);
    std::vector<cv::KeyPoint> points;
    orb.detectAndCompute(equalized, cv::noArray(), points, descriptor.keypoints);
    return descriptor;
}

double textbookDistance(const TextbookDescriptor &blob, const TextbookDescriptor &reference) {
    double hamming = 0;
    if (!blob.keypoints.empty() && !reference.keypoints.empty()) {
        std::vector<cv::DMatch> matches;
        cv::BFMatcher(cv::NORM_HAMMING).match(blob.keypoints, reference.keypoints, matches);
        for (const cv::DMatch &match : matches) hamming += match.distance;
    }
    return 0.98 * cv::compareHist(blob.histogram, reference.histogram, cv::HISTCMP_CHISQR_ALT) + 0.02 * hamming;
}

/// The training pictures at `paths` described as the textbook does, read with imread (before any timing).
bool describeReferences(const char *const *paths, int32_t count, cv::ORB &orb, cv::CLAHE &clahe,
                        std::vector<TextbookDescriptor> &references, BaselineError *error) {
    for (int32_t index = 0; index < count; ++index) {
        const cv::Mat picture = cv::imread(paths[index], cv::IMREAD_COLOR);
        if (picture.empty()) {
            setMessage(error, "cannot read %s", paths[index]);
            return false;
        }
        references.push_back(describe(picture, orb, clahe));
    }
    return true;
}

}  // namespace

extern "C" {

bool baseline_detect_blobs(const uint8_t *bgr, int32_t width, int32_t height, int32_t iterations, double *samples,
                           uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgr, width, height, iterations, error)) return false;
        const cv::Mat frame(height, width, CV_8UC3, const_cast<uint8_t *>(bgr));
        timeCalls(iterations, samples, checksum, [&] {
            std::vector<cv::Mat> blobs;  // freed inside the timing, as Swift's blobs are
            return detectBlobs(frame, blobs);
        });
        return true;
    });
}

bool baseline_classify_blob(const uint8_t *bgr, int32_t width, int32_t height, const char *const *referencePaths,
                            const int32_t *labels, int32_t referenceCount, int32_t iterations, double *samples,
                            uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgr, width, height, iterations, error) || referenceCount < 1) return false;
        const cv::Mat blob(height, width, CV_8UC3, const_cast<uint8_t *>(bgr));
        cv::Ptr<cv::ORB> orb = cv::ORB::create();
        cv::Ptr<cv::CLAHE> clahe = cv::createCLAHE();
        std::vector<TextbookDescriptor> references;
        if (!describeReferences(referencePaths, referenceCount, *orb, *clahe, references, error)) return false;
        timeCalls(iterations, samples, checksum, [&] {
            const TextbookDescriptor described = describe(blob, *orb, *clahe);
            double nearest = 0;
            int32_t label = 0;
            for (int32_t index = 0; index < referenceCount; ++index) {
                const double distance = textbookDistance(described, references[index]);
                if (index == 0 || distance < nearest) nearest = distance, label = labels[index];
            }
            return cv::Mat(1, 1, CV_8U, cv::Scalar(label));
        });
        return true;
    });
}

bool baseline_count_blobs(const uint8_t *const *frames, int32_t frameCount, int32_t width, int32_t height,
                          const char *const *referencePaths, const int32_t *labels, int32_t referenceCount, double *samples,
                          BaselineObject *objects, int32_t capacity, int32_t *counts, BaselineError *error) {
    return fenced(error, [&] {
        if (frameCount < 1 || referenceCount < 1 || capacity < 0 || !checkArguments(frames[0], width, height, 1, error)) return false;
        cv::Ptr<cv::ORB> orb = cv::ORB::create();
        cv::Ptr<cv::CLAHE> clahe = cv::createCLAHE();
        std::vector<TextbookDescriptor> references;
        if (!describeReferences(referencePaths, referenceCount, *orb, *clahe, references, error)) return false;
        int32_t stored = 0;
        for (int32_t frameIndex = 0; frameIndex < frameCount; ++frameIndex) {
            const cv::Mat frame(height, width, CV_8UC3, const_cast<uint8_t *>(frames[frameIndex]));
            const auto start = Clock::now();
            std::vector<cv::Mat> blobs;
            const cv::Mat rectangles = detectBlobs(frame, blobs);
            std::vector<int32_t> found;
            for (const cv::Mat &blob : blobs) {
                const TextbookDescriptor described = describe(blob, *orb, *clahe);
                double nearest = 0;
                int32_t label = 0;
                for (int32_t index = 0; index < referenceCount; ++index) {
                    const double distance = textbookDistance(described, references[index]);
                    if (index == 0 || distance < nearest) nearest = distance, label = labels[index];
                }
                found.push_back(label);
            }
            samples[frameIndex] = nanoseconds(start, Clock::now());
            counts[frameIndex] = 0;
            for (size_t index = 0; index < found.size() && stored < capacity; ++index, ++stored, ++counts[frameIndex]) {
                const int *row = rectangles.ptr<int>(static_cast<int>(index));
                objects[stored] = BaselineObject{row[0], row[1], row[2], row[3], found[index]};
            }
        }
        return true;
    });
}

}  // extern "C"

// MARK: - The tutorial's samples

namespace {

cv::Mat grayOf(const cv::Mat &bgr) {
    cv::Mat gray;
    cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
    return gray;
}

cv::Mat harrisSample(const cv::Mat &bgr) {
    const cv::Mat gray = grayOf(bgr);
    cv::Mat response, dilated;
    cv::cornerHarris(gray, response, 3, 3, 0.04);
    double strongest = 0;
    cv::minMaxLoc(response, nullptr, &strongest);
    cv::dilate(response, dilated, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(7, 7)));
    struct Corner { float response; int x, y; };
    std::vector<Corner> found, kept;
    const float threshold = static_cast<float>(0.01 * strongest);
    for (int y = 0; y < response.rows; ++y) {
        const float *row = response.ptr<float>(y), *peak = dilated.ptr<float>(y);
        for (int x = 0; x < response.cols; ++x) if (strongest > 0 && row[x] >= threshold && row[x] >= peak[x]) found.push_back({row[x], x, y});
    }
    std::stable_sort(found.begin(), found.end(), [](const Corner &a, const Corner &b) { return a.response > b.response; });
    for (const Corner &corner : found) {
        if (kept.size() == 300) break;
        if (std::none_of(kept.begin(), kept.end(), [&](const Corner &o) { return std::abs(o.x - corner.x) <= 3 && std::abs(o.y - corner.y) <= 3; })) {
            kept.push_back(corner);
        }
    }
    cv::Mat out = bgr.clone();
    const int radius = std::max(4, std::min(bgr.cols, bgr.rows) / 120);
    for (const Corner &corner : kept) {
        cv::circle(out, cv::Point(corner.x * 4, corner.y * 4), radius << 2, cv::Scalar(0, 0, 255, 255), 2, cv::LINE_8, 2);
    }
    return out;
}

cv::Mat contoursSample(const cv::Mat &bgr) {
    const cv::Mat gray = grayOf(bgr);
    cv::Mat binary;
    cv::threshold(gray, binary, 128, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    const double borderIn = cv::countNonZero(binary.row(0)) + cv::countNonZero(binary.row(binary.rows - 1))
        + cv::countNonZero(binary.col(0)) + cv::countNonZero(binary.col(binary.cols - 1));
    if (borderIn > binary.rows + binary.cols) cv::bitwise_not(binary, binary);
    std::vector<std::vector<cv::Point>> all, kept;
    std::vector<cv::Vec4i> hierarchy;
    cv::findContours(binary, all, hierarchy, cv::RETR_TREE, cv::CHAIN_APPROX_SIMPLE);
    for (auto &contour : all) if (cv::contourArea(contour) >= 16) kept.push_back(std::move(contour));
    cv::Mat out = bgr.clone();
    cv::drawContours(out, kept, -1, cv::Scalar(0, 255, 0, 255), 2, cv::LINE_8);
    return out;
}

cv::Mat cartoonSample(const cv::Mat &bgr) {
    cv::Mat flat, edges, thick;
    cv::pyrMeanShiftFiltering(bgr, flat, 10, 30, 1);
    cv::Canny(grayOf(flat), edges, 40, 80, 3);
    cv::dilate(edges, thick, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2, 2)));
    flat.setTo(cv::Scalar::all(0), thick);
    return flat;
}

cv::Mat featuresSample(const cv::Mat &bgr) {
    std::vector<cv::KeyPoint> found;
    cv::ORB::create(500, 1.2f, 8, 31, 0, 2, cv::ORB::HARRIS_SCORE, 31, 20)->detect(grayOf(bgr), found);
    cv::KeyPointsFilter::retainBest(found, 500);
    std::stable_sort(found.begin(), found.end(), [](const cv::KeyPoint &a, const cv::KeyPoint &b) {
        if (a.response != b.response) return a.response > b.response;
        return a.pt.y != b.pt.y ? a.pt.y < b.pt.y : a.pt.x < b.pt.x;
    });
    if (found.size() > 500) found.resize(500);
    cv::Mat out = bgr.clone();
    const cv::Scalar ink(0, 220, 255, 255);
    for (const cv::KeyPoint &point : found) {
        const cv::Point centre(cvRound(point.pt.x * 16), cvRound(point.pt.y * 16));
        const float radius = std::max(point.size / 2, 1.0f);
        cv::circle(out, centre, cvRound(radius * 16), ink, 1, cv::LINE_AA, 4);
        if (point.angle >= 0) {
            const double radians = point.angle * CV_PI / 180;
            cv::line(out, centre, cv::Point(cvRound((point.pt.x + radius * std::cos(radians)) * 16), cvRound((point.pt.y + radius * std::sin(radians)) * 16)),
                     ink, 1, cv::LINE_AA, 4);
        }
    }
    return out;
}

/// The tracking sample's state from one frame to the next.
struct Tracks {
    cv::Mat previous;
    std::vector<std::vector<cv::Point2f>> paths;
};

cv::Mat trackingSample(const cv::Mat &bgr, Tracks &tracks) {
    const cv::Mat gray = grayOf(bgr);
    const int maximum = 200, trail = 20;
    std::vector<std::vector<cv::Point2f>> followed;
    if (!tracks.previous.empty() && !tracks.paths.empty()) {
        std::vector<cv::Point2f> start, forward, backward;
        for (const auto &path : tracks.paths) start.push_back(path.back());
        std::vector<uchar> forwardFound, backwardFound;
        std::vector<float> forwardError, backwardError;
        cv::calcOpticalFlowPyrLK(tracks.previous, gray, start, forward, forwardFound, forwardError, cv::Size(21, 21), 3);
        cv::calcOpticalFlowPyrLK(gray, tracks.previous, forward, backward, backwardFound, backwardError, cv::Size(21, 21), 3);
        for (size_t index = 0; index < start.size(); ++index) {
            const cv::Point2f trip = backward[index] - start[index];
            const cv::Point2f at = forward[index];
            if (!forwardFound[index] || !backwardFound[index] || std::hypot(trip.x, trip.y) > 0.2) continue;
            if (at.x < 0 || at.y < 0 || at.x >= gray.cols || at.y >= gray.rows) continue;
            auto path = tracks.paths[index];
            path.push_back(at);
            if (static_cast<int>(path.size()) > trail) path.erase(path.begin(), path.end() - trail);
            followed.push_back(std::move(path));
        }
    }
    if (static_cast<double>(followed.size()) < 0.5 * maximum) {
        std::vector<cv::Point2f> corners;
        const int wanted = maximum - static_cast<int>(followed.size());
        cv::goodFeaturesToTrack(gray, corners, wanted + static_cast<int>(followed.size()), 0.01, 8);
        int added = 0;
        const size_t existing = followed.size();
        for (const auto &corner : corners) {
            if (added == wanted) break;
            bool free = true;
            for (size_t index = 0; index < existing && free; ++index) {
                const cv::Point2f &kept = followed[index].back();
                free = !(std::abs(kept.x - corner.x) < 8 && std::abs(kept.y - corner.y) < 8);
            }
            if (free) {
                followed.push_back({corner});
                ++added;
            }
        }
    }
    tracks.previous = gray;
    tracks.paths = followed;
    cv::Mat out = bgr.clone();
    const int radius = std::max(2, std::min(bgr.cols, bgr.rows) / 240);
    for (const auto &path : followed) {
        const int segments = static_cast<int>(path.size()) - 1;
        for (int segment = 0; segment < segments; ++segment) {
            const int weight = 255 * (segment + 1) / segments;
            cv::LineIterator line(out, cv::Point(cvRound(path[segment].x), cvRound(path[segment].y)),
                                  cv::Point(cvRound(path[segment + 1].x), cvRound(path[segment + 1].y)), 8);
            const int ink[3] = {0, 255, 0};
            for (int step = 0; step < line.count; ++step, ++line) {
                uchar *pixel = *line;
                for (int channel = 0; channel < 3; ++channel) pixel[channel] = static_cast<uchar>((pixel[channel] * (255 - weight) + ink[channel] * weight + 127) / 255);
            }
        }
        cv::circle(out, cv::Point(cvRound(path.back().x), cvRound(path.back().y)), radius, cv::Scalar(0, 255, 0, 255), cv::FILLED, cv::LINE_8);
    }
    return out;
}

cv::Mat totalVariationSample(const cv::Mat &bgr) {
    std::vector<cv::Mat> planes;
    cv::split(bgr, planes);
    for (cv::Mat &plane : planes) {
        cv::Mat denoised;
        cv::denoise_TVL1(std::vector<cv::Mat>{plane}, denoised, 1.0, 30);
        plane = denoised;
    }
    cv::Mat out;
    cv::merge(planes, out);
    return out;
}

cv::Mat drawingCanvasSample(const cv::Mat &bgr) {
    cv::Mat smooth, lines;
    cv::bilateralFilter(grayOf(bgr), smooth, 9, 50, 50);
    cv::adaptiveThreshold(smooth, lines, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, 9, 5);
    return lines;
}

}  // namespace

bool baseline_sample(int32_t sample, const uint8_t *bgr, const uint8_t *next, int32_t width, int32_t height, int32_t iterations,
                     double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgr, width, height, iterations, error)) return false;
        const cv::Mat frame(height, width, CV_8UC3, const_cast<uint8_t *>(bgr));
        const cv::Mat moved(height, width, CV_8UC3, const_cast<uint8_t *>(next));
        static const float sepia[9] = {0.131f, 0.534f, 0.272f, 0.168f, 0.686f, 0.349f, 0.189f, 0.769f, 0.393f};
        Tracks tracks;
        int32_t call = 0;
        timeCalls(iterations, samples, checksum, [&]() -> cv::Mat {
            cv::Mat out;
            switch (sample) {
            case 0: cv::Canny(grayOf(frame), out, 50, 150, 3); break;
            case 1: out = harrisSample(frame); break;
            case 2: cv::transform(frame, out, cv::Mat(3, 3, CV_32F, const_cast<float *>(sepia))); break;
            case 3: cv::bitwise_not(frame, out); break;
            case 4: frame.convertTo(out, -1, 1.5, -30); break;
            case 5: out = contoursSample(frame); break;
            case 6: out = cartoonSample(frame); break;
            case 7: out = featuresSample(frame); break;
            case 8: out = trackingSample(call++ % 2 ? moved : frame, tracks); break;
            case 9: out = totalVariationSample(frame); break;
            case 10: out = drawingCanvasSample(frame); break;
            default: throw std::invalid_argument("unknown sample " + std::to_string(sample));
            }
            return out;
        });
        return true;
    });
}

bool baseline_filters(int32_t which, const uint8_t *bgr, int32_t width, int32_t height, const float *colourControls,
                      const uint8_t *exposure, const uint8_t *gamma, const float *hue, float vibrance, double sigma,
                      int32_t iterations, double *samples, uint64_t *checksum, BaselineError *error) {
    return fenced(error, [&] {
        if (!checkArguments(bgr, width, height, iterations, error)) return false;
        const cv::Mat frame(height, width, CV_8UC3, const_cast<uint8_t *>(bgr));
        const cv::Mat controls(3, 4, CV_32F, const_cast<float *>(colourControls)), turn(3, 4, CV_32F, const_cast<float *>(hue));
        const cv::Mat exposureTable(1, 256, CV_8UC1, const_cast<uint8_t *>(exposure)), gammaTable(1, 256, CV_8UC1, const_cast<uint8_t *>(gamma));
        timeCalls(iterations, samples, checksum, [&]() -> cv::Mat {
            cv::Mat out;
            // Vibrance in floats: c + (max − c)·(max − mean)·(−3·amount/255), per channel.
            const auto vibrant = [&](const cv::Mat &input) {
                cv::Mat floats, result;
                input.convertTo(floats, CV_32F);
                std::vector<cv::Mat> channels;
                cv::split(floats, channels);
                const cv::Mat largest = cv::max(cv::max(channels[0], channels[1]), channels[2]);
                const cv::Mat weight = (largest - (channels[0] + channels[1] + channels[2]) * (1.0 / 3)) * (-3.0 * vibrance / 255);
                for (auto &channel : channels) channel += (largest - channel).mul(weight);
                cv::merge(channels, floats);
                floats.convertTo(result, CV_8U);
                return result;
            };
            switch (which) {
            case 0:
                // The five filters one call after another, each writing an 8-bit picture.
                cv::transform(frame, out, controls);
                cv::LUT(out, exposureTable, out);
                cv::LUT(out, gammaTable, out);
                cv::transform(out, out, turn);
                return vibrant(out);
            case 1: cv::GaussianBlur(frame, out, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE); break;
            case 2: cv::transform(frame, out, controls); break;
            case 3: cv::LUT(frame, exposureTable, out); break;
            case 4: cv::LUT(frame, gammaTable, out); break;
            case 5: cv::transform(frame, out, turn); break;
            case 6: out = vibrant(frame); break;
            default: throw std::invalid_argument("unknown filter row " + std::to_string(which));
            }
            return out;
        });
        return true;
    });
}

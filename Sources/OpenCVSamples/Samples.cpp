#include "OpenCVSamples.h"

// The exception fence and matrix views are OpenCVBridge's (header-only, not part of its C module).
#include "Bridging.hpp"

#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/photo.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

using namespace ocular_bridge;

namespace {

/// Refuses what is not an 8-bit image of `channels` channels (any of 1, 3, 4 when 0).
bool isEightBit(const cv::Mat &image, int channels, const char *what, OCVError *error) {
    const bool channelsFit = channels ? image.channels() == channels
                                      : (image.channels() == 1 || image.channels() == 3 || image.channels() == 4);
    if (image.depth() == CV_8U && channelsFit && !image.empty()) return true;
    setMessage(error, "%s must be a non-empty 8-bit image with %s channel(s), got %d channel(s) of depth %d", what,
               channels == 1 ? "1" : channels == 3 ? "3" : "1, 3 or 4", image.channels(), image.depth());
    return false;
}

bool sameSize(const cv::Mat &one, const cv::Mat &other, OCVError *error) {
    if (one.size() == other.size()) return true;
    setMessage(error, "sizes differ: %dx%d and %dx%d", one.cols, one.rows, other.cols, other.rows);
    return false;
}

cv::Scalar scalar(const double *colour, int channels) {
    cv::Scalar value;
    for (int channel = 0; channel < std::min(channels, 4); ++channel) value[channel] = colour[channel];
    return value;
}

}  // namespace

// MARK: - Edges

OCVStatus ocv_canny(const OCVImage *gray, const OCVImage *edges, double low, double high, int32_t aperture, bool l2Gradient,
                    OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(gray);
        cv::Mat output = matrix(edges);
        if (!isEightBit(input, 1, "Canny's input", error) || !isEightBit(output, 1, "Canny's output", error)
            || !sameSize(input, output, error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::Canny(input, output, low, high, aperture, l2Gradient);
        return checkWrittenInPlace(output, edges, error);
    });
}

OCVStatus ocv_gradient(const OCVImage *gray, const OCVImage *strength, OCVGradientOperator method, OCVGradientDirection direction,
                       int32_t aperture, double scale, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(gray);
        cv::Mat output = matrix(strength);
        if (!isEightBit(input, 1, "a gradient's input", error) || !isEightBit(output, 1, "a gradient's output", error)
            || !sameSize(input, output, error)) return OCV_STATUS_BAD_ARGUMENT;
        // Floats: a 7×7 Sobel of 8-bit values reaches 244800, beyond 16 bits.
        const auto derivative = [&](int dx, int dy, cv::Mat &result) {
            if (method == OCV_GRADIENT_SCHARR) cv::Scharr(input, result, CV_32F, dx, dy);
            else cv::Sobel(input, result, CV_32F, dx, dy, aperture);
        };
        if (direction == OCV_GRADIENT_BOTH) {
            cv::Mat gx, gy, magnitude;
            derivative(1, 0, gx);
            derivative(0, 1, gy);
            cv::magnitude(gx, gy, magnitude);
            magnitude.convertTo(output, CV_8U, scale);
        } else {
            cv::Mat slope;
            derivative(direction == OCV_GRADIENT_X ? 1 : 0, direction == OCV_GRADIENT_Y ? 1 : 0, slope);
            cv::convertScaleAbs(slope, output, scale);
        }
        return checkWrittenInPlace(output, strength, error);
    });
}

OCVStatus ocv_paint_mask(const OCVImage *image, const OCVImage *mask, const double *colour, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        const cv::Mat weights = matrix(mask);
        if (!isEightBit(canvas, 0, "a painted image", error) || !isEightBit(weights, 1, "a mask", error)
            || !sameSize(canvas, weights, error)) return OCV_STATUS_BAD_ARGUMENT;
        const int channels = canvas.channels();
        int ink[4] = {0, 0, 0, 0};
        for (int channel = 0; channel < channels; ++channel) ink[channel] = cv::saturate_cast<uchar>(colour[channel]);
        cv::parallel_for_(cv::Range(0, canvas.rows), [&](const cv::Range &rows) {
            for (int y = rows.start; y < rows.end; ++y) {
                uchar *pixel = canvas.ptr<uchar>(y);
                const uchar *weight = weights.ptr<uchar>(y);
                for (int x = 0; x < canvas.cols; ++x, pixel += channels) {
                    const int w = weight[x];
                    if (w == 0) continue;
                    for (int channel = 0; channel < channels; ++channel) {
                        pixel[channel] = static_cast<uchar>((pixel[channel] * (255 - w) + ink[channel] * w + 127) / 255);
                    }
                }
            }
        });
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_dilate_square(const OCVImage *source, const OCVImage *destination, int32_t size, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination);
        if (size < 1) {
            setMessage(error, "a dilation's square is at least 1 pixel, got %d", size);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::dilate(input, output, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(size, size)));
        return checkWrittenInPlace(output, destination, error);
    });
}

// MARK: - Corners

OCVStatus ocv_harris_corners(const OCVImage *gray, int32_t blockSize, int32_t aperture, double k, double relativeThreshold,
                             int32_t capacity, float *corners, int32_t *count, OCVError *error) {
    return fenced(error, [&] {
        *count = 0;
        const cv::Mat input = matrix(gray);
        if (!isEightBit(input, 1, "Harris's input", error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::Mat response;
        cv::cornerHarris(input, response, blockSize, aperture, k);
        double strongest = 0;
        cv::minMaxLoc(response, nullptr, &strongest);
        if (!(strongest > 0) || capacity <= 0) return OCV_STATUS_OK;
        // Local maxima over about the block: one corner gives one point, not a blob of them.
        const int window = std::max(5, 2 * blockSize + 1);
        cv::Mat dilated;
        cv::dilate(response, dilated, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(window, window)));
        const float threshold = static_cast<float>(relativeThreshold * strongest);
        struct Corner { float response; int x, y; };
        std::vector<Corner> found;
        for (int y = 0; y < response.rows; ++y) {
            const float *row = response.ptr<float>(y), *peak = dilated.ptr<float>(y);
            for (int x = 0; x < response.cols; ++x) {
                if (row[x] >= threshold && row[x] >= peak[x]) found.push_back({row[x], x, y});
            }
        }
        std::stable_sort(found.begin(), found.end(), [](const Corner &a, const Corner &b) { return a.response > b.response; });
        // Ties make neighbouring maxima (a square's corner is symmetric about its diagonal): the
        // strongest wins within half a window.
        const int apart = window / 2;
        std::vector<Corner> kept;
        for (const Corner &corner : found) {
            if (static_cast<int32_t>(kept.size()) == capacity) break;
            const bool near = std::any_of(kept.begin(), kept.end(), [&](const Corner &other) {
                return std::abs(other.x - corner.x) <= apart && std::abs(other.y - corner.y) <= apart;
            });
            if (!near) kept.push_back(corner);
        }
        for (size_t index = 0; index < kept.size(); ++index) {
            corners[3 * index] = static_cast<float>(kept[index].x);
            corners[3 * index + 1] = static_cast<float>(kept[index].y);
            corners[3 * index + 2] = kept[index].response;
        }
        *count = static_cast<int32_t>(kept.size());
        return OCV_STATUS_OK;
    });
}

// MARK: - Colour

OCVStatus ocv_transform_colour(const OCVImage *source, const OCVImage *destination, const float *matrixValues, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination);
        if (!isEightBit(input, 0, "a transform's input", error) || !isEightBit(output, 0, "a transform's output", error)
            || !sameSize(input, output, error)) return OCV_STATUS_BAD_ARGUMENT;
        const cv::Mat transform(output.channels(), input.channels(), CV_32F, const_cast<float *>(matrixValues));
        cv::transform(input, output, transform);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_invert_colours(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination);
        if (!isEightBit(input, 0, "an inverted image", error) || input.type() != output.type() || !sameSize(input, output, error)) {
            if (!error->message[0]) setMessage(error, "an inversion's output must have its input's type");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // bitwise_not where there is no alpha; XOR with (255, 255, 255, 0) keeps it.
        if (input.channels() == 4) cv::bitwise_xor(input, cv::Scalar(255, 255, 255, 0), output);
        else cv::bitwise_not(input, output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_scale_values(const OCVImage *source, const OCVImage *destination, double contrast, double brightness, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination);
        if (!isEightBit(input, 0, "a scaled image", error) || input.channels() == 4 || input.type() != output.type()
            || !sameSize(input, output, error)) {
            if (!error->message[0]) setMessage(error, "values are scaled in 1 or 3 channels, into the input's type");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        input.convertTo(output, -1, contrast, brightness);
        return checkWrittenInPlace(output, destination, error);
    });
}

// MARK: - Contours

struct OCVContours {
    std::vector<std::vector<cv::Point>> contours;
    std::vector<double> areas;
    std::vector<int> depths;
};

OCVStatus ocv_contours_find(const OCVImage *gray, OCVBinarization binarization, double threshold, bool outerOnly,
                            double minimumArea, OCVContours **contours, OCVError *error) {
    *contours = nullptr;
    return fenced(error, [&] {
        const cv::Mat input = matrix(gray);
        if (!isEightBit(input, 1, "the contours' input", error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::Mat binary;
        if (binarization == OCV_BINARIZE_CANNY) {
            cv::Canny(input, binary, threshold / 2, threshold);
        } else if (binarization == OCV_BINARIZE_ADAPTIVE) {
            // Shapes are what differs from their neighbourhood, a quarter of the short side across (odd, at
            // least 3: it sees past most objects to their background), by more than 6 levels (the sweep's
            // choice: 4 lets noise in, 10 loses shapes in dim light): darker than it on light paper, lighter on dark. The paper is light when the border is brighter than the
            // frame on average (the shapes pull the average their way), which light falling across the
            // frame changes on both alike.
            const int block = std::max(3, (std::min(input.cols, input.rows) / 4) | 1);
            const double border = (cv::sum(input.row(0))[0] + cv::sum(input.row(input.rows - 1))[0] + cv::sum(input.col(0))[0]
                                   + cv::sum(input.col(input.cols - 1))[0]) / (2.0 * (input.rows + input.cols));
            const bool lightPaper = border >= cv::mean(input)[0];
            cv::adaptiveThreshold(input, binary, 255, cv::ADAPTIVE_THRESH_MEAN_C, lightPaper ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY,
                                  block, lightPaper ? 6 : -6);
        } else {
            cv::threshold(input, binary, threshold, 255, cv::THRESH_BINARY | (binarization == OCV_BINARIZE_OTSU ? cv::THRESH_OTSU : 0));
            // The background is what the border mostly shows: shapes are what differs from it.
            const int last = binary.rows - 1, right = binary.cols - 1;
            const double borderIn = cv::countNonZero(binary.row(0)) + cv::countNonZero(binary.row(last))
                + cv::countNonZero(binary.col(0)) + cv::countNonZero(binary.col(right));
            if (borderIn > (binary.rows + binary.cols)) cv::bitwise_not(binary, binary);
        }
        std::vector<std::vector<cv::Point>> all;
        std::vector<cv::Vec4i> hierarchy;
        cv::findContours(binary, all, hierarchy, outerOnly ? cv::RETR_EXTERNAL : cv::RETR_TREE, cv::CHAIN_APPROX_SIMPLE);
        auto found = std::make_unique<OCVContours>();
        for (size_t index = 0; index < all.size(); ++index) {
            const double area = cv::contourArea(all[index]);
            if (area < minimumArea) continue;
            int depth = 0;
            for (int parent = hierarchy[index][3]; parent >= 0; parent = hierarchy[static_cast<size_t>(parent)][3]) ++depth;
            found->contours.push_back(std::move(all[index]));
            found->areas.push_back(area);
            found->depths.push_back(depth);
        }
        *contours = found.release();
        return OCV_STATUS_OK;
    });
}

int32_t ocv_contours_count(const OCVContours *contours) {
    return static_cast<int32_t>(contours->contours.size());
}

void ocv_contours_describe(const OCVContours *contours, int32_t index, double *area, OCVRectangle *bounds, int32_t *depth) {
    const auto at = static_cast<size_t>(index);
    const cv::Rect box = cv::boundingRect(contours->contours[at]);
    *area = contours->areas[at];
    *bounds = OCVRectangle{box.x, box.y, box.width, box.height};
    *depth = contours->depths[at];
}

OCVStatus ocv_contours_draw(const OCVContours *contours, const OCVImage *image, const double *colour, int32_t thickness,
                            OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        if (!isEightBit(canvas, 0, "the contours' canvas", error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::drawContours(canvas, contours->contours, -1, scalar(colour, canvas.channels()), thickness, cv::LINE_8);
        return OCV_STATUS_OK;
    });
}

void ocv_contours_free(OCVContours *contours) {
    delete contours;
}

// MARK: - Cartoon, canvas, denoising

OCVStatus ocv_mean_shift(const OCVImage *bgr, const OCVImage *destination, double spatialRadius, double colourRadius,
                         int32_t levels, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(bgr);
        cv::Mat output = matrix(destination);
        if (!isEightBit(input, 3, "mean shift's input", error) || !isEightBit(output, 3, "mean shift's output", error)
            || !sameSize(input, output, error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::pyrMeanShiftFiltering(input, output, spatialRadius, colourRadius, levels);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_bilateral(const OCVImage *source, const OCVImage *destination, int32_t diameter, double sigmaColour,
                        double sigmaSpace, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination);
        if (input.channels() == 4) {
            setMessage(error, "a bilateral filter takes 1 or 3 channels, not 4");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        if (!isEightBit(input, 0, "a bilateral filter's input", error) || !sameSize(input, output, error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::bilateralFilter(input, output, diameter, sigmaColour, sigmaSpace);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_adaptive_threshold(const OCVImage *gray, const OCVImage *destination, int32_t blockSize, double offset,
                                 bool gaussian, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(gray);
        cv::Mat output = matrix(destination);
        if (!isEightBit(input, 1, "an adaptive threshold's input", error) || !sameSize(input, output, error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::adaptiveThreshold(input, output, 255, gaussian ? cv::ADAPTIVE_THRESH_GAUSSIAN_C : cv::ADAPTIVE_THRESH_MEAN_C,
                              cv::THRESH_BINARY, blockSize, offset);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_extract_channel(const OCVImage *source, const OCVImage *plane, int32_t channel, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(plane);
        if (!isEightBit(output, 1, "a channel's plane", error) || !sameSize(input, output, error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::extractChannel(input, output, channel);
        return checkWrittenInPlace(output, plane, error);
    });
}

OCVStatus ocv_merge_channels(const OCVImage *const *planes, int32_t count, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        std::vector<cv::Mat> inputs;
        for (int32_t index = 0; index < count; ++index) inputs.push_back(matrix(planes[index]));
        if (inputs.empty() || static_cast<int>(inputs.size()) != output.channels()) {
            setMessage(error, "%d planes cannot make an image of %d channels", count, output.channels());
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::merge(inputs, output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_denoise_tv(const OCVImage *gray, const OCVImage *destination, double lambda, int32_t iterations, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(gray);
        cv::Mat output = matrix(destination);
        if (!isEightBit(input, 1, "TV denoising's input", error) || !isEightBit(output, 1, "TV denoising's output", error)
            || !sameSize(input, output, error)) return OCV_STATUS_BAD_ARGUMENT;
        cv::denoise_TVL1(std::vector<cv::Mat>{input}, output, lambda, iterations);
        return checkWrittenInPlace(output, destination, error);
    });
}

// MARK: - Keypoints

OCVStatus ocv_keypoints(const OCVImage *gray, OCVKeypointDetector detector, int32_t capacity, double threshold,
                        OCVKeypoint *keypoints, int32_t *count, OCVError *error) {
    return fenced(error, [&] {
        *count = 0;
        const cv::Mat input = matrix(gray);
        if (!isEightBit(input, 1, "a keypoint detector's input", error)) return OCV_STATUS_BAD_ARGUMENT;
        if (capacity < 1) return OCV_STATUS_OK;
        std::vector<cv::KeyPoint> found;
        switch (detector) {
        case OCV_KEYPOINTS_ORB:
            cv::ORB::create(capacity, 1.2f, 8, 31, 0, 2, cv::ORB::HARRIS_SCORE, 31, static_cast<int>(threshold))->detect(input, found);
            break;
        case OCV_KEYPOINTS_FAST:
            cv::FastFeatureDetector::create(static_cast<int>(threshold), true)->detect(input, found);
            break;
        case OCV_KEYPOINTS_AKAZE: {
            const auto akaze = cv::AKAZE::create();
            akaze->setThreshold(threshold / 10000);
            akaze->detect(input, found);
            break;
        }
        default:
            setMessage(error, "unknown keypoint detector %d", static_cast<int>(detector));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::KeyPointsFilter::retainBest(found, capacity);
        // Strongest first, and the same order every run.
        std::stable_sort(found.begin(), found.end(), [](const cv::KeyPoint &a, const cv::KeyPoint &b) {
            if (a.response != b.response) return a.response > b.response;
            return a.pt.y != b.pt.y ? a.pt.y < b.pt.y : a.pt.x < b.pt.x;
        });
        const size_t kept = std::min(found.size(), static_cast<size_t>(capacity));
        for (size_t index = 0; index < kept; ++index) {
            const cv::KeyPoint &point = found[index];
            keypoints[index] = OCVKeypoint{point.pt.x, point.pt.y, point.size, point.angle, point.response};
        }
        *count = static_cast<int32_t>(kept);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_draw_keypoints(const OCVImage *image, const OCVKeypoint *keypoints, int32_t count, const double *colour,
                             OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        if (!isEightBit(canvas, 0, "the keypoints' canvas", error)) return OCV_STATUS_BAD_ARGUMENT;
        const cv::Scalar ink = scalar(colour, canvas.channels());
        // cv::drawKeypoints' rich drawing, in one colour and on any channel count: 4 fractional bits.
        const int shift = 4, unit = 1 << shift;
        for (int32_t index = 0; index < count; ++index) {
            const OCVKeypoint &point = keypoints[index];
            const cv::Point centre(cvRound(point.x * unit), cvRound(point.y * unit));
            const float radius = std::max(point.size / 2, 1.0f);
            cv::circle(canvas, centre, cvRound(radius * unit), ink, 1, cv::LINE_AA, shift);
            if (point.angle >= 0) {
                const double radians = point.angle * CV_PI / 180;
                const cv::Point tip(cvRound((point.x + radius * std::cos(radians)) * unit), cvRound((point.y + radius * std::sin(radians)) * unit));
                cv::line(canvas, centre, tip, ink, 1, cv::LINE_AA, shift);
            }
        }
        return OCV_STATUS_OK;
    });
}

// MARK: - Tracks

OCVStatus ocv_draw_tracks(const OCVImage *image, const float *points, const int32_t *lengths, int32_t trackCount,
                          const double *colour, int32_t radius, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        if (!isEightBit(canvas, 0, "the tracks' canvas", error)) return OCV_STATUS_BAD_ARGUMENT;
        const int channels = canvas.channels();
        int ink[4] = {0, 0, 0, 0};
        for (int channel = 0; channel < channels; ++channel) ink[channel] = cv::saturate_cast<uchar>(colour[channel]);
        const float *point = points;
        for (int32_t track = 0; track < trackCount; ++track) {
            const int length = lengths[track];
            if (length < 1) continue;
            const int segments = length - 1;
            for (int segment = 0; segment < segments; ++segment) {
                // The oldest segment faintest: a track fades out behind the point.
                const int weight = 255 * (segment + 1) / segments;
                const cv::Point from(cvRound(point[2 * segment]), cvRound(point[2 * segment + 1]));
                const cv::Point to(cvRound(point[2 * segment + 2]), cvRound(point[2 * segment + 3]));
                cv::LineIterator line(canvas, from, to, 8);
                for (int step = 0; step < line.count; ++step, ++line) {
                    uchar *pixel = *line;
                    for (int channel = 0; channel < channels; ++channel) {
                        pixel[channel] = static_cast<uchar>((pixel[channel] * (255 - weight) + ink[channel] * weight + 127) / 255);
                    }
                }
            }
            const float *newest = point + 2 * (length - 1);
            cv::circle(canvas, cv::Point(cvRound(newest[0]), cvRound(newest[1])), radius, scalar(colour, channels), cv::FILLED, cv::LINE_8);
            point += 2 * length;
        }
        return OCV_STATUS_OK;
    });
}

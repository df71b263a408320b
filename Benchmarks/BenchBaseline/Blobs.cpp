// Blobs as the textbook finds, describes (ORB, CLAHE) and counts them.
#include "Support.hpp"

#include <opencv2/features2d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

using namespace bench_baseline;

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

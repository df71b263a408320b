// The OpenCV tutorial's samples, as its apps write them.
#include "Support.hpp"

#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/photo.hpp>
#include <opencv2/video/tracking.hpp>
#include <opencv2/xphoto/white_balance.hpp>

#include <algorithm>
#include <cmath>

using namespace bench_baseline;

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

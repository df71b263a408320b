// Faces as the textbook finds them (cascades) and merges them.
#include "Support.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <opencv2/photo.hpp>

#include <algorithm>
#include <cmath>

using namespace bench_baseline;

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

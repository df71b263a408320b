// The separating detection (a lit table, touching objects): each step in a file of its own, declared in
// Separation.hpp; this file runs them in order on a frame and reads the result back.
#include "Bridging.hpp"
#include "OcularAlgorithms.h"
#include "BlobFinder.hpp"
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <future>
#include <memory>
#include <vector>

using namespace ocular_bridge;
using namespace ocular_bean_counter;

OCVStatus ocular_blob_finder_separate(OcularBlobFinder *finder, const OCVImage *image, const OcularBlobSeparationSettings *settings,
                                   int32_t *count, OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (settings->workingShortSide < 16) {
            setMessage(error, "the working size must be at least 16 pixels, got %d", settings->workingShortSide);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        if (!finder->separation) finder->separation = std::make_unique<BlobSeparation>();
        BlobSeparation &s = *finder->separation;
        const cv::Mat frame = matrix(image);
        if (frame.type() != CV_8UC3) {
            setMessage(error, "separating blobs needs 8-bit BGR, got type %d", frame.type());
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const int shortSide = std::min(frame.cols, frame.rows);
        finder->rectangles.clear();
        s.rectangleLabels.clear();
        // Too small a frame has too few pixels to tell a table from what lies on it.
        if (shortSide < 16) {
            finder->mask = cv::Mat(frame.size(), CV_8U, cv::Scalar(255));
            return OCV_STATUS_OK;
        }
        s.scale = std::min(1.0, static_cast<double>(settings->workingShortSide) / shortSide);
        // `working` may be the caller's frame itself, which must never be kept: `s.working` only ever
        // holds memory of its own, or a later resize would write into a frame long gone.
        cv::Mat working = frame;
        if (s.scale < 1) {
            cv::resize(frame, s.working, cv::Size(std::max(1, cvRound(frame.cols * s.scale)), std::max(1, cvRound(frame.rows * s.scale))),
                       0, 0, cv::INTER_AREA);
            working = s.working;
        }
        // Circles are proposed from the working frame alone: the search, the finding's dearest step and
        // mostly one core's work, runs on a thread of its own while the mask and the colours are made.
        std::future<std::vector<cv::Vec3f>> proposals;
        if (settings->coinRoundness > 0) proposals = std::async(std::launch::async, [&working, settings] { return proposeCoins(working, *settings); });
        // The background surface, fitted on a copy about `surfaceSide` pixels across its short side.
        const double fitScale = std::min(1.0, static_cast<double>(settings->surfaceSide) / std::min(working.cols, working.rows));
        cv::resize(working, s.small, cv::Size(std::max(2, cvRound(working.cols * fitScale)), std::max(2, cvRound(working.rows * fitScale))),
                   0, 0, cv::INTER_AREA);
        bool lightTable = true;
        s.background = BackgroundSurface::fit(s.small, settings->tint / 2, *settings, lightTable);
        const float darker = static_cast<float>(lightTable ? settings->darker : settings->darkerOnDarkTable);
        compareWithTable(working, s.background, darker, static_cast<float>(settings->brighter), static_cast<float>(settings->tint),
                         s.objects, s.brightness, s.lean, s.ratio);
        const cv::Mat marked = s.objects.clone();
        // Specks go, holes (a coin's shine) fill, and what is smaller than the smallest blob goes.
        cleanMask(s.objects);
        const double smallestSide = shortSide * settings->minimumFraction * s.scale;
        keepLarge(s.objects, smallestSide, finder->contours);
        // A hole that looks like table is table: the paper showing between a ring of beans and its coin.
        // Only on a table lighter than what lies on it: on dark cloth a coin's dark relief looks like cloth.
        if (lightTable) clearTablePockets(s.objects, marked, s.brightness, s.lean, *settings);
        // From here on nothing looks further than a few pixels outside an object, so the rest is worked
        // out in the box round the objects (a ring or a heap fills a third of the frame or less; the
        // demo's scattered coins and beans, under half) and the labels put back in the frame after.
        // Every step gives there what it gave over the whole frame: their pixels keep their order, and
        // the box's margin is table, as the frame round it is. The colour step's blur reads the ratio
        // beyond the box, as OpenCV's filters do round a submatrix; the margin keeps the Sobel's own
        // border out of the regions (that step was the separation's dearest: 9 of 40 ms at 720p).
        const int margin = static_cast<int>(std::ceil(4 * settings->colourSigma)) + 4;
        const cv::Rect objectsBox = cv::boundingRect(s.objects);
        const cv::Rect box = cv::Rect(objectsBox.x - margin, objectsBox.y - margin, objectsBox.width + 2 * margin,
                                      objectsBox.height + 2 * margin) & cv::Rect(0, 0, working.cols, working.rows);
        // The colours compared: chromaticities and log brightness of the smoothed ratio to the table, and
        // their gradient (worked out while the circles are looked for: they need the mask, not the coins).
        cv::Mat colours, gradient;
        if (!objectsBox.empty()) colourFeatures(s.ratio(box), *settings, colours, gradient);
        // Coins first: a round object is told from what touches it by its outline, which no split of
        // the mask finds as surely. The rest is separated with the coins carved out, then the coins are
        // given back their pixels as objects of their own.
        const std::vector<cv::Vec3f> coins = proposals.valid() ? judgeCoins(working, s.objects, proposals.get(), *settings)
                                                               : std::vector<cv::Vec3f>();
        const cv::Mat rest = coins.empty() ? s.objects : carveCoins(s.objects, coins, *settings, smallestSide);
        s.labels.create(working.size(), CV_32S);
        s.labels.setTo(0);
        if (!objectsBox.empty()) {
            const cv::Mat inBox = rest(box).clone();
            // The distance map is taken with the seams out, so objects part where their colours change
            // even where their outlines do not pinch (beans side by side in a heap); a seam pixel is
            // flooded last, by whichever neighbour reaches it first. A region the outline alone parts
            // that is an ellipse already is one object, and keeps its seams: a coin's relief, a bean's stripe.
            cv::Mat labels;
            s.whole.create(box.size(), CV_8U);
            s.whole.setTo(0);
            if (settings->seamGradient > 0 && settings->wholeEllipse < 1) {
                cv::distanceTransform(inBox, s.distance, cv::DIST_L2, cv::DIST_MASK_5);
                flood(s.distance, distancePeaks(s.distance, settings->persistence, settings->peakFloor), labels);
                markEllipses(labels, settings->wholeEllipse, s.whole);
            }
            cutAtSeams(inBox, gradient, settings->seamGradient, s.whole, s.carved);
            cv::distanceTransform(s.carved, s.distance, cv::DIST_L2, cv::DIST_MASK_5);
            s.distance.setTo(seamDistance, inBox & (s.carved == 0));
            flood(s.distance, distancePeaks(s.distance, settings->persistence, settings->peakFloor), labels);
            if (settings->splitDepth > 0) {
                const double smallestCore = settings->smallestCore * std::min(working.cols, working.rows);
                splitRegions(labels, colours, gradient, *settings, smallestCore);
                joinIntoEllipses(labels, *settings, smallestSide);
            }
            if (settings->notchDepth > 0) cutAtNotches(labels, *settings);
            // What was mostly a filled hole is the table's shade in a gap between objects, not an object
            // (on a light table only, as the holes' test above: on dark cloth a coin's relief is filled in).
            if (lightTable && settings->filledShare < 1) dropFilled(labels, marked(box), settings->filledShare);
            // A seam also runs between an object and its own deep shadow, which is no object: it goes
            // back to the object it lies against. A shadow is in the mask for its darkness, so a region
            // lighter on average than the darkness that marks an object on this table is none (coffee
            // beans on dark card: 0.56–0.69 of the card).
            if (settings->shadowLean > 0)
                joinShadows(labels, s.brightness(box), s.lean(box), settings->shadowLean, settings->shadowDarkest,
                            std::min(settings->shadowLightest, static_cast<double>(darker)), settings->shadowEllipse);
            if (!coins.empty()) giveCoinsTheirPixels(labels, s.objects(box), coins, box.tl(), *settings);
            labels.copyTo(s.labels(box));
        }
        // Each object's rectangle, back at the frame's size.
        std::vector<cv::Rect> found;
        std::vector<int> bounds;  // per label: minX, minY, maxX, maxY
        for (int y = box.y; y < box.y + box.height; ++y) {  // outside the box, no label
            const int32_t *row = s.labels.ptr<int32_t>(y);
            for (int x = box.x; x < box.x + box.width; ++x) {
                const int label = row[x];
                if (label == 0) continue;
                if (static_cast<int>(bounds.size()) < label * 4) bounds.resize(label * 4, -1);
                int *b = &bounds[(label - 1) * 4];
                if (b[0] < 0) { b[0] = b[2] = x; b[1] = b[3] = y; continue; }
                b[0] = std::min(b[0], x); b[1] = std::min(b[1], y); b[2] = std::max(b[2], x); b[3] = std::max(b[3], y);
            }
        }
        const cv::Rect whole(0, 0, frame.cols, frame.rows);
        const int smallest = static_cast<int>(shortSide * settings->minimumFraction);
        for (size_t label = 1; label * 4 <= bounds.size(); ++label) {
            const int *b = &bounds[(label - 1) * 4];
            if (b[0] < 0) continue;
            const int x0 = static_cast<int>(std::floor(b[0] / s.scale)), y0 = static_cast<int>(std::floor(b[1] / s.scale));
            const int x1 = static_cast<int>(std::ceil((b[2] + 1) / s.scale)), y1 = static_cast<int>(std::ceil((b[3] + 1) / s.scale));
            const cv::Rect full = cv::Rect(x0, y0, x1 - x0, y1 - y0) & whole;
            if (full.width < smallest && full.height < smallest) continue;
            finder->rectangles.push_back(full);
            s.rectangleLabels.push_back(static_cast<int>(label));
        }
        // The mask shown by the Image/Mask toggle: 255 for background, as the textbook's.
        cv::compare(s.labels, 0, finder->mask, cv::CMP_EQ);
        *count = static_cast<int32_t>(finder->rectangles.size());
        return OCV_STATUS_OK;
    });
}

OCVStatus ocular_blob_finder_isolate(const OcularBlobFinder *finder, const OCVImage *image, int32_t index, const OCVImage *output,
                                  const OCVImage *mask, double *tableBrightness, OCVError *error) {
    return fenced(error, [&] {
        if (!finder->separation || index < 0 || static_cast<size_t>(index) >= finder->separation->rectangleLabels.size()) {
            setMessage(error, "no separated blob %d", index);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const BlobSeparation &s = *finder->separation;
        const cv::Mat frame = matrix(image);
        const cv::Rect bounds = finder->rectangles[index];
        cv::Mat out = matrix(output), own = matrix(mask);
        if (frame.type() != CV_8UC3 || out.type() != CV_8UC3 || out.cols != bounds.width || out.rows != bounds.height ||
            own.type() != CV_8UC1 || own.size() != out.size() || bounds.x + bounds.width > frame.cols ||
            bounds.y + bounds.height > frame.rows) {
            setMessage(error, "the blob's picture must be 8-bit BGR and its mask 8-bit gray, both of its rectangle's size");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // The table's brightness under the blob's centre, by which its light can be divided out.
        {
            const double fx = 2.0 * (bounds.x + bounds.width / 2.0) / frame.cols - 1, fy = 2.0 * (bounds.y + bounds.height / 2.0) / frame.rows - 1;
            *tableBrightness = (s.background.value(0, fx, fy) + s.background.value(1, fx, fy) + s.background.value(2, fx, fy)) / 3;
        }
        const int ownLabel = s.rectangleLabels[index];
        // A neighbour's pixels become the table under them, so that one object's description holds
        // none of another's colour or texture.
        for (int y = 0; y < bounds.height; ++y) {
            const int frameY = bounds.y + y;
            const int labelY = std::min(s.labels.rows - 1, static_cast<int>(frameY * s.scale));
            const double fy = 2.0 * (frameY + 0.5) / frame.rows - 1;
            const cv::Vec3b *source = frame.ptr<cv::Vec3b>(frameY);
            cv::Vec3b *target = out.ptr<cv::Vec3b>(y);
            uint8_t *mine = own.ptr<uint8_t>(y);
            const int32_t *labels = s.labels.ptr<int32_t>(labelY);
            for (int x = 0; x < bounds.width; ++x) {
                const int frameX = bounds.x + x;
                const int label = labels[std::min(s.labels.cols - 1, static_cast<int>(frameX * s.scale))];
                mine[x] = label == ownLabel ? 255 : 0;
                if (label == 0 || label == ownLabel) {
                    target[x] = source[frameX];
                    continue;
                }
                const double fx = 2.0 * (frameX + 0.5) / frame.cols - 1;
                for (int c = 0; c < 3; ++c) target[x][c] = cv::saturate_cast<uint8_t>(s.background.value(c, fx, fy));
            }
        }
        return OCV_STATUS_OK;
    });
}

// Seams: inside the objects, where the colour changes sharply, objects that touch meet; and the
// regions that were mostly a filled hole (the table's shade between objects) are none.
#include "Separation.hpp"

#include <opencv2/imgproc.hpp>

#include <vector>


namespace ocular_bean_counter {

void cutAtSeams(const cv::Mat &objects, const cv::Mat &gradient, double threshold, const cv::Mat &uncut, cv::Mat &carved) {
    objects.copyTo(carved);
    if (threshold <= 0) return;
    carved.setTo(0, (gradient >= threshold) & (uncut == 0));
    cv::Mat pieces;
    const int count = cv::connectedComponents(carved == 0, pieces, 8, CV_32S);
    std::vector<uint8_t> reachesTable(count, 0);
    for (int y = 0; y < pieces.rows; ++y) {
        const int32_t *piece = pieces.ptr<int32_t>(y);
        const uint8_t *object = objects.ptr<uint8_t>(y);
        for (int x = 0; x < pieces.cols; ++x) if (!object[x]) reachesTable[piece[x]] = 1;
    }
    for (int y = 0; y < pieces.rows; ++y) {
        const int32_t *piece = pieces.ptr<int32_t>(y);
        const uint8_t *object = objects.ptr<uint8_t>(y);
        uint8_t *kept = carved.ptr<uint8_t>(y);
        for (int x = 0; x < pieces.cols; ++x) if (object[x] && !reachesTable[piece[x]]) kept[x] = 255;
    }
}

void dropFilled(cv::Mat &labels, const cv::Mat &marked, double share) {
    std::vector<int> filled, all;
    for (int y = 0; y < labels.rows; ++y) {
        const int32_t *row = labels.ptr<int32_t>(y);
        const uint8_t *mark = marked.ptr<uint8_t>(y);
        for (int x = 0; x < labels.cols; ++x) {
            if (row[x] <= 0) continue;
            if (static_cast<size_t>(row[x]) >= all.size()) {
                all.resize(row[x] + 1, 0);
                filled.resize(row[x] + 1, 0);
            }
            ++all[row[x]];
            if (!mark[x]) ++filled[row[x]];
        }
    }
    for (int y = 0; y < labels.rows; ++y) {
        int32_t *row = labels.ptr<int32_t>(y);
        for (int x = 0; x < labels.cols; ++x) if (row[x] > 0 && filled[row[x]] > share * all[row[x]]) row[x] = 0;
    }
}

}  // namespace ocular_bean_counter

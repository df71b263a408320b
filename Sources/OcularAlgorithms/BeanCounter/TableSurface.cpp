// Fitting the table's surface: least squares with the objects dropped as outliers, round by round.
#include "TableSurface.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ocular_bean_counter {


// The surface of the table: fitted from the brighter half of the pixels and from the darker
// half, the one that more of the picture lies close to (within `surfaceClose` of its
// brightness). The table is lighter than what lies on it when most of what stands out from it
// is darker: most tables are, but coins on black velvet are not. (Which start won said nothing
// of it: on a table the objects fill less than half of, both starts end on the table.)
BackgroundSurface BackgroundSurface::fit(const cv::Mat &small, double floor, const OcularBlobSeparationSettings &settings,
                                            bool &lighterThanObjects) {
    int brighterInliers = 0, darkerInliers = 0;
    const BackgroundSurface brighter = fit(small, floor, settings, true, brighterInliers);
    const BackgroundSurface darker = fit(small, floor, settings, false, darkerInliers);
    const BackgroundSurface &table = darkerInliers <= brighterInliers ? brighter : darker;
    int darkerObjects = 0, lighterObjects = 0;
    for (int y = 0; y < small.rows; ++y) {
        for (int x = 0; x < small.cols; ++x) {
            const double fx = 2.0 * (x + 0.5) / small.cols - 1, fy = 2.0 * (y + 0.5) / small.rows - 1;
            const cv::Vec3b pixel = small.at<cv::Vec3b>(y, x);
            double model = 0, sum = 0;
            for (int c = 0; c < 3; ++c) {
                model += table.value(c, fx, fy);
                sum += pixel[c];
            }
            if (sum < (1 - settings.surfaceClose) * model) ++darkerObjects;
            else if (sum > (1 + settings.surfaceClose) * model) ++lighterObjects;
        }
    }
    lighterThanObjects = darkerObjects >= lighterObjects;
    return table;
}

// Fits the surface to a small copy of the frame, dropping pixels that stand out from the
// previous fit: objects are outliers of the background, whatever colour they are. `close`
// gets how many pixels lie within `surfaceClose` of the final surface.
BackgroundSurface BackgroundSurface::fit(const cv::Mat &small, double floor, const OcularBlobSeparationSettings &settings,
                                            bool startBrighter, int &close) {
    const double outliers = settings.surfaceOutliers;
    const int n = small.rows * small.cols;
    constexpr int T = termCount;
    BackgroundSurface surface{};
    surface.aspectX = static_cast<double>(small.cols) / std::max(small.cols, small.rows);
    surface.aspectY = static_cast<double>(small.rows) / std::max(small.cols, small.rows);
    cv::Mat design(n, T, CV_64F), values(n, 3, CV_64F);
    for (int y = 0; y < small.rows; ++y) {
        for (int x = 0; x < small.cols; ++x) {
            const int row = y * small.cols + x;
            surface.terms(2.0 * (x + 0.5) / small.cols - 1, 2.0 * (y + 0.5) / small.rows - 1, design.ptr<double>(row));
            const cv::Vec3b pixel = small.at<cv::Vec3b>(y, x);
            for (int c = 0; c < 3; ++c) values.at<double>(row, c) = pixel[c];
        }
    }
    // The first fit is to the brighter (or darker) half by each pixel's sum: a start inside the
    // background converges in a few rounds.
    std::vector<double> sums(n);
    for (int row = 0; row < n; ++row) sums[row] = values.at<double>(row, 0) + values.at<double>(row, 1) + values.at<double>(row, 2);
    std::vector<double> sorted = sums;
    std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.end());
    const double median = sorted[n / 2];
    std::vector<uint8_t> inlier(n);
    for (int row = 0; row < n; ++row) inlier[row] = startBrighter ? sums[row] >= median : sums[row] <= median;
    close = 0;
    for (int round = 0; round < settings.surfaceRounds; ++round) {
        int count = 0;
        for (int row = 0; row < n; ++row) count += inlier[row];
        if (count < settings.surfaceLeastPixels) break;
        // Least squares by the normal equations: seven unknowns whose terms lie in [-1, 1] are well
        // conditioned, and a 7×7 solve is a hundredth of an SVD of the thousands of inliers.
        cv::Matx<double, T, T> normal = cv::Matx<double, T, T>::zeros();
        cv::Matx<double, T, 3> moments = cv::Matx<double, T, 3>::zeros();
        for (int row = 0; row < n; ++row) {
            if (!inlier[row]) continue;
            const double *t = design.ptr<double>(row), *v = values.ptr<double>(row);
            for (int i = 0; i < T; ++i) {
                for (int j = i; j < T; ++j) normal(i, j) += t[i] * t[j];
                for (int c = 0; c < 3; ++c) moments(i, c) += t[i] * v[c];
            }
        }
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < i; ++j) normal(i, j) = normal(j, i);
        cv::Mat solution;
        if (!cv::solve(cv::Mat(normal), cv::Mat(moments), solution, cv::DECOMP_CHOLESKY))
            cv::solve(cv::Mat(normal), cv::Mat(moments), solution, cv::DECOMP_SVD);
        for (int c = 0; c < 3; ++c)
            for (int i = 0; i < T; ++i) surface.coefficients[c][i] = solution.at<double>(i, c);
        // Residuals relative to the background's brightness; a pixel stays in when it is within
        // `outliers` median residuals (and at least `floor`) of the surface.
        std::vector<double> residuals(n);
        for (int row = 0; row < n; ++row) {
            const double *t = design.ptr<double>(row);
            double worst = 0;
            for (int c = 0; c < 3; ++c) {
                double model = 0;
                for (int i = 0; i < T; ++i) model += surface.coefficients[c][i] * t[i];
                worst = std::max(worst, std::abs(values.at<double>(row, c) - model) / std::max(model, settings.surfaceDarkest));
            }
            residuals[row] = worst;
        }
        std::vector<double> inside;
        for (int row = 0; row < n; ++row) if (inlier[row]) inside.push_back(residuals[row]);
        std::nth_element(inside.begin(), inside.begin() + inside.size() / 2, inside.end());
        const double limit = std::max(floor, outliers * inside[inside.size() / 2]);
        for (int row = 0; row < n; ++row) inlier[row] = residuals[row] <= limit;
        close = static_cast<int>(std::count_if(residuals.begin(), residuals.end(),
                                               [&](double residual) { return residual <= settings.surfaceClose; }));
    }
    return surface;
}

}  // namespace ocular_bean_counter

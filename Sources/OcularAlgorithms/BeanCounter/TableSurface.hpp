// The table under the objects, as a smooth surface per channel (TableSurface.cpp fits it).
#pragma once

#include "OcularAlgorithms.h"

#include <opencv2/core.hpp>

namespace ocular_bean_counter {

// The background's colour as a smooth surface: per channel, a quadratic in x and y (in [-1, 1]
// across the frame) and the fourth power of the distance from the frame's centre, fitted to the
// pixels that look like background. Light falling across a table is smooth, and a lens darkens a
// photo's corners about as the fourth power of the cosine of the angle off its axis, which a
// quadratic alone cannot follow: on a phone's photo of dark card the corners fell a fifth below the
// quadratic's fit and came out as objects. Objects are not smooth, and are left out of the fit as outliers.
struct BackgroundSurface {
    static constexpr int termCount = 7;
    cv::Vec<double, termCount> coefficients[3];
    // The frame's sides over its longer side: the distance from the centre is measured in the
    // frame's own proportions, so the darkening is round on a portrait photo too.
    double aspectX = 1, aspectY = 1;

    void terms(double x, double y, double *out) const {
        const double radius2 = x * x * aspectX * aspectX + y * y * aspectY * aspectY;
        out[0] = 1; out[1] = x; out[2] = y; out[3] = x * x; out[4] = x * y; out[5] = y * y; out[6] = radius2 * radius2;
    }

    double value(int channel, double x, double y) const {
        double t[termCount];
        terms(x, y, t);
        double sum = 0;
        for (int i = 0; i < termCount; ++i) sum += coefficients[channel][i] * t[i];
        return sum;
    }

    // Along the row at `y` the surface is a quartic in x with no cubic term: its coefficients of 1,
    // x, x² and x⁴.
    void row(int channel, double y, double *out) const {
        const cv::Vec<double, termCount> &k = coefficients[channel];
        const double ax2 = aspectX * aspectX, ay2 = aspectY * aspectY * y * y;
        out[0] = k[0] + k[2] * y + k[5] * y * y + k[6] * ay2 * ay2;
        out[1] = k[1] + k[4] * y;
        out[2] = k[3] + k[6] * 2 * ax2 * ay2;
        out[3] = k[6] * ax2 * ax2;
    }

    /// The surface of the table, fitted from the brighter half of the pixels and from the darker half
    /// (whichever more of `small` lies close to); `lighterThanObjects` gets whether most of what stands
    /// out from it is darker.
    static BackgroundSurface fit(const cv::Mat &small, double floor, const OcularBlobSeparationSettings &settings,
                                 bool &lighterThanObjects);

private:
    static BackgroundSurface fit(const cv::Mat &small, double floor, const OcularBlobSeparationSettings &settings, bool startBrighter,
                                 int &close);
};

}  // namespace ocular_bean_counter

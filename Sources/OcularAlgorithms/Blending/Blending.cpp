// Blending a source picture into frames: every mode in one pass over the pixels, rows spread over the
// cores. The textbook's Screen is three OpenCV calls (subtract, multiply, subtract), each a full pass
// through memory; here each output byte is computed from its two input bytes once.
#include "Bridging.hpp"
#include "OcularAlgorithms.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ColourModes.hpp"
#include "SeparableModes.hpp"

using namespace ocular_bridge;
using namespace ocular_blending;

namespace {

/// Blends rows `[first, end)`; alpha (a fourth channel) is copied from the backdrop afterwards, while
/// the row is still in the cache.
OCULAR_VECTOR_CLONES void blendRows(const cv::Mat &backdrop, const cv::Mat &source, cv::Mat &out, OcularBlendMode mode, uint32_t alpha,
               int red, int first, int end) {
    const int channels = backdrop.channels();
    const int count = backdrop.cols * channels;
    const bool hasAlpha = channels == 4;
    for (int y = first; y < end; ++y) {
        const uint8_t *a = backdrop.ptr<uint8_t>(y), *b = source.ptr<uint8_t>(y);
        uint8_t *o = out.ptr<uint8_t>(y);
        const bool separable = mode < OCULAR_BLEND_HUE;
        if (!separable && channels == 1) {
            // A gray pixel has no hue or saturation: hue, saturation and color keep the backdrop's
            // luminosity and so the backdrop; luminosity takes the source's.
            if (mode == OCULAR_BLEND_LUMINOSITY) {
                blendVectors<Normal>(a, b, o, count, alpha, false);
            } else {
                std::copy(a, a + count, o);
            }
            continue;
        }
        switch (mode) {
        case OCULAR_BLEND_NORMAL: blendVectors<Normal>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_AVERAGE: blendVectors<Average>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_MULTIPLY: blendVectors<Multiply>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_SCREEN: blendVectors<Screen>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_OVERLAY: blendVectors<Overlay>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_DARKEN: blendVectors<Darken>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_LIGHTEN: blendVectors<Lighten>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_HARD_LIGHT: blendVectors<HardLight>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_DIFFERENCE: blendVectors<Difference>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_EXCLUSION: blendVectors<Exclusion>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_COLOR_DODGE: blendVectors<ColourDodge>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_COLOR_BURN: blendVectors<ColourBurn>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_SOFT_LIGHT: blendVectors<SoftLight>(a, b, o, count, alpha, hasAlpha); break;
        case OCULAR_BLEND_HUE: blendColourRow<OCULAR_BLEND_HUE>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCULAR_BLEND_SATURATION: blendColourRow<OCULAR_BLEND_SATURATION>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCULAR_BLEND_COLOR: blendColourRow<OCULAR_BLEND_COLOR>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCULAR_BLEND_LUMINOSITY: blendColourRow<OCULAR_BLEND_LUMINOSITY>(a, b, o, backdrop.cols, channels, red, alpha); break;
        }
    }
}

}  // namespace

OCVStatus ocular_blend(const OCVImage *backdropImage, const OCVImage *sourceImage, const OCVImage *destination,
                    OcularBlendMode mode, double opacity, int32_t redChannel, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat backdrop = matrix(backdropImage), source = matrix(sourceImage);
        cv::Mat out = matrix(destination);
        const int channels = backdrop.channels();
        if (backdrop.depth() != CV_8U || channels == 2 || backdrop.size() != source.size() || backdrop.size() != out.size()
            || backdrop.type() != source.type() || backdrop.type() != out.type()) {
            setMessage(error, "blending needs three 8-bit images of one size with 1, 3 or 4 channels, got %dx%d (%d channels), "
                       "%dx%d (%d channels) and %dx%d (%d channels)", backdrop.cols, backdrop.rows, channels,
                       source.cols, source.rows, source.channels(), out.cols, out.rows, out.channels());
            return OCV_STATUS_BAD_ARGUMENT;
        }
        if (mode < OCULAR_BLEND_NORMAL || mode > OCULAR_BLEND_LUMINOSITY || !(opacity >= 0 && opacity <= 1)
            || (channels > 1 && redChannel != 0 && redChannel != 2)) {
            setMessage(error, "blend mode %d, opacity %g or red channel %d is out of range", static_cast<int>(mode), opacity,
                       redChannel);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const uint32_t alpha = static_cast<uint32_t>(std::lround(opacity * 255));
        // A few large stripes, one per thread: many small tasks wait on the scheduler.
        cv::parallel_for_(cv::Range(0, backdrop.rows), [&](const cv::Range &rows) {
            blendRows(backdrop, source, out, mode, alpha, redChannel, rows.start, rows.end);
        }, cv::getNumThreads());
        return OCV_STATUS_OK;
    });
}

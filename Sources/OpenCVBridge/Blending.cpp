// Blending a source picture into frames: every mode in one pass over the pixels, rows spread over the
// cores. The textbook's Screen is three OpenCV calls (subtract, multiply, subtract), each a full pass
// through memory; here each output byte is computed from its two input bytes once.
#include "Bridging.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ocular_bridge;

namespace {

/// round(x / 255) for 0 ≤ x ≤ 65025, without a division. (x / 255 is never k + ½, as 255 is odd.)
inline uint32_t divideBy255(uint32_t x) {
    x += 128;
    return (x + (x >> 8)) >> 8;
}

// MARK: Separable modes: one byte of the result from one byte of each input.

// Each mode is B(a, b) for backdrop byte a and source byte b, exactly rounded to the nearest integer
// (the formulas of W3C Compositing Level 1 with colours scaled to 0…255).
struct Normal {
    static uint32_t apply(uint32_t, uint32_t b) { return b; }
};
struct Average {  // (a + b) / 2, halves rounded up
    static uint32_t apply(uint32_t a, uint32_t b) { return (a + b + 1) >> 1; }
};
struct Multiply {
    static uint32_t apply(uint32_t a, uint32_t b) { return divideBy255(a * b); }
};
struct Screen {  // a + b − ab/255 = 255 − (255 − a)(255 − b)/255
    static uint32_t apply(uint32_t a, uint32_t b) { return a + b - divideBy255(a * b); }
};
/// Multiply by 2·lower when lower ≤ 127 (Cb ≤ ½ in W3C's terms), else Screen by 2·lower − 255.
inline uint32_t hardLight(uint32_t decides, uint32_t other) {
    const uint32_t doubled = 2 * decides;
    return decides <= 127 ? divideBy255(doubled * other)
                          : other + (doubled - 255) - divideBy255(other * (doubled - 255));
}
struct Overlay {  // HardLight with the roles swapped: the backdrop decides
    static uint32_t apply(uint32_t a, uint32_t b) { return hardLight(a, b); }
};
struct HardLight {
    static uint32_t apply(uint32_t a, uint32_t b) { return hardLight(b, a); }
};
struct Darken {
    static uint32_t apply(uint32_t a, uint32_t b) { return std::min(a, b); }
};
struct Lighten {
    static uint32_t apply(uint32_t a, uint32_t b) { return std::max(a, b); }
};
struct Difference {
    static uint32_t apply(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }
};
struct Exclusion {  // a + b − 2ab/255; 2ab/255 is never k + ½ either
    static uint32_t apply(uint32_t a, uint32_t b) { return a + b - (2 * a * b + 127) / 255; }
};

/// Colour dodge, colour burn and soft light divide or take roots: a 256 × 256 table of their exactly
/// rounded results (64 KiB, built once per mode) replaces the arithmetic.
double tableModeResult(OCVBlendMode mode, double backdrop, double source) {
    switch (mode) {
    case OCV_BLEND_COLOR_DODGE:
        if (backdrop == 0) return 0;
        if (source == 1) return 1;
        return std::min(1.0, backdrop / (1 - source));
    case OCV_BLEND_COLOR_BURN:
        if (backdrop == 1) return 1;
        if (source == 0) return 0;
        return 1 - std::min(1.0, (1 - backdrop) / source);
    default: {  // soft light
        if (source <= 0.5) return backdrop - (1 - 2 * source) * backdrop * (1 - backdrop);
        const double d = backdrop <= 0.25 ? ((16 * backdrop - 12) * backdrop + 4) * backdrop : std::sqrt(backdrop);
        return backdrop + (2 * source - 1) * (d - backdrop);
    }
    }
}

const uint8_t *modeTable(OCVBlendMode mode) {
    struct Table {
        uint8_t values[256 * 256];
        explicit Table(OCVBlendMode mode) {
            for (int a = 0; a < 256; ++a) {
                for (int b = 0; b < 256; ++b) {
                    const double result = tableModeResult(mode, a / 255.0, b / 255.0) * 255;
                    values[a * 256 + b] = static_cast<uint8_t>(std::lround(std::clamp(result, 0.0, 255.0)));
                }
            }
        }
    };
    static const Table dodge(OCV_BLEND_COLOR_DODGE), burn(OCV_BLEND_COLOR_BURN), softLight(OCV_BLEND_SOFT_LIGHT);
    return mode == OCV_BLEND_COLOR_DODGE ? dodge.values : mode == OCV_BLEND_COLOR_BURN ? burn.values : softLight.values;
}

/// One row of a separable mode, as a flat run of bytes (the compiler vectorises this loop), then the
/// opacity mix: out = round(((255 − α)·a + α·B) / 255).
template <class Mode>
void blendBytes(const uint8_t *backdrop, const uint8_t *source, uint8_t *out, int count, uint32_t alpha) {
    const uint32_t keep = 255 - alpha;
    for (int index = 0; index < count; ++index) {
        const uint32_t a = backdrop[index], b = source[index];
        out[index] = static_cast<uint8_t>(divideBy255(keep * a + alpha * Mode::apply(a, b)));
    }
}

void blendBytesByTable(const uint8_t *table, const uint8_t *backdrop, const uint8_t *source, uint8_t *out, int count,
                       uint32_t alpha) {
    const uint32_t keep = 255 - alpha;
    for (int index = 0; index < count; ++index) {
        const uint32_t a = backdrop[index];
        out[index] = static_cast<uint8_t>(divideBy255(keep * a + alpha * table[a * 256 + source[index]]));
    }
}

// MARK: Non-separable modes (hue, saturation, color, luminosity), W3C's formulas on 0…255 floats.

struct Colour {
    float r, g, b;
};

inline float luminosity(Colour c) { return 0.3f * c.r + 0.59f * c.g + 0.11f * c.b; }
inline float minimum(Colour c) { return std::min(c.r, std::min(c.g, c.b)); }
inline float maximum(Colour c) { return std::max(c.r, std::max(c.g, c.b)); }

inline Colour clipColour(Colour c) {
    const float l = luminosity(c), n = minimum(c), x = maximum(c);
    if (n < 0) {
        const float scale = l / (l - n);
        c = {l + (c.r - l) * scale, l + (c.g - l) * scale, l + (c.b - l) * scale};
    }
    if (x > 255) {
        const float scale = (255 - l) / (x - l);
        c = {l + (c.r - l) * scale, l + (c.g - l) * scale, l + (c.b - l) * scale};
    }
    return c;
}

inline Colour withLuminosity(Colour c, float l) {
    const float d = l - luminosity(c);
    return clipColour({c.r + d, c.g + d, c.b + d});
}

/// W3C's SetSat: the middle channel keeps its place between the others, the largest becomes s and the
/// smallest 0; (c − min) · s / (max − min) says exactly that for all three channels at once.
inline Colour withSaturation(Colour c, float s) {
    const float low = minimum(c), high = maximum(c);
    if (high <= low) return {0, 0, 0};
    const float scale = s / (high - low);
    return {(c.r - low) * scale, (c.g - low) * scale, (c.b - low) * scale};
}

inline Colour nonSeparable(OCVBlendMode mode, Colour backdrop, Colour source) {
    switch (mode) {
    case OCV_BLEND_HUE:
        return withLuminosity(withSaturation(source, maximum(backdrop) - minimum(backdrop)), luminosity(backdrop));
    case OCV_BLEND_SATURATION:
        return withLuminosity(withSaturation(backdrop, maximum(source) - minimum(source)), luminosity(backdrop));
    case OCV_BLEND_COLOR:
        return withLuminosity(source, luminosity(backdrop));
    default:  // luminosity
        return withLuminosity(backdrop, luminosity(source));
    }
}

inline uint32_t toByte(float value) {
    return static_cast<uint32_t>(std::clamp(value, 0.0f, 255.0f) + 0.5f);
}

template <OCVBlendMode Mode>
void blendColourRow(const uint8_t *backdrop, const uint8_t *source, uint8_t *out, int width, int channels,
                    int red, uint32_t alpha) {
    const int blue = 2 - red;
    const uint32_t keep = 255 - alpha;
    for (int x = 0; x < width; ++x, backdrop += channels, source += channels, out += channels) {
        const Colour cb{float(backdrop[red]), float(backdrop[1]), float(backdrop[blue])};
        const Colour cs{float(source[red]), float(source[1]), float(source[blue])};
        const Colour result = nonSeparable(Mode, cb, cs);
        out[red] = static_cast<uint8_t>(divideBy255(keep * backdrop[red] + alpha * toByte(result.r)));
        out[1] = static_cast<uint8_t>(divideBy255(keep * backdrop[1] + alpha * toByte(result.g)));
        out[blue] = static_cast<uint8_t>(divideBy255(keep * backdrop[blue] + alpha * toByte(result.b)));
    }
}

/// Blends rows `[first, end)`; alpha (a fourth channel) is copied from the backdrop afterwards, while
/// the row is still in the cache.
void blendRows(const cv::Mat &backdrop, const cv::Mat &source, cv::Mat &out, OCVBlendMode mode, uint32_t alpha,
               int red, int first, int end) {
    const int channels = backdrop.channels();
    const int count = backdrop.cols * channels;
    for (int y = first; y < end; ++y) {
        const uint8_t *a = backdrop.ptr<uint8_t>(y), *b = source.ptr<uint8_t>(y);
        uint8_t *o = out.ptr<uint8_t>(y);
        const bool separable = mode < OCV_BLEND_HUE;
        if (!separable && channels == 1) {
            // A gray pixel has no hue or saturation: hue, saturation and color keep the backdrop's
            // luminosity and so the backdrop; luminosity takes the source's.
            if (mode == OCV_BLEND_LUMINOSITY) {
                blendBytes<Normal>(a, b, o, count, alpha);
            } else {
                std::copy(a, a + count, o);
            }
            continue;
        }
        switch (mode) {
        case OCV_BLEND_NORMAL: blendBytes<Normal>(a, b, o, count, alpha); break;
        case OCV_BLEND_AVERAGE: blendBytes<Average>(a, b, o, count, alpha); break;
        case OCV_BLEND_MULTIPLY: blendBytes<Multiply>(a, b, o, count, alpha); break;
        case OCV_BLEND_SCREEN: blendBytes<Screen>(a, b, o, count, alpha); break;
        case OCV_BLEND_OVERLAY: blendBytes<Overlay>(a, b, o, count, alpha); break;
        case OCV_BLEND_DARKEN: blendBytes<Darken>(a, b, o, count, alpha); break;
        case OCV_BLEND_LIGHTEN: blendBytes<Lighten>(a, b, o, count, alpha); break;
        case OCV_BLEND_HARD_LIGHT: blendBytes<HardLight>(a, b, o, count, alpha); break;
        case OCV_BLEND_DIFFERENCE: blendBytes<Difference>(a, b, o, count, alpha); break;
        case OCV_BLEND_EXCLUSION: blendBytes<Exclusion>(a, b, o, count, alpha); break;
        case OCV_BLEND_COLOR_DODGE:
        case OCV_BLEND_COLOR_BURN:
        case OCV_BLEND_SOFT_LIGHT: blendBytesByTable(modeTable(mode), a, b, o, count, alpha); break;
        case OCV_BLEND_HUE: blendColourRow<OCV_BLEND_HUE>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCV_BLEND_SATURATION: blendColourRow<OCV_BLEND_SATURATION>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCV_BLEND_COLOR: blendColourRow<OCV_BLEND_COLOR>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCV_BLEND_LUMINOSITY: blendColourRow<OCV_BLEND_LUMINOSITY>(a, b, o, backdrop.cols, channels, red, alpha); break;
        }
        if (channels == 4) {
            for (int x = 3; x < count; x += 4) o[x] = a[x];
        }
    }
}

}  // namespace

OCVStatus ocv_blend(const OCVImage *backdropImage, const OCVImage *sourceImage, const OCVImage *destination,
                    OCVBlendMode mode, double opacity, int32_t redChannel, OCVError *error) {
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
        if (mode < OCV_BLEND_NORMAL || mode > OCV_BLEND_LUMINOSITY || !(opacity >= 0 && opacity <= 1)
            || (channels > 1 && redChannel != 0 && redChannel != 2)) {
            setMessage(error, "blend mode %d, opacity %g or red channel %d is out of range", static_cast<int>(mode), opacity,
                       redChannel);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const uint32_t alpha = static_cast<uint32_t>(std::lround(opacity * 255));
        if (mode == OCV_BLEND_COLOR_DODGE || mode == OCV_BLEND_COLOR_BURN || mode == OCV_BLEND_SOFT_LIGHT) {
            modeTable(mode);  // built here, once, rather than raced for by the first stripes
        }
        // A few large stripes, one per thread: many small tasks wait on the scheduler.
        cv::parallel_for_(cv::Range(0, backdrop.rows), [&](const cv::Range &rows) {
            blendRows(backdrop, source, out, mode, alpha, redChannel, rows.start, rows.end);
        }, cv::getNumThreads());
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_edge_image(const OCVImage *source, const OCVImage *destination, const double *channelFactors,
                         OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination), blurred, edges;
        cv::GaussianBlur(input, blurred, cv::Size(5, 5), 0);
        cv::Laplacian(blurred, edges, -1, 3);
        cv::Scalar factors;
        for (int channel = 0; channel < input.channels() && channel < 4; ++channel) factors[channel] = channelFactors[channel];
        cv::multiply(edges, factors, output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_resize_lanczos(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::resize(matrix(source), output, output.size(), 0, 0, cv::INTER_LANCZOS4);
        return checkWrittenInPlace(output, destination, error);
    });
}

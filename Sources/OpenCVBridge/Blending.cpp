// Blending a source picture into frames: every mode in one pass over the pixels, rows spread over the
// cores. The textbook's Screen is three OpenCV calls (subtract, multiply, subtract), each a full pass
// through memory; here each output byte is computed from its two input bytes once.
#include "Bridging.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace ocular_bridge;

namespace {

// The per-byte loops below are written in 16-bit arithmetic (every intermediate fits: products of
// two bytes are at most 65025) so that the compiler vectorises them eight or sixteen bytes at a time.
// They are inlined into blendRows, which on x86-64 Linux is also compiled for AVX2 and picked at
// load time (function multiversioning; templates cannot be multiversioned themselves).
#if defined(__x86_64__) && defined(__linux__) && defined(__clang__)
#define OCULAR_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OCULAR_VECTOR_CLONES
#endif

using u16 = uint16_t;

/// Inlined even without optimisation: the helpers must become part of blendRows's AVX2 clone, or
/// 32-byte vectors would cross a call between code built for different targets (different ABIs).
#define OCULAR_INLINE __attribute__((always_inline)) inline

/// Sixteen bytes, and sixteen 16-bit lanes: the integer modes are written on these vectors, whose
/// arithmetic stays in 16 bits (C++ would widen scalar u16 arithmetic to int, and so would the
/// vectoriser, halving the lanes).
typedef uint8_t U8x16 __attribute__((vector_size(16)));
typedef uint16_t U16x16 __attribute__((vector_size(32)));

/// round(x / 255) for 0 ≤ x ≤ 65025, without a division. (x / 255 is never k + ½, as 255 is odd.)
OCULAR_INLINE u16 divideBy255(u16 x) {
    const u16 t = static_cast<u16>(x + 128);
    return static_cast<u16>((t + (t >> 8)) >> 8);
}

OCULAR_INLINE U16x16 divideBy255(U16x16 x) {
    const U16x16 t = x + 128;
    return (t + (t >> 8)) >> 8;
}

// MARK: Separable modes: one byte of the result from one byte of each input.

// Each mode is B(a, b) for backdrop byte a and source byte b, exactly rounded to the nearest integer
// (the formulas of W3C Compositing Level 1 with colours scaled to 0…255). Products of two bytes are at
// most 65025, so every intermediate fits 16 bits.
struct Normal {
    OCULAR_INLINE static U16x16 apply(U16x16, U16x16 b) { return b; }
};
struct Average {  // (a + b) / 2, halves rounded up
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return (a + b + 1) >> 1; }
};
struct Multiply {
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return divideBy255(a * b); }
};
struct Screen {  // a + b − ab/255 = 255 − (255 − a)(255 − b)/255
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return a + b - divideBy255(a * b); }
};
/// Multiply by 2·decides when decides ≤ 127 (W3C: ≤ ½), else Screen by 2·decides − 255. Both are
/// computed and one is picked; the other may wrap around, unused.
OCULAR_INLINE U16x16 hardLight(U16x16 decides, U16x16 other) {
    const U16x16 doubled = decides * 2;
    const U16x16 low = divideBy255(doubled * other);
    const U16x16 excess = doubled - 255;
    const U16x16 high = other + excess - divideBy255(other * excess);
    return decides <= 127 ? low : high;
}
struct Overlay {  // HardLight with the roles swapped: the backdrop decides
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return hardLight(a, b); }
};
struct HardLight {
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return hardLight(b, a); }
};
struct Darken {
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return a < b ? a : b; }
};
struct Lighten {
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return a > b ? a : b; }
};
struct Difference {
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return a > b ? a - b : b - a; }
};
struct Exclusion {  // a + b − round(2ab/255); 2ab does not fit 16 bits, so from ab = 255q + r:
    // round(2ab/255) = 2q + round(2r/255) = 2q + (r ≥ 64) + (r ≥ 192), and for 0 ≤ r ≤ 254,
    // (r ≥ 64) = (r + 192) >> 8 and (r ≥ 192) = (r + 64) >> 8.
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) {
        const U16x16 product = a * b;
        const U16x16 quotient = (product + (product >> 8) + 1) >> 8;  // ⌊product / 255⌋
        const U16x16 remainder = product - quotient * 255;
        return a + b - (quotient * 2 + ((remainder + 192) >> 8) + ((remainder + 64) >> 8));
    }
};

/// One row of an integer mode, sixteen bytes at a time (a zero-padded last block for the rest), then
/// the opacity mix out = round(((255 − α)·a + α·B) / 255). With four-channel pixels every fourth
/// byte is the backdrop's alpha, kept in the same pass. Opacity 1 (α = 255, the usual case) and the
/// presence of alpha are compile-time cases, so that the common loop does only the mode's own work.
template <class Mode, bool Opaque, bool HasAlpha>
OCULAR_INLINE void blendVectors(const uint8_t *__restrict backdrop, const uint8_t *__restrict source,
                                                        uint8_t *__restrict out, int count, u16 alpha) {
    const U16x16 opacity = U16x16{} + alpha, keep = U16x16{} + static_cast<u16>(255 - alpha);
    const U8x16 alphaBytes = {0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff};
    const auto blend16 = [&](const uint8_t *a, const uint8_t *b, uint8_t *o) __attribute__((always_inline)) {
        U8x16 backdropBytes, sourceBytes;
        std::memcpy(&backdropBytes, a, 16);
        std::memcpy(&sourceBytes, b, 16);
        const U16x16 cb = __builtin_convertvector(backdropBytes, U16x16), cs = __builtin_convertvector(sourceBytes, U16x16);
        U16x16 blended = Mode::apply(cb, cs);
        if (!Opaque) blended = divideBy255(keep * cb + opacity * blended);
        U8x16 result = __builtin_convertvector(blended, U8x16);
        if (HasAlpha) result = (result & ~alphaBytes) | (backdropBytes & alphaBytes);
        std::memcpy(o, &result, 16);
    };
    int index = 0;
    for (; index + 16 <= count; index += 16) blend16(backdrop + index, source + index, out + index);
    if (index < count) {  // whole pixels from a multiple of 16: alpha stays at every fourth byte
        uint8_t a[16] = {}, b[16] = {}, o[16];
        std::memcpy(a, backdrop + index, count - index);
        std::memcpy(b, source + index, count - index);
        blend16(a, b, o);
        std::memcpy(out + index, o, count - index);
    }
}

template <class Mode>
OCULAR_INLINE void blendVectors(const uint8_t *backdrop, const uint8_t *source, uint8_t *out, int count,
                                                        u16 alpha, bool hasAlpha) {
    if (alpha == 255) {
        hasAlpha ? blendVectors<Mode, true, true>(backdrop, source, out, count, alpha)
                 : blendVectors<Mode, true, false>(backdrop, source, out, count, alpha);
    } else {
        hasAlpha ? blendVectors<Mode, false, true>(backdrop, source, out, count, alpha)
                 : blendVectors<Mode, false, false>(backdrop, source, out, count, alpha);
    }
}

// Colour dodge and colour burn divide: in float, sixteen lanes. Their results are fractions 255·p/q
// with q ≤ 255, so a non-half result is at least 1/510 from a rounding boundary, far beyond float's
// error, and a half is computed exactly; the rounding is the exact formula's.
typedef float F32x16 __attribute__((vector_size(64)));

/// round(value) for values already in 0…255 (halves up).
OCULAR_INLINE U16x16 roundedBytes(F32x16 value) { return __builtin_convertvector(value + 0.5f, U16x16); }

struct ColourDodge {  // Cb = 0 → 0; Cs = 1 → 1; else min(1, Cb / (1 − Cs))
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) {
        const F32x16 divisor = 255.0f - __builtin_convertvector(b, F32x16);
        F32x16 quotient = 255.0f * __builtin_convertvector(a, F32x16) / (divisor == 0 ? 1.0f : divisor);
        quotient = quotient > 255.0f ? 255.0f : quotient;
        const U16x16 none = U16x16{}, full = U16x16{} + 255;
        return a == 0 ? none : (b == 255 ? full : roundedBytes(quotient));
    }
};
struct ColourBurn {  // Cb = 1 → 1; Cs = 0 → 0; else 1 − min(1, (1 − Cb) / Cs)
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) {
        const F32x16 divisor = __builtin_convertvector(b, F32x16);
        F32x16 quotient = 255.0f * (255.0f - __builtin_convertvector(a, F32x16)) / (divisor == 0 ? 1.0f : divisor);
        quotient = quotient > 255.0f ? 255.0f : quotient;
        const U16x16 none = U16x16{}, full = U16x16{} + 255;
        return a == 255 ? full : (b == 0 ? none : roundedBytes(255.0f - quotient));
    }
};

/// Soft light in double, because its root can come within millionths of a rounding boundary
/// ((180, 215) → 203.499997), and without divisions: on the 0…255 scale
///   b ≤ 127: a − (255 − 2b)·a·(255 − a) / 255²              (W3C: Cb − (1 − 2Cs)·Cb·(1 − Cb))
///   b ≥ 128: a + (2b − 255)·(D − a) / 255, D = √(255a) for a ≥ 64, else the W3C polynomial
///            ((16a − 3060)·a + 260100)·a / 255²              (W3C: Cb + (2Cs − 1)·(D(Cb) − Cb))
/// The rational results have odd denominators, so they are never halves, and a multiplication by a
/// reciprocal is close enough.
struct SoftLight {
    OCULAR_INLINE static u16 apply(u16 a, u16 b) {
        const double x = a, y = b;
        const double darker = x - (255 - 2 * y) * x * (255 - x) * (1.0 / 65025);
        const double polynomial = ((16 * x - 3060) * x + 260100) * x * (1.0 / 65025);
        const double d = a >= 64 ? std::sqrt(255 * x) : polynomial;
        const double lighter = x + (2 * y - 255) * (d - x) * (1.0 / 255);
        const double value = b <= 127 ? darker : lighter;
        return static_cast<u16>(std::min(std::max(value, 0.0), 255.0) + 0.5);
    }
};

/// One row of a separable mode, as a flat run of bytes, then the opacity mix:
/// out = round(((255 − α)·a + α·B) / 255). With four-channel pixels every fourth byte is the
/// backdrop's alpha, kept in the same pass. Opacity 1 (α = 255, the usual case) and the presence
/// of alpha are compile-time cases, so that the common loop does only the mode's own work.
template <class Mode, bool Opaque, bool HasAlpha>
OCULAR_INLINE void blendBytes(const uint8_t *__restrict backdrop, const uint8_t *__restrict source,
                                                      uint8_t *__restrict out, int count, u16 alpha) {
    const u16 keep = static_cast<u16>(255 - alpha);
    for (int index = 0; index < count; ++index) {
        const u16 a = backdrop[index], b = source[index];
        const u16 mode = Mode::apply(a, b);
        const u16 blended = Opaque ? mode : divideBy255(static_cast<u16>(keep * a + alpha * mode));
        out[index] = static_cast<uint8_t>(HasAlpha && (index & 3) == 3 ? a : blended);
    }
}

template <class Mode>
OCULAR_INLINE void blendBytes(const uint8_t *backdrop, const uint8_t *source, uint8_t *out, int count,
                                                      u16 alpha, bool hasAlpha) {
    if (alpha == 255) {
        hasAlpha ? blendBytes<Mode, true, true>(backdrop, source, out, count, alpha)
                 : blendBytes<Mode, true, false>(backdrop, source, out, count, alpha);
    } else {
        hasAlpha ? blendBytes<Mode, false, true>(backdrop, source, out, count, alpha)
                 : blendBytes<Mode, false, false>(backdrop, source, out, count, alpha);
    }
}

// MARK: Non-separable modes (hue, saturation, color, luminosity), W3C's formulas on 0…255 floats.
//
// A row is blended in chunks of pixels: the channels are spread into float arrays, the formulas run
// over the arrays without branches (selects instead, so the compiler vectorises them), and the
// results are rounded, mixed by the opacity and put back in the row.

constexpr int chunkPixels = 256;

/// Red, green and blue of a chunk's pixels, one array each.
struct Planes {
    float r[chunkPixels], g[chunkPixels], b[chunkPixels];
};

OCULAR_INLINE float luminosity(float r, float g, float b) { return 0.3f * r + 0.59f * g + 0.11f * b; }
OCULAR_INLINE float minimum(float r, float g, float b) { return std::min(r, std::min(g, b)); }
OCULAR_INLINE float maximum(float r, float g, float b) { return std::max(r, std::max(g, b)); }

/// W3C's SetLum followed by ClipColor, on channels already shifted by SetLum (lum(c) = l).
OCULAR_INLINE void clipColour(float &r, float &g, float &b) {
    const float l = luminosity(r, g, b), n = minimum(r, g, b), x = maximum(r, g, b);
    // n < 0 ⇒ l > n and x > 255 ⇒ x > l, so the divisors are positive where they are used.
    const float low = n < 0 ? l / std::max(l - n, 1e-6f) : 1.0f;
    r = l + (r - l) * low, g = l + (g - l) * low, b = l + (b - l) * low;
    const float high = x > 255 ? (255 - l) / std::max(x - l, 1e-6f) : 1.0f;
    r = l + (r - l) * high, g = l + (g - l) * high, b = l + (b - l) * high;
}

/// W3C's SetSat: the largest channel becomes s, the smallest 0, the middle keeps its place between
/// them; (c − min) · s / (max − min) says exactly that for all three at once. A gray colour becomes 0.
OCULAR_INLINE void setSaturation(float &r, float &g, float &b, float s) {
    const float low = minimum(r, g, b), range = maximum(r, g, b) - low;
    const float scale = range > 0 ? s / std::max(range, 1e-6f) : 0.0f;
    r = (r - low) * scale, g = (g - low) * scale, b = (b - low) * scale;
}

template <OCVBlendMode Mode>
OCULAR_INLINE void blendChunk(const Planes &backdrop, const Planes &source, Planes &result, int count) {
    for (int x = 0; x < count; ++x) {
        const float br = backdrop.r[x], bg = backdrop.g[x], bb = backdrop.b[x];
        const float sr = source.r[x], sg = source.g[x], sb = source.b[x];
        float r, g, b, targetLuminosity;
        if (Mode == OCV_BLEND_HUE) {  // SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb))
            r = sr, g = sg, b = sb;
            setSaturation(r, g, b, maximum(br, bg, bb) - minimum(br, bg, bb));
            targetLuminosity = luminosity(br, bg, bb);
        } else if (Mode == OCV_BLEND_SATURATION) {  // SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb))
            r = br, g = bg, b = bb;
            setSaturation(r, g, b, maximum(sr, sg, sb) - minimum(sr, sg, sb));
            targetLuminosity = luminosity(br, bg, bb);
        } else if (Mode == OCV_BLEND_COLOR) {  // SetLum(Cs, Lum(Cb))
            r = sr, g = sg, b = sb;
            targetLuminosity = luminosity(br, bg, bb);
        } else {  // luminosity: SetLum(Cb, Lum(Cs))
            r = br, g = bg, b = bb;
            targetLuminosity = luminosity(sr, sg, sb);
        }
        const float shift = targetLuminosity - luminosity(r, g, b);
        r += shift, g += shift, b += shift;
        clipColour(r, g, b);
        result.r[x] = r, result.g[x] = g, result.b[x] = b;
    }
}

/// A chunk's channels into float arrays. Four-byte pixels are read as words (little-endian), which
/// vectorises; three-byte ones byte by byte.
template <int Channels, int Red>
OCULAR_INLINE void spread(const uint8_t *pixels, Planes &planes, int count) {
    for (int x = 0; x < count; ++x) {
        if (Channels == 4) {
            uint32_t word;
            std::memcpy(&word, pixels + 4 * x, 4);
            planes.r[x] = static_cast<float>((word >> (8 * Red)) & 0xff);
            planes.g[x] = static_cast<float>((word >> 8) & 0xff);
            planes.b[x] = static_cast<float>((word >> (8 * (2 - Red))) & 0xff);
        } else {
            planes.r[x] = pixels[x * Channels + Red];
            planes.g[x] = pixels[x * Channels + 1];
            planes.b[x] = pixels[x * Channels + 2 - Red];
        }
    }
}

OCULAR_INLINE uint32_t mixed(uint32_t keep, uint32_t alpha, uint32_t backdrop, float result) {
    const uint32_t rounded = static_cast<uint32_t>(std::min(std::max(result, 0.0f), 255.0f) + 0.5f);
    return divideBy255(static_cast<u16>(keep * backdrop + alpha * rounded));
}

template <OCVBlendMode Mode, int Channels, int Red>
OCULAR_INLINE void blendColourRow(const uint8_t *backdrop, const uint8_t *source, uint8_t *out,
                                                          int width, u16 alpha) {
    const uint32_t keep = 255u - alpha;
    Planes cb, cs, result;
    for (int first = 0; first < width; first += chunkPixels) {
        const int count = std::min(chunkPixels, width - first);
        const uint8_t *a = backdrop + first * Channels;
        uint8_t *o = out + first * Channels;
        spread<Channels, Red>(a, cb, count);
        spread<Channels, Red>(source + first * Channels, cs, count);
        blendChunk<Mode>(cb, cs, result, count);
        for (int x = 0; x < count; ++x) {
            if (Channels == 4) {  // one word per pixel, alpha kept
                uint32_t word;
                std::memcpy(&word, a + 4 * x, 4);
                const uint32_t r = mixed(keep, alpha, (word >> (8 * Red)) & 0xff, result.r[x]);
                const uint32_t g = mixed(keep, alpha, (word >> 8) & 0xff, result.g[x]);
                const uint32_t b = mixed(keep, alpha, (word >> (8 * (2 - Red))) & 0xff, result.b[x]);
                word = (word & 0xff000000u) | (r << (8 * Red)) | (g << 8) | (b << (8 * (2 - Red)));
                std::memcpy(o + 4 * x, &word, 4);
            } else {
                o[x * Channels + Red] = static_cast<uint8_t>(mixed(keep, alpha, a[x * Channels + Red], result.r[x]));
                o[x * Channels + 1] = static_cast<uint8_t>(mixed(keep, alpha, a[x * Channels + 1], result.g[x]));
                o[x * Channels + 2 - Red] = static_cast<uint8_t>(mixed(keep, alpha, a[x * Channels + 2 - Red], result.b[x]));
            }
        }
    }
}

template <OCVBlendMode Mode>
OCULAR_INLINE void blendColourRow(const uint8_t *backdrop, const uint8_t *source, uint8_t *out,
                                                          int width, int channels, int red, u16 alpha) {
    if (channels == 4) {
        red == 0 ? blendColourRow<Mode, 4, 0>(backdrop, source, out, width, alpha)
                 : blendColourRow<Mode, 4, 2>(backdrop, source, out, width, alpha);
    } else {
        red == 0 ? blendColourRow<Mode, 3, 0>(backdrop, source, out, width, alpha)
                 : blendColourRow<Mode, 3, 2>(backdrop, source, out, width, alpha);
    }
}

/// Blends rows `[first, end)`; alpha (a fourth channel) is copied from the backdrop afterwards, while
/// the row is still in the cache.
OCULAR_VECTOR_CLONES void blendRows(const cv::Mat &backdrop, const cv::Mat &source, cv::Mat &out, OCVBlendMode mode, uint32_t alpha,
               int red, int first, int end) {
    const int channels = backdrop.channels();
    const int count = backdrop.cols * channels;
    const bool hasAlpha = channels == 4;
    for (int y = first; y < end; ++y) {
        const uint8_t *a = backdrop.ptr<uint8_t>(y), *b = source.ptr<uint8_t>(y);
        uint8_t *o = out.ptr<uint8_t>(y);
        const bool separable = mode < OCV_BLEND_HUE;
        if (!separable && channels == 1) {
            // A gray pixel has no hue or saturation: hue, saturation and color keep the backdrop's
            // luminosity and so the backdrop; luminosity takes the source's.
            if (mode == OCV_BLEND_LUMINOSITY) {
                blendVectors<Normal>(a, b, o, count, alpha, false);
            } else {
                std::copy(a, a + count, o);
            }
            continue;
        }
        switch (mode) {
        case OCV_BLEND_NORMAL: blendVectors<Normal>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_AVERAGE: blendVectors<Average>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_MULTIPLY: blendVectors<Multiply>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_SCREEN: blendVectors<Screen>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_OVERLAY: blendVectors<Overlay>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_DARKEN: blendVectors<Darken>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_LIGHTEN: blendVectors<Lighten>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_HARD_LIGHT: blendVectors<HardLight>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_DIFFERENCE: blendVectors<Difference>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_EXCLUSION: blendVectors<Exclusion>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_COLOR_DODGE: blendVectors<ColourDodge>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_COLOR_BURN: blendVectors<ColourBurn>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_SOFT_LIGHT: blendBytes<SoftLight>(a, b, o, count, alpha, hasAlpha); break;
        case OCV_BLEND_HUE: blendColourRow<OCV_BLEND_HUE>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCV_BLEND_SATURATION: blendColourRow<OCV_BLEND_SATURATION>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCV_BLEND_COLOR: blendColourRow<OCV_BLEND_COLOR>(a, b, o, backdrop.cols, channels, red, alpha); break;
        case OCV_BLEND_LUMINOSITY: blendColourRow<OCV_BLEND_LUMINOSITY>(a, b, o, backdrop.cols, channels, red, alpha); break;
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

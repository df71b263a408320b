// Blending a source picture into frames: every mode in one pass over the pixels, rows spread over the
// cores. The textbook's Screen is three OpenCV calls (subtract, multiply, subtract), each a full pass
// through memory; here each output byte is computed from its two input bytes once.
#include "Bridging.hpp"
#include "OcularAlgorithms.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace ocular_bridge;

namespace {

// Every mode is written on explicit sixteen-lane vectors: the integer modes in 16-bit lanes (every
// intermediate fits: products of two bytes are at most 65025), the modes that divide or take roots in
// float lanes, the colour modes on 32-bit pixel words. They are inlined into blendRows, which on
// x86-64 Linux is also compiled for x86-64-v3 (AVX2 and FMA) and x86-64-v4 (AVX-512) and picked at
// load time (function multiversioning; templates cannot be multiversioned themselves). A sixteen-lane
// float vector is one AVX-512 register: the float modes (dodge, burn, soft light, the colour modes)
// ran 15-30 % faster on it than on two AVX2 registers, the integer modes the same.
#if defined(__x86_64__) && defined(__linux__) && defined(__clang__)
#define OCULAR_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define OCULAR_VECTOR_CLONES
#endif

using u16 = uint16_t;

// Passing 32- and 64-byte vectors by value would change the ABI between the AVX2 clone and default
// code; every such function here is always inlined (below), so no such call exists.
#pragma clang diagnostic ignored "-Wpsabi"

/// Inlined even without optimisation: the helpers must become part of blendRows's AVX2 clone, or
/// 32-byte vectors would cross a call between code built for different targets (different ABIs).
#define OCULAR_INLINE __attribute__((always_inline)) inline

/// Sixteen bytes, and sixteen 16-bit lanes: the integer modes are written on these vectors, whose
/// arithmetic stays in 16 bits (C++ would widen scalar u16 arithmetic to int, and so would the
/// vectoriser, halving the lanes).
typedef uint8_t U8x16 __attribute__((vector_size(16)));
typedef uint16_t U16x16 __attribute__((vector_size(32)));
/// Sixteen float lanes, for the modes that divide or take roots, and sixteen 32-bit integers.
typedef float F32x16 __attribute__((vector_size(64)));
typedef int32_t I32x16 __attribute__((vector_size(64)));
typedef uint32_t U32x16 __attribute__((vector_size(64)));

OCULAR_INLINE F32x16 smaller(F32x16 a, F32x16 b) { return a < b ? a : b; }
OCULAR_INLINE F32x16 larger(F32x16 a, F32x16 b) { return a > b ? a : b; }

/// ⌊value⌋ for value ≥ 0, by conversions: SSE2 (the default clone) has no vector floor, and the
/// compiler calls floorf lane by lane instead.
OCULAR_INLINE F32x16 wholePart(F32x16 value) { return __builtin_convertvector(__builtin_convertvector(value, I32x16), F32x16); }

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
struct Exclusion {  // a + b − 2ab/255 = (a(255 − b) + b(255 − a))/255, whose numerator is at most 65025
    OCULAR_INLINE static U16x16 apply(U16x16 a, U16x16 b) { return divideBy255(a * (255 - b) + b * (255 - a)); }
};

/// Modes whose vector result may be off near a rounding boundary: their apply also says whether a
/// block must be recomputed by refineExactly.
template <class Mode> constexpr bool refinable = false;

/// Recomputes sixteen bytes with the mode's exact formula. Rare, so out of line, and called after a
/// run of blocks rather than from inside it: a call in the hot loop makes the compiler reload every
/// vector constant on each pass, as the call may clobber them. Only pointers cross the call, so it is
/// the same function for every clone.
template <class Mode>
__attribute__((noinline, cold)) void refineExactly(const uint8_t *backdrop, const uint8_t *source, uint8_t *out, u16 alpha,
                                                   bool hasAlpha) {
    for (int index = 0; index < 16; ++index) {
        if (hasAlpha && index % 4 == 3) continue;
        const u16 blended = Mode::exact(backdrop[index], source[index]);
        out[index] = static_cast<uint8_t>(alpha == 255 ? blended : divideBy255(static_cast<u16>((255 - alpha) * backdrop[index] + alpha * blended)));
    }
}

/// Modes computed on float lanes: their apply takes the bytes as floats and returns the blended bytes.
template <class Mode> constexpr bool onFloatLanes = false;

/// One row of a separable mode, sixteen bytes at a time (a zero-padded last block for the rest), then
/// the opacity mix out = round(((255 − α)·a + α·B) / 255). With four-channel pixels every fourth
/// byte is the backdrop's alpha, kept in the same pass. Opacity 1 (α = 255, the usual case) and the
/// presence of alpha are compile-time cases, so that the common loop does only the mode's own work.
/// Integer modes run in sixteen 16-bit lanes; float modes go from bytes straight to float lanes and
/// mix in float (every term an integer below 2²⁴, and x / 255 never within 1/510 of a rounding
/// boundary, so the mix is exact).
template <class Mode, bool Opaque, bool HasAlpha>
OCULAR_INLINE void blendVectors(const uint8_t *__restrict backdrop, const uint8_t *__restrict source,
                                                        uint8_t *__restrict out, int count, u16 alpha) {
    const U16x16 opacity = U16x16{} + alpha, keep = U16x16{} + static_cast<u16>(255 - alpha);
    const float floatOpacity = alpha;
    const U8x16 alphaBytes = {0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff};
    const auto blend16 = [&](const uint8_t *a, const uint8_t *b, uint8_t *o) __attribute__((always_inline)) {
        U8x16 backdropBytes, sourceBytes;
        std::memcpy(&backdropBytes, a, 16);
        std::memcpy(&sourceBytes, b, 16);
        U8x16 result;
        bool inexact = false;
        if constexpr (onFloatLanes<Mode>) {
            const F32x16 x = __builtin_convertvector(backdropBytes, F32x16), y = __builtin_convertvector(sourceBytes, F32x16);
            U8x16 blended;
            if constexpr (refinable<Mode>) blended = Mode::apply(x, y, inexact); else blended = Mode::apply(x, y);
            if constexpr (Opaque) {
                result = blended;
            } else {
                const F32x16 mixed = ((255.0f - floatOpacity) * x + floatOpacity * __builtin_convertvector(blended, F32x16)) * (1.0f / 255) + 0.5f;
                result = __builtin_convertvector(__builtin_convertvector(mixed, I32x16), U8x16);
            }
        } else {
            const U16x16 cb = __builtin_convertvector(backdropBytes, U16x16), cs = __builtin_convertvector(sourceBytes, U16x16);
            U16x16 blended = Mode::apply(cb, cs);
            if constexpr (!Opaque) blended = divideBy255(keep * cb + opacity * blended);
            result = __builtin_convertvector(blended, U8x16);
        }
        if constexpr (HasAlpha) result = (result & ~alphaBytes) | (backdropBytes & alphaBytes);
        std::memcpy(o, &result, 16);
        return inexact;
    };
    const int whole = count & ~15;
    int index = 0;
    if constexpr (refinable<Mode>) {
        // Up to 64 blocks at a time; the few a refinable mode flags are recomputed after each run.
        while (index < whole) {
            const int end = std::min(whole, index + 64 * 16);
            int flagged[64], flaggedCount = 0;
            for (; index < end; index += 16) {
                flagged[flaggedCount] = index;  // kept only if this block is flagged: no branch per block
                flaggedCount += blend16(backdrop + index, source + index, out + index);
            }
            for (int block = 0; block < flaggedCount; ++block) {
                const int at = flagged[block];
                refineExactly<Mode>(backdrop + at, source + at, out + at, alpha, HasAlpha);
            }
        }
    } else {
        for (; index < whole; index += 16) blend16(backdrop + index, source + index, out + index);
    }
    if (index < count) {  // whole pixels from a multiple of 16: alpha stays at every fourth byte
        uint8_t a[16] = {}, b[16] = {}, o[16];
        std::memcpy(a, backdrop + index, count - index);
        std::memcpy(b, source + index, count - index);
        if (blend16(a, b, o)) {
            if constexpr (refinable<Mode>) refineExactly<Mode>(a, b, o, alpha, HasAlpha);
        }
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

/// A quotient q ≥ 0 (any size) as bytes, rounded, 255 where it is over 255: truncated to 32-bit
/// integers after adding `half`, then saturated to a byte (one instruction on AVX-512: vpmovusdb).
OCULAR_INLINE U8x16 saturatedBytes(F32x16 q, float half) {
    const U32x16 whole = reinterpret_cast<U32x16>(__builtin_convertvector(q + half, I32x16));
    return __builtin_convertvector(whole < 255 ? whole : 255, U8x16);
}

// Colour dodge and burn are quotients 255·p/q of integers p, q ≤ 255, computed as one IEEE division
// of exact integers (dodge 255a / (255 − b), burn (65025 − 255a) / b), so correctly rounded: a quotient
// that is exactly a half stays one, and one that is not lies at least 1/(2q) ≥ 1/510 from a rounding
// boundary. A divisor of at least 10⁻³ gives both special cases: 0 for a zero dividend, and a
// saturated 255 otherwise. (Saturating while narrowing to bytes saves the clamp in float: 6–9 % of
// these modes' time, which goes on float operations, not on the division.)

/// Cb = 0 → 0; Cs = 1 → 1; else min(1, Cb / (1 − Cs)), halves rounded up.
struct ColourDodge {
    OCULAR_INLINE static U8x16 apply(F32x16 x, F32x16 y) {
        return saturatedBytes(255.0f * x / larger(255.0f - y, F32x16{} + 1e-3f), 0.5f);
    }
};
/// Cb = 1 → 1; Cs = 0 → 0; else 1 − min(1, (1 − Cb) / Cs): 255 minus a dodge-like quotient, whose
/// halves therefore round down (255 − (k + ½) = 254½ − k rounds up to 255 − k).
struct ColourBurn {
    OCULAR_INLINE static U8x16 apply(F32x16 x, F32x16 y) {
        return 255 - saturatedBytes((65025.0f - 255.0f * x) / larger(y, F32x16{} + 1e-3f), 0.499f);
    }
};

/// Soft light, on the 0…255 scale, is a + (2b − 255)·g with g depending only on a and on which half
/// b is in:
///   b ≤ 127: g = a·(255 − a) / 255²                    (W3C: Cb − (1 − 2Cs)·Cb·(1 − Cb))
///   b ≥ 128: g = (D − a) / 255, D = √(255a) for a ≥ 64, else the W3C polynomial
///            ((16a − 3060)·a + 260100)·a / 255²        (W3C: Cb + (2Cs − 1)·(D(Cb) − Cb))
/// in float, sixteen lanes, as fixed point: (value + ½)·2¹⁴, truncated to an integer. Over all 65,536
/// pairs float's error stays below 2.6·10⁻⁵ (with FMA and without), so a result whose 14 fraction bits
/// are neither all zeros nor all ones lies at least 2⁻¹⁴ ≈ 6.1·10⁻⁵ from a rounding boundary and is
/// exactly rounded. The root can come within millionths of one ((180, 215) → 203.499997): the eight
/// pairs within 2⁻¹⁴ are flagged, with a few false alarms, and their blocks recomputed in double. The
/// result lies in 0…255 without a clamp. (Testing the fraction on the truncated integers, and refining
/// after a run of blocks, took a 1080p frame from 1.69 to 1.30 ms: the test in float, v − ⌊v⌋ − ½, with
/// a call in the loop, had cost more than the root.)
struct SoftLight {
    /// The reference in double. The rational results have odd denominators, so they are never
    /// halves, and a multiplication by a reciprocal is close enough.
    OCULAR_INLINE static u16 exact(u16 a, u16 b) {
        const double x = a, y = b;
        const double darker = x - (255 - 2 * y) * x * (255 - x) * (1.0 / 65025);
        const double polynomial = ((16 * x - 3060) * x + 260100) * x * (1.0 / 65025);
        const double d = a >= 64 ? std::sqrt(255 * x) : polynomial;
        const double lighter = x + (2 * y - 255) * (d - x) * (1.0 / 255);
        const double value = b <= 127 ? darker : lighter;
        return static_cast<u16>(std::min(std::max(value, 0.0), 255.0) + 0.5);
    }

    static constexpr int fractionBits = 14;
    static constexpr float unit = 1 << fractionBits;

    OCULAR_INLINE static U8x16 apply(F32x16 x, F32x16 y, bool &inexact) {
        // value + ½ = (a + ½) + ((2b − 255) / 255)·G, with G = a(255 − a)/255 or D − a, all times the unit
        const F32x16 scale = y * (2 * unit / 255) - unit;
        const F32x16 darkening = x - x * x * (1.0f / 255);
        const F32x16 polynomial = ((x * (16.0f / 65025) - (3060.0f / 65025)) * x + 4.0f) * x;
        const F32x16 d = x >= 64.0f ? __builtin_elementwise_sqrt(255 * x) : polynomial;
        const F32x16 fixed = (x * unit + unit / 2) + scale * (y <= 127.0f ? darkening : d - x);
        const I32x16 truncated = __builtin_convertvector(fixed, I32x16);
        constexpr int fraction = (1 << fractionBits) - 1;
        inexact = __builtin_reduce_or(((truncated + 1) & fraction) < 2);  // fraction bits all zeros or all ones
        return __builtin_convertvector(truncated >> fractionBits, U8x16);
    }
};

template <> constexpr bool refinable<SoftLight> = true;
template <> constexpr bool onFloatLanes<SoftLight> = true;
template <> constexpr bool onFloatLanes<ColourDodge> = true;
template <> constexpr bool onFloatLanes<ColourBurn> = true;

// MARK: Non-separable modes (hue, saturation, color, luminosity), W3C's formulas on 0…255 floats.
//
// Sixteen pixels at a time, each as a 32-bit word (a three-channel row is spread to four bytes per
// pixel by one shuffle): a channel is a shift and a mask away from a float lane, and the result goes
// back the same way, the fourth byte kept from the backdrop.
//
// All four modes are one formula. W3C's SetSat(C, s) maps C linearly onto 0…s, so it moves every
// channel's offset from C's own luminosity by the same factor k = s / (max − min); SetLum then shifts
// C to the luminosity l, and ClipColor pulls the channels towards l by one more factor when one of
// them leaves 0…255. So every result is l + f · (C − lum(C)) with one f per pixel:
//   color:      C = source,   k = 1,                         l = lum(backdrop)
//   luminosity: C = backdrop, k = 1,                         l = lum(source)
//   hue:        C = source,   k = sat(backdrop) / sat(source), l = lum(backdrop)
//   saturation: C = backdrop, k = sat(source) / sat(backdrop), l = lum(backdrop)
// With below = lum(C) − min(C) and above = max(C) − lum(C), the shifted colour's smallest channel is
// l − k·below and its largest l + k·above, and ClipColor's factors become
//   l − k·below < 0:   f = l / below
//   l + k·above > 255: f = (255 − l) / above
//   otherwise:         f = k,
// and as each clip's factor is below k exactly when that clip applies, f = min(k, l / below,
// (255 − l) / above) when k is a quotient: three divisions and two minimums, which issue fewer
// operations than comparing products and choosing a numerator and a denominator (hue and saturation
// 11–12 % faster; the divisions are not what these loops wait on). When k = 1 the comparisons stay, with
// one division. A gray C has below = above = 0 and gives l. At most one of the two clips applies:
// every C here spans at most 255; a C with any span has below and above ≥ 0.11 · span (the smallest
// weight), so no quotient but a gray C's divides by 0, and that pixel's f is 0.

typedef uint8_t U8x64 __attribute__((vector_size(64)));
struct Colours {
    F32x16 r, g, b;
};

OCULAR_INLINE F32x16 luminosity(const Colours &c) { return 0.3f * c.r + 0.59f * c.g + 0.11f * c.b; }
OCULAR_INLINE F32x16 minimum(const Colours &c) { return smaller(c.r, smaller(c.g, c.b)); }
OCULAR_INLINE F32x16 maximum(const Colours &c) { return larger(c.r, larger(c.g, c.b)); }

/// l + f · (C − lum(C)) as above, plus ½ for rounding; `Stretched` when k is sat / range (hue,
/// saturation), else k = 1.
template <bool Stretched>
OCULAR_INLINE Colours withLuminosity(const Colours &c, F32x16 l, F32x16 saturation) {
    const F32x16 own = luminosity(c), low = minimum(c), high = maximum(c);
    const F32x16 below = own - low, above = high - own;
    F32x16 factor;
    if constexpr (Stretched) {
        // A gray C's quotients are 0/0 or x/0; its factor is 0 (lum(C) of a gray C may differ from its
        // channels in the last bit, so below may be ±10⁻⁶, not 0, and is no guide).
        const F32x16 range = high - low;
        factor = smaller(saturation / range, smaller(l / below, (255.0f - l) / above));
        factor = range > 0 ? factor : F32x16{};
    } else {
        const I32x16 clipsLow = l < below, clipsHigh = l + above > 255.0f;
        const F32x16 numerator = clipsLow ? l : (clipsHigh ? 255.0f - l : F32x16{} + 1.0f);
        const F32x16 denominator = clipsLow ? below : (clipsHigh ? above : F32x16{} + 1.0f);
        factor = numerator / denominator;
    }
    // l − f · lum(C) and rounding's ½ once per pixel, then one multiply-add per channel. At the largest
    // stretch (f = 255: a source spanning one level under a backdrop spanning 255) the terms reach 65025
    // and the float error 4·10⁻³; 10⁻⁵ at f ≈ 1, as for most pixels.
    const F32x16 lifted = l + 0.5f - own * factor;
    return {lifted + c.r * factor, lifted + c.g * factor, lifted + c.b * factor};
}

template <OcularBlendMode Mode>
OCULAR_INLINE Colours nonSeparable(const Colours &backdrop, const Colours &source) {
    if constexpr (Mode == OCULAR_BLEND_HUE) {
        return withLuminosity<true>(source, luminosity(backdrop), maximum(backdrop) - minimum(backdrop));
    } else if constexpr (Mode == OCULAR_BLEND_SATURATION) {
        return withLuminosity<true>(backdrop, luminosity(backdrop), maximum(source) - minimum(source));
    } else if constexpr (Mode == OCULAR_BLEND_COLOR) {
        return withLuminosity<false>(source, luminosity(backdrop), F32x16{});
    } else {
        return withLuminosity<false>(backdrop, luminosity(source), F32x16{});
    }
}

/// Sixteen pixels as words, channel k in bits 8k…8k + 7 (three-channel pixels get a zero fourth byte).
template <int Channels>
OCULAR_INLINE U32x16 loadWords(const uint8_t *pixels) {
    U8x64 bytes = {};
    std::memcpy(&bytes, pixels, 16 * Channels);
    if constexpr (Channels == 3) {  // byte 63 is zero: only 48 were loaded
        bytes = __builtin_shufflevector(bytes, bytes, 0, 1, 2, 63, 3, 4, 5, 63, 6, 7, 8, 63, 9, 10, 11, 63, 12, 13, 14, 63, 15, 16, 17, 63,
                                        18, 19, 20, 63, 21, 22, 23, 63, 24, 25, 26, 63, 27, 28, 29, 63, 30, 31, 32, 63, 33, 34, 35, 63,
                                        36, 37, 38, 63, 39, 40, 41, 63, 42, 43, 44, 63, 45, 46, 47, 63);
    }
    return reinterpret_cast<U32x16 &>(bytes);
}

template <int Channels>
OCULAR_INLINE void storeWords(U32x16 words, uint8_t *pixels) {
    const U8x64 bytes = reinterpret_cast<U8x64 &>(words);
    if constexpr (Channels == 4) {
        std::memcpy(pixels, &bytes, 64);
    } else {
        const U8x64 packed = __builtin_shufflevector(bytes, bytes, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25, 26,
                                                     28, 29, 30, 32, 33, 34, 36, 37, 38, 40, 41, 42, 44, 45, 46, 48, 49, 50, 52, 53, 54, 56,
                                                     57, 58, 60, 61, 62, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        std::memcpy(pixels, &packed, 48);
    }
}

OCULAR_INLINE F32x16 channel(U32x16 words, int shift) {
    return __builtin_convertvector(reinterpret_cast<I32x16>((words >> shift) & 255), F32x16);
}

/// round(value) (halves up), given value + ½, mixed with the backdrop value by the opacity as the
/// separable modes do: round(((255 − α)·backdrop + α·blended) / 255). No clamp is needed: ClipColor
/// puts every channel in 0…255, and float error (below 4·10⁻³) cannot move a value past −½ or 255½. In
/// the mix every term is an integer below 2²⁴, so exact in float, and x / 255 is never within 1/510
/// of a rounding boundary.
template <bool Opaque>
OCULAR_INLINE U32x16 rounded(F32x16 valuePlusHalf, F32x16 backdrop, float alpha) {
    if constexpr (!Opaque) {
        valuePlusHalf = ((255.0f - alpha) * backdrop + alpha * wholePart(valuePlusHalf)) * (1.0f / 255) + 0.5f;
    }
    return reinterpret_cast<U32x16>(__builtin_convertvector(valuePlusHalf, I32x16));
}

template <OcularBlendMode Mode, int Channels, int Red, bool Opaque>
OCULAR_INLINE void blendColourRow(const uint8_t *backdrop, const uint8_t *source, uint8_t *out, int width, float alpha) {
    constexpr int redShift = 8 * Red, blueShift = 16 - 8 * Red;
    const auto blend16 = [&](const uint8_t *a, const uint8_t *b, uint8_t *o) __attribute__((always_inline)) {
        const U32x16 backdropWords = loadWords<Channels>(a), sourceWords = loadWords<Channels>(b);
        const Colours cb = {channel(backdropWords, redShift), channel(backdropWords, 8), channel(backdropWords, blueShift)};
        const Colours cs = {channel(sourceWords, redShift), channel(sourceWords, 8), channel(sourceWords, blueShift)};
        const Colours result = nonSeparable<Mode>(cb, cs);
        const U32x16 words = rounded<Opaque>(result.r, cb.r, alpha) << redShift | rounded<Opaque>(result.g, cb.g, alpha) << 8
                             | rounded<Opaque>(result.b, cb.b, alpha) << blueShift | (backdropWords & 0xff000000u);
        storeWords<Channels>(words, o);
    };
    int x = 0;
    for (; x + 16 <= width; x += 16) blend16(backdrop + x * Channels, source + x * Channels, out + x * Channels);
    if (x < width) {  // the last pixels, zero-padded to sixteen
        uint8_t a[16 * Channels] = {}, b[16 * Channels] = {}, o[16 * Channels];
        const size_t bytes = static_cast<size_t>(width - x) * Channels;
        std::memcpy(a, backdrop + x * Channels, bytes);
        std::memcpy(b, source + x * Channels, bytes);
        blend16(a, b, o);
        std::memcpy(out + x * Channels, o, bytes);
    }
}

template <OcularBlendMode Mode, int Channels, int Red>
OCULAR_INLINE void blendColourRow(const uint8_t *backdrop, const uint8_t *source, uint8_t *out, int width, u16 alpha) {
    alpha == 255 ? blendColourRow<Mode, Channels, Red, true>(backdrop, source, out, width, 255.0f)
                 : blendColourRow<Mode, Channels, Red, false>(backdrop, source, out, width, alpha);
}

template <OcularBlendMode Mode>
OCULAR_INLINE void blendColourRow(const uint8_t *backdrop, const uint8_t *source, uint8_t *out, int width, int channels,
                                  int red, u16 alpha) {
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

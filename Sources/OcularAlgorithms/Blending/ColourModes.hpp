// The non-separable blend modes (hue, saturation, color, luminosity): W3C's formulas on 0…255 floats.
#pragma once

#include "Vectors.hpp"
#include "OcularAlgorithms.h"

#include <algorithm>
#include <cstring>

namespace ocular_blending {

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

}  // namespace ocular_blending

// The separable blend modes (one byte of the result from one byte of each input) and the loop that
// mixes them by opacity, sixteen bytes at a time.
#pragma once

#include "Vectors.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ocular_blending {

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

}  // namespace ocular_blending

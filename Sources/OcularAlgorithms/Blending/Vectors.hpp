// The vectors every blend mode is written on, and the rules that keep them inlined into one clone.
#pragma once

#include <cstdint>

namespace ocular_blending {

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

}  // namespace ocular_blending

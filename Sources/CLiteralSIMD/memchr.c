// memchr2 / memchr3: the first of two or three bytes, as BurntSushi's memchr crate
// does it (compare a vector against each byte, OR, movemask), with SSE2 (every
// x86_64) or AVX2 chosen at run time, NEON on arm64, and a byte loop elsewhere.
// One-byte search uses the C library's memchr, which glibc and Darwin already
// vectorize.
#include "CLiteralSIMD.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(__aarch64__)
#include <arm_neon.h>
#endif

static size_t memchr3_portable(uint8_t a, uint8_t b, uint8_t c, const uint8_t *h, size_t i, size_t end) {
    for (; i < end; i++) {
        uint8_t x = h[i];
        if (x == a || x == b || x == c) return i;
    }
    return end;
}

#if defined(__x86_64__)
static size_t memchr3_sse2(uint8_t a, uint8_t b, uint8_t c, const uint8_t *h, size_t i, size_t end) {
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b), vc = _mm_set1_epi8((char)c);
    while (i + 16 <= end) {
        __m128i v = _mm_loadu_si128((const __m128i *)(h + i));
        __m128i e = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)), _mm_cmpeq_epi8(v, vc));
        unsigned mask = (unsigned)_mm_movemask_epi8(e);
        if (mask) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
    return memchr3_portable(a, b, c, h, i, end);
}

__attribute__((target("avx2")))
static size_t memchr3_avx2(uint8_t a, uint8_t b, uint8_t c, const uint8_t *h, size_t i, size_t end) {
    const __m256i va = _mm256_set1_epi8((char)a), vb = _mm256_set1_epi8((char)b), vc = _mm256_set1_epi8((char)c);
    // Two vectors per iteration: one OR-ed test, then find the lane.
    while (i + 64 <= end) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(h + i));
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(h + i + 32));
        __m256i e0 = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v0, va), _mm256_cmpeq_epi8(v0, vb)),
                                     _mm256_cmpeq_epi8(v0, vc));
        __m256i e1 = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v1, va), _mm256_cmpeq_epi8(v1, vb)),
                                     _mm256_cmpeq_epi8(v1, vc));
        if (!_mm256_testz_si256(_mm256_or_si256(e0, e1), _mm256_or_si256(e0, e1))) {
            unsigned m0 = (unsigned)_mm256_movemask_epi8(e0);
            if (m0) return i + (size_t)__builtin_ctz(m0);
            return i + 32 + (size_t)__builtin_ctz((unsigned)_mm256_movemask_epi8(e1));
        }
        i += 64;
    }
    return memchr3_sse2(a, b, c, h, i, end);
}
#endif

#if defined(__aarch64__)
static size_t memchr3_neon(uint8_t a, uint8_t b, uint8_t c, const uint8_t *h, size_t i, size_t end) {
    const uint8x16_t va = vdupq_n_u8(a), vb = vdupq_n_u8(b), vc = vdupq_n_u8(c);
    while (i + 16 <= end) {
        uint8x16_t v = vld1q_u8(h + i);
        uint8x16_t e = vorrq_u8(vorrq_u8(vceqq_u8(v, va), vceqq_u8(v, vb)), vceqq_u8(v, vc));
        uint64_t mask = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(e), 4)), 0);
        if (mask) return i + (size_t)(__builtin_ctzll(mask) >> 2);
        i += 16;
    }
    return memchr3_portable(a, b, c, h, i, end);
}
#endif

size_t tl_memchr3(uint8_t a, uint8_t b, uint8_t c, const uint8_t *h, size_t from, size_t end, tl_simd_level level) {
    if (from >= end) return end;
    switch (level) {
#if defined(__x86_64__)
    case TL_SIMD_AVX2: return memchr3_avx2(a, b, c, h, from, end);
    case TL_SIMD_SSSE3: return memchr3_sse2(a, b, c, h, from, end);
#endif
#if defined(__aarch64__)
    case TL_SIMD_NEON: return memchr3_neon(a, b, c, h, from, end);
#endif
    default: return memchr3_portable(a, b, c, h, from, end);
    }
}

size_t tl_memchr2(uint8_t a, uint8_t b, const uint8_t *h, size_t from, size_t end, tl_simd_level level) {
    return tl_memchr3(a, b, b, h, from, end, level);
}

// Byte counting (how many records a block holds, for `--threads`): compare a vector
// with the byte and subtract the all-ones lanes from byte counters, folding them into
// the total (psadbw) before a counter can wrap, as the bytecount crate does.
static size_t memcount_portable(uint8_t a, const uint8_t *h, size_t i, size_t end) {
    size_t n = 0;
    for (; i < end; i++) n += h[i] == a;
    return n;
}

#if defined(__x86_64__)
static size_t memcount_sse2(uint8_t a, const uint8_t *h, size_t i, size_t end) {
    const __m128i va = _mm_set1_epi8((char)a), zero = _mm_setzero_si128();
    size_t n = 0;
    while (i + 16 <= end) {
        __m128i lanes = zero;
        size_t stop = end - i >= 255 * 16 ? i + 255 * 16 : i + (end - i) / 16 * 16;
        for (; i < stop; i += 16)
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(h + i)), va));
        __m128i sums = _mm_sad_epu8(lanes, zero);
        n += (size_t)_mm_cvtsi128_si64(sums) + (size_t)_mm_extract_epi16(sums, 4);
    }
    return n + memcount_portable(a, h, i, end);
}

__attribute__((target("avx2")))
static size_t memcount_avx2(uint8_t a, const uint8_t *h, size_t i, size_t end) {
    const __m256i va = _mm256_set1_epi8((char)a), zero = _mm256_setzero_si256();
    size_t n = 0;
    while (i + 32 <= end) {
        __m256i lanes = zero;
        size_t stop = end - i >= 255 * 32 ? i + 255 * 32 : i + (end - i) / 32 * 32;
        for (; i < stop; i += 32)
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(h + i)), va));
        __m256i sums = _mm256_sad_epu8(lanes, zero);
        n += (size_t)_mm256_extract_epi64(sums, 0) + (size_t)_mm256_extract_epi64(sums, 1)
           + (size_t)_mm256_extract_epi64(sums, 2) + (size_t)_mm256_extract_epi64(sums, 3);
    }
    return n + memcount_sse2(a, h, i, end);
}
#endif

#if defined(__aarch64__)
static size_t memcount_neon(uint8_t a, const uint8_t *h, size_t i, size_t end) {
    const uint8x16_t va = vdupq_n_u8(a);
    size_t n = 0;
    while (i + 16 <= end) {
        uint8x16_t lanes = vdupq_n_u8(0);
        size_t stop = end - i >= 255 * 16 ? i + 255 * 16 : i + (end - i) / 16 * 16;
        for (; i < stop; i += 16) lanes = vsubq_u8(lanes, vceqq_u8(vld1q_u8(h + i), va));
        n += vaddlvq_u8(lanes);
    }
    return n + memcount_portable(a, h, i, end);
}
#endif

size_t tl_memcount(uint8_t a, const uint8_t *h, size_t from, size_t end, tl_simd_level level) {
    if (from >= end) return 0;
    switch (level) {
#if defined(__x86_64__)
    case TL_SIMD_AVX2: return memcount_avx2(a, h, from, end);
    case TL_SIMD_SSSE3: return memcount_sse2(a, h, from, end);
#endif
#if defined(__aarch64__)
    case TL_SIMD_NEON: return memcount_neon(a, h, from, end);
#endif
    default: return memcount_portable(a, h, from, end);
    }
}

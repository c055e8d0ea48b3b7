// Teddy: Geoff Langdale's multi-literal matcher from Hyperscan, as described in
// BurntSushi's aho-corasick (src/packed/teddy/README.md). Each of the first `width`
// bytes of every literal sets its bucket bit in two 16-entry tables indexed by the
// byte's low and high nibble; one byte shuffle per table (pshufb / tbl) looks up 16 or
// 32 haystack bytes at once, and AND-ing the lookups of bytes i, i+1, i+2 leaves a
// bucket bit set only where all of them could belong to some literal of the bucket.
// Only candidate positions are reported; the caller verifies them (the automaton runs
// from there), so false positives cost time, never a wrong answer.
#include "CLiteralSIMD.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__aarch64__)
#include <arm_neon.h>
#endif

static inline uint8_t teddy_byte(const tl_teddy_masks *m, int j, uint8_t b) {
    return m->lo[j][b & 15] & m->hi[j][b >> 4];
}

/// One position at a time: the reference every vector kernel must agree with.
static size_t teddy_portable(const tl_teddy_masks *m, const uint8_t *h, size_t i, size_t end) {
    const size_t w = (size_t)m->width;
    if (end < w) return end;
    const size_t last = end - w; // the last position with width bytes after it
    if (w == 3) {
        for (; i <= last; i++) {
            if (teddy_byte(m, 0, h[i]) & teddy_byte(m, 1, h[i + 1]) & teddy_byte(m, 2, h[i + 2])) return i;
        }
    } else if (w == 2) {
        for (; i <= last; i++) {
            if (teddy_byte(m, 0, h[i]) & teddy_byte(m, 1, h[i + 1])) return i;
        }
    } else {
        for (; i <= last; i++) {
            if (teddy_byte(m, 0, h[i])) return i;
        }
    }
    return end;
}

#if defined(__x86_64__) || defined(__i386__)
#define TL_SSSE3 __attribute__((target("ssse3")))
#define TL_AVX2 __attribute__((target("avx2")))

TL_SSSE3 static inline __m128i lookup16(__m128i v, __m128i lo, __m128i hi) {
    const __m128i nib = _mm_set1_epi8(0x0F);
    __m128i l = _mm_shuffle_epi8(lo, _mm_and_si128(v, nib));
    __m128i u = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), nib));
    return _mm_and_si128(l, u);
}

TL_SSSE3 static size_t teddy_ssse3(const tl_teddy_masks *m, const uint8_t *h, size_t i, size_t end) {
    const size_t w = (size_t)m->width;
    const __m128i lo0 = _mm_loadu_si128((const __m128i *)m->lo[0]), hi0 = _mm_loadu_si128((const __m128i *)m->hi[0]);
    const __m128i lo1 = _mm_loadu_si128((const __m128i *)m->lo[1]), hi1 = _mm_loadu_si128((const __m128i *)m->hi[1]);
    const __m128i lo2 = _mm_loadu_si128((const __m128i *)m->lo[2]), hi2 = _mm_loadu_si128((const __m128i *)m->hi[2]);
    const __m128i zero = _mm_setzero_si128();
    // Positions i..i+15 need bytes up to i + 15 + (w - 1) < end.
    while (i + 16 + (w - 1) <= end) {
        __m128i r = lookup16(_mm_loadu_si128((const __m128i *)(h + i)), lo0, hi0);
        if (w > 1) r = _mm_and_si128(r, lookup16(_mm_loadu_si128((const __m128i *)(h + i + 1)), lo1, hi1));
        if (w > 2) r = _mm_and_si128(r, lookup16(_mm_loadu_si128((const __m128i *)(h + i + 2)), lo2, hi2));
        unsigned mask = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(r, zero)) & 0xFFFFu;
        if (mask) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
    return teddy_portable(m, h, i, end);
}

TL_AVX2 static inline __m256i lookup32(__m256i v, __m256i lo, __m256i hi) {
    const __m256i nib = _mm256_set1_epi8(0x0F);
    __m256i l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
    __m256i u = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
    return _mm256_and_si256(l, u);
}

/// The candidate bucket bits of the 32 positions at `p` (a non-zero byte: a candidate).
TL_AVX2 __attribute__((always_inline)) static inline __m256i teddy_block32(
    const uint8_t *p, const int w, __m256i lo0, __m256i hi0, __m256i lo1, __m256i hi1, __m256i lo2, __m256i hi2) {
    __m256i r = lookup32(_mm256_loadu_si256((const __m256i *)p), lo0, hi0);
    if (w > 1) r = _mm256_and_si256(r, lookup32(_mm256_loadu_si256((const __m256i *)(p + 1)), lo1, hi1));
    if (w > 2) r = _mm256_and_si256(r, lookup32(_mm256_loadu_si256((const __m256i *)(p + 2)), lo2, hi2));
    return r;
}

/// The AVX2 scan for one width `w` (a constant in each caller, so the loop has no
/// width tests). 64 positions a step, tested once (vptest of the two blocks' OR), then
/// 32 a step for the rest.
// PERF (callgrind, 8 MiB subtitles, `match -F -f` ten words, width 3): one 32-byte
// block a step with the width tested in the loop ran 37.5 instructions a block.
TL_AVX2 __attribute__((always_inline)) static inline size_t teddy_avx2_width(
    const tl_teddy_masks *m, const uint8_t *h, size_t i, size_t end, const int w) {
    // vpshufb looks up within each 128-bit lane, so both lanes hold the same table.
#define TL_BROADCAST(p) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p)))
    const __m256i lo0 = TL_BROADCAST(m->lo[0]), hi0 = TL_BROADCAST(m->hi[0]);
    const __m256i lo1 = TL_BROADCAST(m->lo[1]), hi1 = TL_BROADCAST(m->hi[1]);
    const __m256i lo2 = TL_BROADCAST(m->lo[2]), hi2 = TL_BROADCAST(m->hi[2]);
#undef TL_BROADCAST
    const __m256i zero = _mm256_setzero_si256();
    // Positions i..i+63 need bytes up to i + 63 + (w - 1) < end.
    while (i + 64 + (size_t)(w - 1) <= end) {
        __m256i a = teddy_block32(h + i, w, lo0, hi0, lo1, hi1, lo2, hi2);
        __m256i b = teddy_block32(h + i + 32, w, lo0, hi0, lo1, hi1, lo2, hi2);
        if (!_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_or_si256(a, b))) {
            unsigned ma = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, zero));
            if (ma) return i + (size_t)__builtin_ctz(ma);
            unsigned mb = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, zero));
            return i + 32 + (size_t)__builtin_ctz(mb);
        }
        i += 64;
    }
    while (i + 32 + (size_t)(w - 1) <= end) {
        __m256i r = teddy_block32(h + i, w, lo0, hi0, lo1, hi1, lo2, hi2);
        unsigned mask = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, zero));
        if (mask) return i + (size_t)__builtin_ctz(mask);
        i += 32;
    }
    return teddy_ssse3(m, h, i, end);
}

TL_AVX2 static size_t teddy_avx2(const tl_teddy_masks *m, const uint8_t *h, size_t i, size_t end) {
    switch (m->width) {
    case 3: return teddy_avx2_width(m, h, i, end, 3);
    case 2: return teddy_avx2_width(m, h, i, end, 2);
    default: return teddy_avx2_width(m, h, i, end, 1);
    }
}
#endif

#if defined(__aarch64__)
static inline uint8x16_t lookup_neon(uint8x16_t v, uint8x16_t lo, uint8x16_t hi) {
    const uint8x16_t nib = vdupq_n_u8(0x0F);
    return vandq_u8(vqtbl1q_u8(lo, vandq_u8(v, nib)), vqtbl1q_u8(hi, vshrq_n_u8(v, 4)));
}

static size_t teddy_neon(const tl_teddy_masks *m, const uint8_t *h, size_t i, size_t end) {
    const size_t w = (size_t)m->width;
    const uint8x16_t lo0 = vld1q_u8(m->lo[0]), hi0 = vld1q_u8(m->hi[0]);
    const uint8x16_t lo1 = vld1q_u8(m->lo[1]), hi1 = vld1q_u8(m->hi[1]);
    const uint8x16_t lo2 = vld1q_u8(m->lo[2]), hi2 = vld1q_u8(m->hi[2]);
    while (i + 16 + (w - 1) <= end) {
        uint8x16_t r = lookup_neon(vld1q_u8(h + i), lo0, hi0);
        if (w > 1) r = vandq_u8(r, lookup_neon(vld1q_u8(h + i + 1), lo1, hi1));
        if (w > 2) r = vandq_u8(r, lookup_neon(vld1q_u8(h + i + 2), lo2, hi2));
        // Four bits per lane: narrow the non-zero test to a 64-bit mask.
        uint8x8_t nz = vshrn_n_u16(vreinterpretq_u16_u8(vtstq_u8(r, r)), 4);
        uint64_t mask = vget_lane_u64(vreinterpret_u64_u8(nz), 0);
        if (mask) return i + (size_t)(__builtin_ctzll(mask) >> 2);
        i += 16;
    }
    return teddy_portable(m, h, i, end);
}
#endif

size_t tl_teddy_find(const tl_teddy_masks *m, const uint8_t *h, size_t from, size_t end, tl_simd_level level) {
    if (from >= end) return end;
    switch (level) {
#if defined(__x86_64__) || defined(__i386__)
    case TL_SIMD_AVX2: return teddy_avx2(m, h, from, end);
    case TL_SIMD_SSSE3: return teddy_ssse3(m, h, from, end);
#endif
#if defined(__aarch64__)
    case TL_SIMD_NEON: return teddy_neon(m, h, from, end);
#endif
    default: return teddy_portable(m, h, from, end);
    }
}

// memmem by a packed pair, as BurntSushi's memchr crate does it (memmem's "generic"
// packed-pair searcher, after Wojciech Muła's SIMD-friendly substring search): two
// bytes of the needle, chosen by the caller for rarity, are compared at their offsets
// for 32 (AVX2) or 16 (SSE2) candidate starts at once; only starts where both are in
// place are compared in full. Under ASCII case folding each byte is compared as
// (b | fold) == target, with fold 0x20 for a letter.
//
// Only the kernel is here; which bytes to pair and when a pair scan beats memchr on
// one byte is LiteralAutomata's decision (RareBytePrefilter).
#include "CLiteralSIMD.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(__aarch64__)
#include <arm_neon.h>
#endif

/// The needle at h[s...] (case-folded: the needle is lowercase, ASCII letters of the
/// haystack are lowered before comparing).
static inline int pair_verify(const tl_pair_needle *n, const uint8_t *h, size_t s) {
    if (!n->fold) return memcmp(h + s, n->bytes, n->length) == 0;
    for (size_t k = 0; k < n->length; k++) {
        uint8_t c = h[s + k];
        if (c >= 'A' && c <= 'Z') c |= 0x20;
        if (c != n->bytes[k]) return 0;
    }
    return 1;
}

/// Whether a candidate at c that failed verification ends the pair scan: past 64
/// failures and more than one per 16 bytes scanned, verification would dominate (and
/// is O(n·m) at worst), so the caller's linear-time automaton takes over.
static inline int pair_give_up(tl_pair_scan *scan, size_t c) {
    scan->failures++;
    if (scan->failures > 64 && scan->failures * 16 > c - scan->from) {
        scan->gave_up = 1;
        return 1;
    }
    return 0;
}

static size_t pair_portable(const tl_pair_needle *n, const uint8_t *h, size_t s, size_t last, tl_pair_scan *scan) {
    for (; s <= last; s++) {
        if ((h[s + n->index1] | n->fold1) == n->byte1 && (h[s + n->index2] | n->fold2) == n->byte2) {
            if (pair_verify(n, h, s)) return s;
            if (pair_give_up(scan, s)) return s;
        }
    }
    return (size_t)-1;
}

#if defined(__x86_64__)
static size_t pair_sse2(const tl_pair_needle *n, const uint8_t *h, size_t s, size_t last, tl_pair_scan *scan) {
    const __m128i t1 = _mm_set1_epi8((char)n->byte1), f1 = _mm_set1_epi8((char)n->fold1);
    const __m128i t2 = _mm_set1_epi8((char)n->byte2), f2 = _mm_set1_epi8((char)n->fold2);
    const uint8_t *p1 = h + n->index1, *p2 = h + n->index2;
    // Starts s..s+15 read up to s + 15 + max(index) <= last + max(index) < end.
    while (s + 15 <= last) {
        __m128i a = _mm_or_si128(_mm_loadu_si128((const __m128i *)(p1 + s)), f1);
        __m128i b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(p2 + s)), f2);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, t1), _mm_cmpeq_epi8(b, t2)));
        while (mask) {
            size_t c = s + (size_t)__builtin_ctz(mask);
            if (pair_verify(n, h, c) || pair_give_up(scan, c)) return c;
            mask &= mask - 1;
        }
        s += 16;
    }
    return pair_portable(n, h, s, last, scan);
}

/// The candidate starts s..s+31 (bit k: both pair bytes in place at s + k).
__attribute__((target("avx2"), always_inline))
static inline __m256i pair_block32(const uint8_t *p1, const uint8_t *p2, size_t s, const int folds,
                                   __m256i t1, __m256i f1, __m256i t2, __m256i f2) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(p1 + s));
    __m256i b = _mm256_loadu_si256((const __m256i *)(p2 + s));
    if (folds) { a = _mm256_or_si256(a, f1); b = _mm256_or_si256(b, f2); }
    return _mm256_and_si256(_mm256_cmpeq_epi8(a, t1), _mm256_cmpeq_epi8(b, t2));
}

/// The AVX2 scan, with or without case folding (`folds`, a constant in each caller):
/// 64 starts a step, tested once (vptest of the two blocks' OR), then 32 a step.
// PERF (callgrind, 8 MiB subtitles, match --count-matches 'https?://[a-z0-9.-]+',
// memmem on "://"): 32 starts a step with the fold OR always applied, pair_avx2
// 3.67 M instructions (0.44 per byte).
__attribute__((target("avx2"), always_inline))
static inline size_t pair_avx2_folding(const tl_pair_needle *n, const uint8_t *h, size_t s, size_t last,
                                       tl_pair_scan *scan, const int folds) {
    const __m256i t1 = _mm256_set1_epi8((char)n->byte1), f1 = _mm256_set1_epi8((char)n->fold1);
    const __m256i t2 = _mm256_set1_epi8((char)n->byte2), f2 = _mm256_set1_epi8((char)n->fold2);
    const uint8_t *p1 = h + n->index1, *p2 = h + n->index2;
    // Starts s..s+63 read up to s + 63 + max(index) <= last + max(index) < end.
    while (s + 63 <= last) {
        __m256i x = pair_block32(p1, p2, s, folds, t1, f1, t2, f2);
        __m256i y = pair_block32(p1, p2, s + 32, folds, t1, f1, t2, f2);
        if (_mm256_testz_si256(_mm256_or_si256(x, y), _mm256_or_si256(x, y))) { s += 64; continue; }
        uint64_t mask = (uint64_t)(unsigned)_mm256_movemask_epi8(x)
            | ((uint64_t)(unsigned)_mm256_movemask_epi8(y) << 32);
        while (mask) {
            size_t c = s + (size_t)__builtin_ctzll(mask);
            if (pair_verify(n, h, c) || pair_give_up(scan, c)) return c;
            mask &= mask - 1;
        }
        s += 64;
    }
    while (s + 31 <= last) {
        unsigned mask = (unsigned)_mm256_movemask_epi8(pair_block32(p1, p2, s, folds, t1, f1, t2, f2));
        while (mask) {
            size_t c = s + (size_t)__builtin_ctz(mask);
            if (pair_verify(n, h, c) || pair_give_up(scan, c)) return c;
            mask &= mask - 1;
        }
        s += 32;
    }
    return pair_sse2(n, h, s, last, scan);
}

__attribute__((target("avx2")))
static size_t pair_avx2(const tl_pair_needle *n, const uint8_t *h, size_t s, size_t last, tl_pair_scan *scan) {
    return n->fold1 | n->fold2 ? pair_avx2_folding(n, h, s, last, scan, 1) : pair_avx2_folding(n, h, s, last, scan, 0);
}
#endif

#if defined(__aarch64__)
static size_t pair_neon(const tl_pair_needle *n, const uint8_t *h, size_t s, size_t last, tl_pair_scan *scan) {
    const uint8x16_t t1 = vdupq_n_u8(n->byte1), f1 = vdupq_n_u8(n->fold1);
    const uint8x16_t t2 = vdupq_n_u8(n->byte2), f2 = vdupq_n_u8(n->fold2);
    const uint8_t *p1 = h + n->index1, *p2 = h + n->index2;
    while (s + 15 <= last) {
        uint8x16_t e = vandq_u8(vceqq_u8(vorrq_u8(vld1q_u8(p1 + s), f1), t1),
                                vceqq_u8(vorrq_u8(vld1q_u8(p2 + s), f2), t2));
        uint64_t mask = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(e), 4)), 0);
        while (mask) {
            size_t c = s + (size_t)(__builtin_ctzll(mask) >> 2);
            if (pair_verify(n, h, c) || pair_give_up(scan, c)) return c;
            mask &= ~(0xFULL << (__builtin_ctzll(mask) & ~3ULL));
        }
        s += 16;
    }
    return pair_portable(n, h, s, last, scan);
}
#endif

size_t tl_memmem_pair(const tl_pair_needle *n, const uint8_t *h, size_t from, size_t end, tl_simd_level level,
                      tl_pair_scan *scan) {
    if (n->length == 0 || end < n->length || from > end - n->length) return end;
    const size_t last = end - n->length;
    size_t r;
    switch (level) {
#if defined(__x86_64__)
    case TL_SIMD_AVX2: r = pair_avx2(n, h, from, last, scan); break;
    case TL_SIMD_SSSE3: r = pair_sse2(n, h, from, last, scan); break;
#endif
#if defined(__aarch64__)
    case TL_SIMD_NEON: r = pair_neon(n, h, from, last, scan); break;
#endif
    default: r = pair_portable(n, h, from, last, scan); break;
    }
    return r == (size_t)-1 ? end : r;
}

// Which bytes of a 64-byte window are ASCII word bytes (`[0-9A-Za-z_]`, grep's `-w`
// outside letters beyond ASCII), as one bit per byte: the word-run search of the spam
// judge (Turnstile's WholeWordSet.forEachHit) walks the boundaries between runs with
// bit tricks, so it needs the mask, not a position. `static inline`, so Swift inlines
// it into that loop; SSE2 is part of x86-64, elsewhere a portable loop.
#ifndef CLITERALSIMD_WORD_BYTES_H
#define CLITERALSIMD_WORD_BYTES_H

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Bit i set when h[i] (i < 64) is an ASCII word byte. Requires h[0..<64] readable.
static inline uint64_t tl_word_byte_bits64(const uint8_t *h) {
#if defined(__SSE2__)
    // A range check lo <= x < lo + n as one signed compare: x + (0x80 - lo) < -128 + n.
    const __m128i digitShift = _mm_set1_epi8((char)(0x80 - '0')), digitBound = _mm_set1_epi8((char)(-128 + 10));
    const __m128i letterShift = _mm_set1_epi8((char)(0x80 - 'a')), letterBound = _mm_set1_epi8((char)(-128 + 26));
    const __m128i fold = _mm_set1_epi8(0x20), underscore = _mm_set1_epi8('_');
    uint64_t bits = 0;
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(h + 16 * k));
        __m128i digit = _mm_cmplt_epi8(_mm_add_epi8(v, digitShift), digitBound);
        __m128i letter = _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(v, fold), letterShift), letterBound);
        __m128i word = _mm_or_si128(_mm_or_si128(digit, letter), _mm_cmpeq_epi8(v, underscore));
        bits |= (uint64_t)(uint16_t)_mm_movemask_epi8(word) << (16 * k);
    }
    return bits;
#else
    uint64_t bits = 0;
    for (int i = 0; i < 64; i++) {
        uint8_t b = h[i], l = b | 0x20;
        int word = (b >= '0' && b <= '9') || (l >= 'a' && l <= 'z') || b == '_';
        bits |= (uint64_t)word << i;
    }
    return bits;
#endif
}

#endif

// SIMD kernels for LiteralAutomata's prefilters: Teddy (Hyperscan's multi-literal
// shuffle matcher) and memchr2/memchr3. Swift's SIMD types have no byte shuffle
// (pshufb / tbl), so these few loops are written in C with intrinsics; the search
// logic, table building and verification stay in Swift (LiteralAutomata/Prefilter).
//
// Every kernel has a portable version that every build runs; SSSE3 and AVX2 versions
// are compiled with function-level target attributes and chosen at run time
// (tl_simd_best), so the library builds and passes its tests without AVX2.
#ifndef CLITERALSIMD_H
#define CLITERALSIMD_H

#include <stddef.h>
#include <stdint.h>

#include "word_bytes.h"

/// Which kernel family runs: portable C, SSSE3 (16-byte), AVX2 (32-byte), NEON (16-byte).
typedef enum {
    TL_SIMD_PORTABLE = 0,
    TL_SIMD_SSSE3 = 1,
    TL_SIMD_AVX2 = 2,
    TL_SIMD_NEON = 3,
} tl_simd_level;

/// The fastest level this CPU supports.
tl_simd_level tl_simd_best(void);
/// 1 when `level` can run on this CPU.
int tl_simd_supported(tl_simd_level level);

/// Teddy nibble masks for a fingerprint of `width` (1...3) bytes and 8 buckets:
/// position i is a candidate when, for every j < width,
/// lo[j][h[i+j] & 15] & hi[j][h[i+j] >> 4] is non-zero.
typedef struct {
    uint8_t lo[3][16];
    uint8_t hi[3][16];
    int32_t width;
} tl_teddy_masks;

/// The first candidate position p in [from, end) with p + width <= end, or `end`.
/// Requires from <= end and h[0..<end] readable.
size_t tl_teddy_find(const tl_teddy_masks *masks, const uint8_t *h, size_t from, size_t end,
                     tl_simd_level level);

/// The first index in [from, end) holding a or b (memchr2), or `end`.
size_t tl_memchr2(uint8_t a, uint8_t b, const uint8_t *h, size_t from, size_t end, tl_simd_level level);
/// The first index in [from, end) holding a, b or c (memchr3), or `end`.
size_t tl_memchr3(uint8_t a, uint8_t b, uint8_t c, const uint8_t *h, size_t from, size_t end,
                  tl_simd_level level);
/// How many bytes in [from, end) equal a.
/// The last index in [from, end) holding `a`, or `end` (glibc's memrchr where there is one).
size_t tl_memrchr(uint8_t a, const uint8_t *h, size_t from, size_t end);

size_t tl_memcount(uint8_t a, const uint8_t *h, size_t from, size_t end, tl_simd_level level);

/// A needle for the packed-pair memmem: its bytes (lowercase when `fold`), and the two
/// bytes compared first, at `index1` and `index2` of a candidate start, each as
/// (haystack byte | foldN) == byteN.
typedef struct {
    const uint8_t *bytes;
    size_t length;
    size_t index1, index2;
    uint8_t byte1, fold1, byte2, fold2;
    int32_t fold;
} tl_pair_needle;

/// The state of one caller's run of pair scans: verifications that failed since
/// `from`, and whether the scan gave up on them (see tl_memmem_pair).
typedef struct {
    size_t from;
    size_t failures;
    int32_t gave_up;
} tl_pair_scan;

/// The first start s in [from, end - length] of an occurrence of the needle, or `end`.
/// When candidates fail verification more than 64 times and more often than once per
/// 16 bytes since scan->from, it sets scan->gave_up and returns the failed candidate
/// (no occurrence starts before it): the caller's linear-time automaton goes on from
/// there. Requires h[0..<end] readable.
size_t tl_memmem_pair(const tl_pair_needle *needle, const uint8_t *h, size_t from, size_t end,
                      tl_simd_level level, tl_pair_scan *scan);

#endif

// The last occurrence of one byte: glibc's memrchr (vectorized like its memchr),
// which Swift's Glibc module does not import; a byte loop elsewhere.
#define _GNU_SOURCE
#include <string.h>
#include "CLiteralSIMD.h"

size_t tl_memrchr(uint8_t a, const uint8_t *h, size_t from, size_t end) {
    if (from >= end) return end;
#if defined(__GLIBC__)
    const uint8_t *p = memrchr(h + from, a, end - from);
    return p ? (size_t)(p - h) : end;
#else
    for (size_t i = end; i > from; i--) {
        if (h[i - 1] == a) return i - 1;
    }
    return end;
#endif
}

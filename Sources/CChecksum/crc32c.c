// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): the CPU's instruction where
// there is one, slicing-by-8 tables otherwise (Intel's "slicing-by-8", Kounavis and
// Berry 2005: eight table lookups per 8 bytes instead of one per byte).
#include "CChecksum.h"
#include <string.h>

#if defined(__x86_64__)
// glibc's own answer when it has one (no CPUID of libgcc's at start-up); see
// CLiteralSIMD/simd_level.c.
#if defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define TC_CPU_HAS(glibc_name, gcc_name) (CPU_FEATURE_ACTIVE(glibc_name))
#endif
#endif
#ifndef TC_CPU_HAS
#define TC_CPU_HAS(glibc_name, gcc_name) (__builtin_cpu_supports(gcc_name))
#endif
#endif

static uint32_t table[8][256];
static volatile int table_ready = 0;

static void build_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = table[0][n];
        for (int t = 1; t < 8; t++) {
            c = table[0][c & 0xFF] ^ (c >> 8);
            table[t][n] = c;
        }
    }
    // A benign race: every thread writes the same values before setting the flag.
    __atomic_store_n(&table_ready, 1, __ATOMIC_RELEASE);
}

uint32_t tc_crc32c_portable(uint32_t crc, const uint8_t *p, size_t n) {
    if (!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE)) build_table();
    uint32_t c = ~crc;
    while (n >= 8) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + 4, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        lo = __builtin_bswap32(lo);
        hi = __builtin_bswap32(hi);
#endif
        lo ^= c;
        c = table[7][lo & 0xFF] ^ table[6][(lo >> 8) & 0xFF] ^ table[5][(lo >> 16) & 0xFF] ^ table[4][lo >> 24]
          ^ table[3][hi & 0xFF] ^ table[2][(hi >> 8) & 0xFF] ^ table[1][(hi >> 16) & 0xFF] ^ table[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--) c = table[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
    return ~c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *p, size_t n) {
    uint64_t c = ~crc;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
        p += 8;
        n -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (n--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return ~c32;
}

int tc_crc32c_hardware(void) { return TC_CPU_HAS(SSE4_2, "sse4.2") ? 1 : 0; }
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *p, size_t n) {
    uint32_t c = ~crc;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_arm_crc32cd(c, v);
        p += 8;
        n -= 8;
    }
    while (n--) c = __builtin_arm_crc32cb(c, *p++);
    return ~c;
}

int tc_crc32c_hardware(void) { return 1; }
#else
int tc_crc32c_hardware(void) { return 0; }
#endif

uint32_t tc_crc32c(uint32_t crc, const uint8_t *p, size_t n) {
#if defined(__x86_64__) || (defined(__aarch64__) && defined(__ARM_FEATURE_CRC32))
    // A benign race: every thread computes the same answer.
    static volatile int hardware = -1;
    if (hardware < 0) hardware = tc_crc32c_hardware();
    if (hardware) return crc32c_hardware(crc, p, n);
#endif
    return tc_crc32c_portable(crc, p, n);
}

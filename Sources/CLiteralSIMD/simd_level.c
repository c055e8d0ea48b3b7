// Run-time choice of the kernel family: the best the CPU supports, or the one named
// by TURNSTILE_SIMD=portable|ssse3|avx2|neon (lower only: a level the CPU lacks falls
// back to the best it has), so a test or benchmark run can force the portable path.
#include "CLiteralSIMD.h"
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
// Asking the CPU what it has: glibc read it once at start-up (init_cpu_features), so on
// glibc 2.33+ CPU_FEATURE_ACTIVE reads that answer. __builtin_cpu_supports links libgcc's
// own detector, a constructor that runs about ten more CPUID instructions in every
// process, each a trap to the hypervisor on a virtual machine (5 us measured here): 67 us
// of a 2.3 ms start-up.
#if defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define TL_CPU_HAS(glibc_name, gcc_name) (CPU_FEATURE_ACTIVE(glibc_name))
#endif
#endif
#ifndef TL_CPU_HAS
#define TL_CPU_HAS(glibc_name, gcc_name) (__builtin_cpu_supports(gcc_name))
#endif
#endif

int tl_simd_supported(tl_simd_level level) {
    switch (level) {
    case TL_SIMD_PORTABLE: return 1;
#if defined(__x86_64__) || defined(__i386__)
    case TL_SIMD_SSSE3: return TL_CPU_HAS(SSSE3, "ssse3") ? 1 : 0;
    case TL_SIMD_AVX2: return TL_CPU_HAS(AVX2, "avx2") ? 1 : 0;
#endif
#if defined(__aarch64__)
    case TL_SIMD_NEON: return 1;
#endif
    default: return 0;
    }
}

static tl_simd_level detect(void) {
    tl_simd_level best = TL_SIMD_PORTABLE;
    if (tl_simd_supported(TL_SIMD_NEON)) best = TL_SIMD_NEON;
    if (tl_simd_supported(TL_SIMD_SSSE3)) best = TL_SIMD_SSSE3;
    if (tl_simd_supported(TL_SIMD_AVX2)) best = TL_SIMD_AVX2;
    const char *forced = getenv("TURNSTILE_SIMD");
    if (forced) {
        tl_simd_level want = best;
        if (strcmp(forced, "portable") == 0) want = TL_SIMD_PORTABLE;
        else if (strcmp(forced, "ssse3") == 0) want = TL_SIMD_SSSE3;
        else if (strcmp(forced, "avx2") == 0) want = TL_SIMD_AVX2;
        else if (strcmp(forced, "neon") == 0) want = TL_SIMD_NEON;
        if (tl_simd_supported(want)) best = want;
    }
    return best;
}

tl_simd_level tl_simd_best(void) {
    // A benign race: every thread computes the same value.
    static volatile int cached = -1;
    if (cached < 0) cached = (int)detect();
    return (tl_simd_level)cached;
}

// The vector instruction family a prefilter kernel runs with, chosen at run time
// from what the CPU supports (CPUID on x86_64), so one binary runs everywhere and the
// portable path can be forced for tests (``SIMDLevel/portable``) or for a whole run
// (TURNSTILE_SIMD=portable|ssse3|avx2|neon in the environment).

import CLiteralSIMD

/// A family of prefilter kernels: portable C, SSSE3 / AVX2 on x86_64, NEON on arm64.
///
/// ```swift
/// let level = SIMDLevel.best          // e.g. .avx2
/// let all = SIMDLevel.supported       // [.portable, .ssse3, .avx2]
/// ```
///
/// - Complexity: O(1); the CPU is probed once per process.
public enum SIMDLevel: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One position at a time; every build and CPU.
    case portable = 0
    /// 16 bytes per step with `pshufb` (x86_64).
    case ssse3 = 1
    /// 32 bytes per step (x86_64 with AVX2).
    case avx2 = 2
    /// 16 bytes per step with `tbl` (arm64).
    case neon = 3

    /// The fastest level this CPU supports, or the lower one TURNSTILE_SIMD names.
    public static var best: SIMDLevel { SIMDLevel(rawValue: Int(tl_simd_best().rawValue)) ?? .portable }

    /// Every level this CPU can run, slowest first.
    public static var supported: [SIMDLevel] { allCases.filter(\.isSupported) }

    /// Whether this CPU can run the level.
    public var isSupported: Bool { tl_simd_supported(cLevel) != 0 }

    var cLevel: tl_simd_level { tl_simd_level(rawValue: UInt32(rawValue)) }

    public var description: String {
        switch self {
        case .portable: "portable"
        case .ssse3: "ssse3"
        case .avx2: "avx2"
        case .neon: "neon"
        }
    }
}

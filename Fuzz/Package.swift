// swift-tools-version: 6.1
// Turnstile's libFuzzer targets: a package of its own (like Benchmarks/), depending on
// the root package by path, so a plain `swift build` never compiles them and they can
// be built with `-sanitize=fuzzer,address` in their own scratch path. Build and run
// one with Fuzz/run.sh (see Fuzz/README.md):
//
//   Fuzz/run.sh regex-compile 600
//
// Each executable's main.swift hands one `(bytes) -> Void` check to libFuzzer's
// driver (`LLVMFuzzerRunDriver`, declared by the FuzzDriver C target). A finding is a
// crash: a trap, an AddressSanitizer report, or a failed differential check, which
// prints the reproducing pattern and input before aborting.
import PackageDescription

let package = Package(
    name: "TurnstileFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Turnstile", path: ".."),
    ],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver; the fuzzer runtime comes from
        // -sanitize=fuzzer at link time.
        .target(name: "FuzzDriver"),
        // The repository's test helpers (seeded generator, random regexes, naive
        // literal matcher), shared by symlink rather than copied.
        .target(
            name: "FuzzTestSupport",
            dependencies: [
                .product(name: "AutomatonCore", package: "Turnstile"),
                .product(name: "PCRE2Oracle", package: "Turnstile"),
            ]
        ),
        .target(name: "FuzzSupport", dependencies: ["FuzzDriver"]),
        .executableTarget(
            name: "FuzzRegexCompile",
            dependencies: ["FuzzSupport", .product(name: "RegexAutomata", package: "Turnstile")]
        ),
        .executableTarget(
            name: "FuzzRegexDiff",
            dependencies: [
                "FuzzSupport", "FuzzTestSupport",
                .product(name: "RegexAutomata", package: "Turnstile"),
                .product(name: "PCRE2Oracle", package: "Turnstile"),
            ]
        ),
        .executableTarget(
            name: "FuzzAhoCorasick",
            dependencies: [
                "FuzzSupport", "FuzzTestSupport",
                .product(name: "LiteralAutomata", package: "Turnstile"),
            ]
        ),
        .executableTarget(
            name: "FuzzLoader",
            dependencies: [
                "FuzzSupport",
                .product(name: "AutomatonCore", package: "Turnstile"),
                .product(name: "LiteralAutomata", package: "Turnstile"),
                .product(name: "RegexAutomata", package: "Turnstile"),
                .product(name: "Turnstile", package: "Turnstile"),
            ]
        ),
        .executableTarget(
            name: "FuzzMail",
            dependencies: ["FuzzSupport", .product(name: "Turnstile", package: "Turnstile")]
        ),
        .executableTarget(
            name: "FuzzRuleFile",
            dependencies: ["FuzzSupport", .product(name: "Turnstile", package: "Turnstile")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

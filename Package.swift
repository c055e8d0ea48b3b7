// swift-tools-version: 6.1
// Turnstile: text-pattern automata. See ../shared/DESIGN.md for the architecture.
//
// Dependency direction (nothing points back up):
//   CChecksum ◄─ AutomatonCore (CRC-32C of saved files)
//   AutomatonCore ◄─ EventMachine (typed state/event machines; nothing else uses it)
//   EventMachineTesting (TestClock for an app's tests of timeouts; depends on nothing)
//   AutomatonCore, CLiteralSIMD ◄─ LiteralAutomata ◄─┐
//   AutomatonCore, LiteralAutomata ◄─ RegexAutomata ◄───┼─ Turnstile ◄─ turnstile (executable)
//   CPCRE2 ◄─ PCRE2Oracle ◄─ test targets and Benchmarks/ only (never a library product)
//   Turnstile ◄─ SpamdProtocol ◄─ TurnstileServer (SwiftNIO) ◄─ turnstile (executable only:
//   no library product depends on SwiftNIO)
//   Turnstile, CSQLite (system libsqlite3) ◄─ LearningStore ◄─ turnstile (executable only)
//   Turnstile ◄─ TurnstileFoundation, EventMachine ◄─ EventMachineFoundation: LocalizedError
//   conformances for apps that use Foundation; the library products themselves (and the
//   turnstile executable) link only the standard library
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

// The release `turnstile` on Linux is one static executable (the Swift runtime,
// Foundation's parts that swift-argument-parser uses, SQLite and the C library linked
// in), as ripgrep ships its own: no dynamic loader at start-up, where relocating
// libswiftCore.so and its neighbours cost 4.3 M of the 4.4 M instructions of
// `turnstile --version` (0.18 M static). FoundationEssentials' archive needs its two
// helper archives named (a dynamic link finds them through the .so). Debug builds, the
// tests and an app that depends on the libraries alone (`traits: []`) are untouched.
// README, "Start-up".
let staticRelease = BuildSettingCondition.when(platforms: [.linux], configuration: .release, traits: ["Tools"])
let staticReleaseExecutable: [LinkerSetting] = [
    .unsafeFlags(["-static-executable"], staticRelease),
    .linkedLibrary("_FoundationCollections", staticRelease),
    .linkedLibrary("_FoundationCShims", staticRelease),
]

// The modules of the release `turnstile` build their concrete generic metadata by
// calling its accessor with the witness tables in hand, not from a mangled type name:
// from a name, the runtime proves each requirement again (`Set<UInt8>` needs
// `UInt8: Hashable`) by scanning every conformance record of the executable, about
// 290 K instructions a lookup. Callgrind, `match -c '^#' /dev/null`: 5.30 M
// instructions with names, 1.84 M with accessors. Same condition as the static link
// (an app that depends on the libraries alone is untouched). README, "Start-up".
//
// And no run-time exclusivity checks there (`-enforce-exclusivity=unchecked`): every
// access to a class's stored `var` (the output writer's buffer, the run's state) began
// and ended a tracked access, 2.5 M of 123 M instructions of `grep -r -l GPL
// /usr/share/doc`. Debug builds and the tests keep the checks, so a conflicting
// access is still caught where it is written.
let startupRelease: [SwiftSetting] = strict + [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
                  "-enforce-exclusivity=unchecked"], staticRelease),
]

// The event machine as an app developer uses it (Examples/<name>/main.swift, issue 26):
// small executables that depend on EventMachine alone; EventMachineExamplesTests runs
// each one and compares its output with Examples/<name>/expected-output.txt.
let eventMachineExamples = ["gate", "navigation", "news-screen", "water", "app-flow"]

let package = Package(
    name: "Turnstile",
    // Synchronization (Mutex, Atomic: TestClock, the server, the threaded pipeline) sets
    // the floor; Observation (the machines' observable `state`) needs one release less.
    // No `isolated deinit` (it would need macOS 15.4 / iOS 18.4): see MachineCore.swift.
    // Only Linux builds and tests here (README, "The event machine in an iOS app").
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "AutomatonCore", targets: ["AutomatonCore"]),
        .library(name: "EventMachine", targets: ["EventMachine"]),
        // A manual clock for an app's tests of timeouts (issue 36); no dependency.
        .library(name: "EventMachineTesting", targets: ["EventMachineTesting"]),
        .library(name: "LiteralAutomata", targets: ["LiteralAutomata"]),
        .library(name: "RegexAutomata", targets: ["RegexAutomata"]),
        .library(name: "Turnstile", targets: ["Turnstile"]),
        // `error.localizedDescription` says each error's sentence (Foundation's LocalizedError).
        .library(name: "TurnstileFoundation", targets: ["TurnstileFoundation"]),
        .library(name: "EventMachineFoundation", targets: ["EventMachineFoundation"]),
        .executable(name: "turnstile", targets: ["TurnstileCLI"]),
        // The oracle is a product only so that Benchmarks/ can import it.
        .library(name: "PCRE2Oracle", targets: ["PCRE2Oracle"]),
    ],
    // An app that depends on the libraries only writes `traits: []`, and neither
    // swift-argument-parser nor swift-nio is resolved into its Package.resolved: a
    // package dependency whose every use is guarded by a disabled trait is not resolved
    // (DESIGN.md, "Depending on the event machine alone"; checked by
    // Scripts/check-event-machine-dependencies.sh). Built here, Tools is on by default.
    traits: [
        .trait(name: "Tools", description: "The turnstile executable's packages: swift-argument-parser and swift-nio."),
        .default(enabledTraits: ["Tools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `turnstile serve` only (TurnstileServer): NIOCore and NIOPosix.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `make docs`: the DocC catalogs of the library products (a plugin; nothing links it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // CRC-32C for saved files in C: the CPU's crc32 instruction has no Swift name.
        .target(name: "CChecksum"),
        .target(name: "AutomatonCore", dependencies: ["CChecksum"], swiftSettings: startupRelease),
        .target(name: "EventMachine", dependencies: ["AutomatonCore"], swiftSettings: strict),
        .target(name: "EventMachineTesting", swiftSettings: strict),
        // SIMD kernels (Teddy, memchr2/3) in C: Swift's SIMD types have no byte shuffle.
        .target(name: "CLiteralSIMD"),
        .target(name: "LiteralAutomata", dependencies: ["AutomatonCore", "CLiteralSIMD"], swiftSettings: startupRelease),
        // LiteralAutomata for literal prefilters only (DESIGN.md).
        .target(name: "RegexAutomata", dependencies: ["AutomatonCore", "LiteralAutomata"], swiftSettings: startupRelease),
        // Mapped windows of input files and the SIGBUS guard for a file that shrinks
        // while mapped, in C: a signal handler must not run Swift code.
        .target(name: "CMappedInput"),
        .target(
            name: "Turnstile",
            dependencies: ["AutomatonCore", "LiteralAutomata", "RegexAutomata", "CMappedInput", "CLiteralSIMD"],
            swiftSettings: startupRelease
        ),
        .target(name: "TurnstileFoundation", dependencies: ["AutomatonCore", "RegexAutomata", "Turnstile"],
                swiftSettings: strict),
        .target(name: "EventMachineFoundation", dependencies: ["EventMachine"], swiftSettings: strict),
        // The C library's <wctype.h> for grep's locale classes (the Swift Glibc module leaves it out).
        .target(name: "CLocaleClasses"),
        .executableTarget(
            name: "TurnstileCLI",
            dependencies: [
                "Turnstile", "AutomatonCore", "SpamdProtocol", "TurnstileServer", "LearningStore", "CLocaleClasses",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: startupRelease,
            linkerSettings: staticReleaseExecutable
        ),
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .target(name: "PCRE2Oracle", dependencies: ["CPCRE2"], swiftSettings: strict),
        // spamc/spamd requests and answers, without sockets: `turnstile serve`'s protocol.
        .target(name: "SpamdProtocol", dependencies: ["Turnstile"], swiftSettings: startupRelease),
        // The system's libsqlite3, for `turnstile learn`'s database (executable only).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "LearningStore", dependencies: ["Turnstile", "CSQLite"], swiftSettings: startupRelease),
        // The spamd-compatible server on SwiftNIO (`turnstile serve`).
        .target(
            name: "TurnstileServer",
            dependencies: [
                "SpamdProtocol",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Tools"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: startupRelease
        ),

        // Shared test helpers: case loader, seeded generator, naive reference matchers.
        .target(
            name: "TestSupport",
            // Not PCRE2Oracle: the EventMachine tests need no libpcre2.
            dependencies: ["AutomatonCore"],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(name: "AutomatonCoreTests", dependencies: ["AutomatonCore", "TestSupport"]),
        .testTarget(
            name: "EventMachineTests",
            dependencies: ["EventMachine", "EventMachineFoundation", "EventMachineTesting", "AutomatonCore", "TestSupport"]
        ),
        .testTarget(name: "PCRE2OracleTests", dependencies: ["PCRE2Oracle", "TestSupport"]),
        .testTarget(
            name: "LiteralAutomataTests",
            dependencies: ["LiteralAutomata", "AutomatonCore", "TestSupport", "PCRE2Oracle"]
        ),
        .testTarget(
            name: "RegexAutomataTests",
            dependencies: ["RegexAutomata", "AutomatonCore", "TestSupport", "PCRE2Oracle"],
            resources: []
        ),
        .testTarget(name: "SpamdProtocolTests", dependencies: ["SpamdProtocol", "Turnstile"]),
        .testTarget(
            name: "TurnstileTests",
            dependencies: ["Turnstile", "TurnstileFoundation", "AutomatonCore", "TestSupport", "PCRE2Oracle"]
        ),
        .testTarget(
            name: "EventMachineExamplesTests",
            dependencies: ["TestSupport", "example-spam-check"] + eventMachineExamples.map { .target(name: "example-\($0)") }
        ),
        // Runs the built `turnstile` binary; depending on the executable target makes
        // `swift build --build-tests` / `swift test` build it first.
        .testTarget(
            name: "TurnstileCLITests",
            dependencies: ["TestSupport", "TurnstileCLI"]
        ),
        // The Turnstile library alone in a program (LibraryLinkageTests: no Foundation).
        .executableTarget(name: "example-spam-check", dependencies: ["Turnstile"], path: "Examples/spam-check",
                          exclude: ["expected-output.txt"], swiftSettings: strict),
    ] + eventMachineExamples.map { name in
        .executableTarget(name: "example-\(name)", dependencies: ["EventMachine"], path: "Examples/\(name)",
                         exclude: ["expected-output.txt"], swiftSettings: strict)
    },
    swiftLanguageModes: [.v6]
)

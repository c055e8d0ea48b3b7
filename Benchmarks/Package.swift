// swift-tools-version: 6.1
// Turnstile's benchmarks: a package of its own, so a user of the library never
// resolves benchmark dependencies.
//
//   swift package benchmark                 micro-benchmarks (ordo-one/package-benchmark):
//                                           throughput, build time, allocations, events/s
//   swift run -c release compare            side by side with Hyperscan (in-process, loaded
//                                           with dlopen when installed), PCRE2 (JIT and
//                                           interpreter, in-process) and grep / rg / pcre2grep (whole
//                                           process): Markdown table, CSV and SVG chart
//   ./run-compare.sh                        the full run, written to results/<date>/
import PackageDescription

let turnstile: [Target.Dependency] = [
    .product(name: "AutomatonCore", package: "Turnstile"),
    .product(name: "EventMachine", package: "Turnstile"),
    .product(name: "LiteralAutomata", package: "Turnstile"),
    .product(name: "RegexAutomata", package: "Turnstile"),
    .product(name: "Turnstile", package: "Turnstile"),
]

let package = Package(
    name: "TurnstileBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Turnstile", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CoreSearch",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "AutomatonCore", package: "Turnstile"),
            ],
            path: "Benchmarks/CoreSearch",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "EngineSearch",
            dependencies: turnstile + [
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/EngineSearch",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // The event machine per event (issue 36): the gate three ways, shared by the
        // package-benchmark suite and `event-table` (the README's ns-per-event table).
        .target(
            name: "EventWorkloads",
            dependencies: [.product(name: "EventMachine", package: "Turnstile")],
            path: "Sources/EventWorkloads"
        ),
        .executableTarget(
            name: "EventMachineEvents",
            dependencies: [
                "EventWorkloads",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "EventMachine", package: "Turnstile"),
            ],
            path: "Benchmarks/EventMachineEvents",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "event-table",
            dependencies: ["EventWorkloads", .product(name: "EventMachine", package: "Turnstile")],
            path: "Sources/EventTable"
        ),
        // Plain Swift, no benchmark framework: one process measures every engine on
        // every workload of ../Corpora/bench/workloads.json and checks their counts.
        .executableTarget(
            name: "compare",
            dependencies: turnstile + [
                .product(name: "PCRE2Oracle", package: "Turnstile"),
            ],
            path: "Sources/Compare"
        ),
        // A spamc-protocol load generator for `turnstile serve` (and SpamAssassin's
        // spamd): N connections, CHECK, messages/s, p50/p99. Plain sockets, no dependency.
        .executableTarget(name: "spamd-load", path: "Sources/SpamdLoad"),
    ],
    swiftLanguageModes: [.v6]
)

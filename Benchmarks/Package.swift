// swift-tools-version: 6.1
// Turnstile's benchmarks: a package of its own, so a user of the library never
// resolves benchmark dependencies. Run from this folder with
//   swift package benchmark
// (ordo-one/package-benchmark; release mode; reports throughput and allocations).
import PackageDescription

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
    ],
    swiftLanguageModes: [.v6]
)

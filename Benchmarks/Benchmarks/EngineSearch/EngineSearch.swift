// Micro-benchmarks of Turnstile's engines (ordo-one/package-benchmark): search
// throughput per engine and representation, build time, allocations during search,
// and events per second of the typed event machine.
//
// The haystack is 16 MiB of seeded word salad (no shared corpora needed, so the
// numbers are comparable on any machine); the side-by-side comparison with PCRE2,
// grep and ripgrep on real text is `swift run -c release compare`.
//
// Allocation metrics are deterministic, so they can be checked in CI: the literal
// searches (forEachMatch) and the DFA scans must allocate nothing per byte — the
// malloc count of a 16 MiB scan stays a small constant.
import AutomatonCore
import Benchmark
import EventMachine
import LiteralAutomata
import RegexAutomata
import Turnstile


let vocabulary: [String] = {
    var rng = SplitMix64(seed: 42)
    let letters = Array("etaoinshrdlucmfwypvbgkjqxz".utf8)
    return (0..<5000).map { _ in
        let n = 2 + rng.below(9)
        // Skewed towards frequent letters, as English is.
        return String(decoding: (0..<n).map { _ in letters[min(rng.below(26), rng.below(26))] }, as: UTF8.self)
    }
}()

let haystack: [UInt8] = {
    var rng = SplitMix64(seed: 7)
    var text: [UInt8] = []
    text.reserveCapacity(16 << 20)
    var col = 0
    while text.count < 16 << 20 {
        var w = Array(vocabulary[rng.below(vocabulary.count)].utf8)
        if rng.below(10) == 0 { w[0] = w[0] &- 32 }  // capitalised
        text += w
        col += w.count + 1
        if col > 70 { text.append(0x0A); col = 0 } else { text.append(0x20) }
    }
    return text
}()

func words(_ n: Int, seed: UInt64) -> [String] {
    var rng = SplitMix64(seed: seed)
    return (0..<n).map { _ in vocabulary[rng.below(vocabulary.count)] + String(rng.below(3) == 0 ? "s" : "") }
}

enum Light: Discriminated, CaseIterable, Hashable { case red, green, yellow }
enum LightEvent: Discriminated, CaseIterable, Hashable { case go, slow, stop }

let searchMetrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal, .instructions]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: searchMetrics, scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20)

    // Aho-Corasick: each representation, with and without the start-byte prefilter.
    for n in [10, 1000] {
        let list = words(n, seed: UInt64(n))
        for representation in LiteralRepresentation.allCases {
            for prefilter in [true, false] {
                let ac = try! AhoCorasick.Builder().representation(representation).prefilter(prefilter).build(list)
                Benchmark("AhoCorasick \(n) words, \(representation), prefilter \(prefilter ? "on" : "off"): count 16 MiB") { benchmark in
                    haystack.withUnsafeBufferPointer { buffer in
                        for _ in benchmark.scaledIterations {
                            var count = 0
                            ac.forEachMatch(in: buffer) { _ in count &+= 1; return true }
                            blackHole(count)
                        }
                    }
                }
            }
        }
        let ciww = try! AhoCorasick.Builder().asciiCaseInsensitive(true).wholeWord(true).build(list)
        Benchmark("AhoCorasick \(n) words -i -w: count 16 MiB") { benchmark in
            haystack.withUnsafeBufferPointer { buffer in
                for _ in benchmark.scaledIterations {
                    var count = 0
                    ciww.forEachMatch(in: buffer) { _ in count &+= 1; return true }
                    blackHole(count)
                }
            }
        }
    }

    // One word: KMP's dense DFA (no prefilter) against the prefiltered searcher.
    let kmp = try! KMP("zqxjk", prefilter: false)
    let kmpDFA = kmp.denseDFA
    Benchmark("KMP DFA isMatch, absent word: 16 MiB") { benchmark in
        haystack.withUnsafeBufferPointer { buffer in
            for _ in benchmark.scaledIterations { blackHole(kmpDFA.isMatch(in: buffer)) }
        }
    }
    let kmpPrefiltered = try! KMP("zqxjk", prefilter: true)
    Benchmark("KMP with prefilter isMatch, absent word: 16 MiB") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(kmpPrefiltered.isMatch(in: haystack)) }
    }

    // Regex: dense DFA (minimized and not) and the lazy DFA.
    for (label, compiler) in [("dense, minimized", RegexCompiler()), ("dense, not minimized", RegexCompiler().minimize(false)),
                              ("lazy", RegexCompiler().forceLazy(true))] {
        let regex = try! compiler.compile("[A-Z][a-z]+ing")
        Benchmark("Regex [A-Z][a-z]+ing \(label): isMatch-free scan (matches) 16 MiB") { benchmark in
            haystack.withUnsafeBufferPointer { buffer in
                for _ in benchmark.scaledIterations { blackHole((regex.matches(in: buffer) as [Match]).count) }
            }
        }
    }
    let forward = try! RegexCompiler().compile("[A-Za-z]{12,}").forwardDFA!
    Benchmark("Regex [A-Za-z]{12,} forward DenseDFA isMatch 16 MiB (allocation-free scan)") { benchmark in
        haystack.withUnsafeBufferPointer { buffer in
            for _ in benchmark.scaledIterations { blackHole(forward.isMatch(in: buffer)) }
        }
    }

    // The lazy `matches(in:)` against `forEachMatch` and the array (issue 18's goal: the
    // lazy sequence within 5 % of forEachMatch) on a match-dense 10 MiB text: single
    // letters for Aho-Corasick (about one match in four bytes), every word for the regex.
    let dense = Array(haystack.prefix(10 << 20))
    let letters = try! AhoCorasick(["e", "t", "a"])
    let everyWord = try! RegexAutomaton("[a-z]+")
    registerLazyVersusCallback("AhoCorasick e|t|a", letters, dense) { letters.matches(in: $0) as [Match] }
    registerLazyVersusCallback("Regex [a-z]+", everyWord, dense) { everyWord.matches(in: $0) as [Match] }

    // Build time.
    let buildMetrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .peakMemoryResident]
    let tenThousand = words(10_000, seed: 10_000)
    Benchmark("Build AhoCorasick 10,000 words (dense)", configuration: .init(metrics: buildMetrics, maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! AhoCorasick.Builder().representation(.dense).build(tenThousand)) }
    }
    Benchmark("Build AhoCorasick 10,000 words (compact)", configuration: .init(metrics: buildMetrics, maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! AhoCorasick.Builder().representation(.compact).build(tenThousand)) }
    }
    Benchmark("Build regex [ab]*a[ab]{11} (4,096-state DFA)", configuration: .init(metrics: buildMetrics, maxIterations: 10)) { benchmark in
        let compiler = RegexCompiler().limits(Limits(maxStates: 1_000_000, maxTableBytes: 1 << 30, maxCacheBytes: 64 << 20))
        for _ in benchmark.scaledIterations { blackHole(try! compiler.compile("[ab]*a[ab]{11}")) }
    }

    // Saved automata (issue 15): loading the saved built-in list against building it.
    // Target: the load takes at most a tenth of the build.
    let savedBuiltIn = try! RuleSet.standard.serialized()
    Benchmark("Build the built-in spam filter (2,133 words)", configuration: .init(metrics: buildMetrics, maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! RuleSet.standard.spamFilter()) }
    }
    Benchmark("Load the saved built-in spam filter (checksum, parse, no build)", configuration: .init(metrics: buildMetrics, maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! RuleSet(deserializing: savedBuiltIn).spamFilter()) }
    }

    // The typed event machine: events per second through fire(), no hooks, and with
    // one did-enter hook.
    let events: [LightEvent] = [.go, .slow, .stop]
    // Every event is valid in every state, so a run may start wherever the last one
    // stopped (the iteration count is not a multiple of 3).
    let rules: [StateMachine<Light, LightEvent>.Rule] = [
        .on(.go, from: Light.allCases, to: .green), .on(.slow, from: Light.allCases, to: .yellow),
        .on(.stop, from: Light.allCases, to: .red),
    ]
    let plain = try! StateMachine<Light, LightEvent>(initial: .red, rules: rules)
    Benchmark("StateMachine fire, no hooks (1,000 events)",
              configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo)) { benchmark in
        for i in benchmark.scaledIterations { blackHole(try! plain.fire(events[i % 3])) }
    }
    let hooked = try! StateMachine<Light, LightEvent>(initial: .red, rules: rules)
    hooked.onDidEnter(.green) { blackHole($0.to) }
    Benchmark("StateMachine fire, one did-enter hook (1,000 events)",
              configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo)) { benchmark in
        for i in benchmark.scaledIterations { blackHole(try! hooked.fire(events[i % 3])) }
    }
    let table = plain.definition.automaton
    Benchmark("StateMachine table step (DenseDFA.next, 1,000 events)",
              configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo)) { benchmark in
        var s = table.startState()
        for i in benchmark.scaledIterations { s = table.next(s, class: i % 3); if s == 0 { s = table.startState() } }
        blackHole(s)
    }
}

/// Counts with the callback form (the existential is opened once, outside the loop).
func forEachCount(_ searcher: some MatchSearcher, _ haystack: [UInt8]) -> Int {
    var n = 0
    searcher.forEachMatch(in: haystack) { _ in n &+= 1; return true }
    return n
}

/// Counts by iterating the lazy sequence, as a `for` loop in user code does.
func lazyCount(_ searcher: some MatchSearcher, _ haystack: [UInt8]) -> Int {
    var n = 0
    for _ in searcher.matches(in: haystack) { n &+= 1 }
    return n
}

/// Three benchmarks over the same matches: the callback, the lazy sequence and the
/// array API (`array`), each counting them.
func registerLazyVersusCallback<S: MatchSearcher>(_ name: String, _ searcher: S, _ haystack: [UInt8],
                                                  array: @escaping @Sendable ([UInt8]) -> [Match]) {
    Benchmark("Lazy vs callback: \(name) forEachMatch, 10 MiB") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(forEachCount(searcher, haystack)) }
    }
    Benchmark("Lazy vs callback: \(name) lazy matches(in:), 10 MiB") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(lazyCount(searcher, haystack)) }
    }
    Benchmark("Lazy vs callback: \(name) array matches(in:), 10 MiB") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(array(haystack).count) }
    }
}

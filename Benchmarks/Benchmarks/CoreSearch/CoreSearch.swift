// Throughput of the core dense-DFA search loop, independent of any builder: a
// hand-built DFA for one word ("automaton") run over 16 MiB of text in which the
// word never occurs, so every byte takes the fast path. Reported as throughput
// (bytes/s) and allocations, which must be zero per byte.
import AutomatonCore
import Benchmark

/// A DFA that finds `word` anywhere (KMP-style transitions built by brute force:
/// the state is the length of the longest prefix of `word` that ends here).
func wordDFA(_ word: [UInt8]) -> DenseDFA {
    var set = ByteClassSet()
    for b in word { set.add(b) }
    let classes = set.byteClasses()
    var builder = DenseDFABuilder(byteClasses: classes, patternCount: 1)
    let states = (0...word.count).map { k in builder.addState(patterns: k == word.count ? [0] : []) }
    let reps = classes.representatives
    for k in 0...word.count {
        for byte in reps {
            let seen = Array(word.prefix(k)) + [byte]
            var next = min(seen.count, word.count)
            while next > 0, Array(seen.suffix(next)) != Array(word.prefix(next)) { next -= 1 }
            builder.setTransition(from: states[k], class: Int(classes[byte]), to: states[next])
        }
    }
    builder.setStart(states[0])
    return try! builder.build()
}

let haystack: [UInt8] = {
    let line = Array("the quick brown fox jumps over the lazy dog while automata sleep\n".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(16 << 20)
    while text.count < 16 << 20 { text += line }
    return text
}()

let benchmarks: @Sendable () -> Void = {
    let dfa = wordDFA(Array("automaton".utf8))
    Benchmark(
        "DenseDFA.isMatch 16 MiB, no match",
        configuration: .init(metrics: [.throughput, .mallocCountTotal, .instructions], scalingFactor: .one)
    ) { benchmark in
        haystack.withUnsafeBufferPointer { buffer in
            for _ in benchmark.scaledIterations {
                blackHole(dfa.isMatch(in: buffer))
            }
        }
    }
}

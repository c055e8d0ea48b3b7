// Fuzz target: the saved-automaton loaders on arbitrary bytes.
//
// Input: byte 0 selects the loader (mod 4: DenseDFA, AhoCorasick, KMP, RuleSet); the
// rest is the file. Every input must give a typed error or an automaton; a loaded
// automaton is then searched over haystacks covering every byte value, forward and
// reverse, anchored and not, from every start context — AddressSanitizer and Swift's
// checks turn any out-of-bounds table read into a crash — and saved again, which must
// load back.
//
// Every saved format is sealed in a SavedContainer (length and CRC-32C), which refuses
// any changed byte before a field is read; so that mutations reach the field checks
// (what keeps a hand-made file with a valid checksum memory-safe), the container's
// length and checksum are recomputed over the input before it is loaded. The
// checksum itself is tested exhaustively by the unit tests.
//
// `FuzzLoader --write-seeds DIR` writes valid saved automata of every kind as seeds.

import AutomatonCore
import FuzzSupport
import LiteralAutomata
import RegexAutomata
import Turnstile

let haystacks: [[UInt8]] = [[], Array(0...255), Array((0...255).reversed()), Array("abcab\nab ba_a".utf8)]

func exercise(_ dfa: DenseDFA) {
    for h in haystacks {
        h.withUnsafeBufferPointer { buffer in
            for anchored in [false, true] {
                for earliest in [false, true] {
                    _ = dfa.searchForward(buffer, in: 0..<buffer.count, anchored: anchored, earliest: earliest)
                    _ = dfa.searchReverse(buffer, in: 0..<buffer.count, anchored: anchored, earliest: earliest)
                    if buffer.count > 2 {
                        _ = dfa.searchForward(buffer, in: 1..<buffer.count - 1, anchored: anchored, earliest: earliest)
                        _ = dfa.searchReverse(buffer, in: 1..<buffer.count - 1, anchored: anchored, earliest: earliest)
                    }
                }
            }
            for context in StartContext.allCases {
                for anchored in [false, true] {
                    var s = dfa.startState(context, anchored: anchored)
                    for b in buffer { s = dfa.next(s, b); _ = dfa.patterns(of: s) }
                    s = dfa.nextEOI(s)
                    _ = dfa.patterns(of: s)
                    if dfa.isMatchState(s) { _ = dfa.firstPattern(of: s) }
                }
            }
        }
        _ = dfa.matchEnds(in: h)
        _ = dfa.isMatch(in: h)
    }
    _ = dfa.dot()
}

/// `file` with its container's length and checksum recomputed (unchanged when it is
/// shorter than a container's header).
func resealed(_ file: [UInt8]) -> [UInt8] {
    guard file.count >= SavedContainer.headerSize else { return file }
    let version = (0..<4).reduce(UInt32(0)) { $0 | UInt32(file[8 + $1]) << (8 * $1) }
    return SavedContainer.seal(Array(file[SavedContainer.headerSize...]), magic: Array(file[0..<8]), version: version)
}

func roundTrip<T>(_ name: String, _ original: [UInt8], _ saved: [UInt8], _ load: ([UInt8]) throws -> T) {
    do { _ = try load(saved) } catch {
        fuzzFailure("\(name): a loaded automaton saved again does not load: \(error)\ninput: \(showBytes(original))")
    }
}

func seeds() -> [[UInt8]] {
    var out: [[UInt8]] = []
    do {
        for pattern in ["a", "(?m)^ab|c$", "\\bfoo\\b", "[a-c]+x?", "a|b|ab*", "é+|日"] {
            let regex = try RegexCompiler().compile(pattern)
            for dfa in [regex.forwardDFA, regex.reverseDFA].compactMap({ $0 }) { out.append([0] + dfa.serialized()) }
        }
        for kind in MatchKind.allCases {
            for representation in LiteralRepresentation.allCases {
                let ac = try AhoCorasick.Builder().matchKind(kind).representation(representation)
                    .wholeWord(kind == .leftmostLongest).build(["he", "she", "his", "hers", ""])
                out.append([1] + ac.serialized())
                if let dfa = ac.denseDFA { out.append([0] + dfa.serialized()) }
            }
            out.append([2] + (try KMP("abab", matchKind: kind)).serialized())
        }
        var options = Matcher.Options()
        options.syntax = .regex
        let rules = RuleSet(rules: [.init("fr[e3]e", weight: 2), .init("win+er")], options: options)
        out.append([3] + (try rules.serialized()))
    } catch {
        fuzzFailure("building the seeds failed: \(error)")
    }
    return out
}

runFuzzer(extraCommands: { args in
    guard args.count == 3, args[1] == "--write-seeds" else { return false }
    writeSeeds(seeds(), to: args[2])
    return true
}) { data in
    var input = FuzzInput(data)
    let which = input.byte() % 4
    let file = resealed(input.rest())
    switch which {
    case 0:
        guard let dfa = try? DenseDFA(deserializing: file) else { return }
        exercise(dfa)
        roundTrip("DenseDFA", file, dfa.serialized()) { try DenseDFA(deserializing: $0) }
        file.withUnsafeBytes { raw in _ = try? DenseDFA(deserializing: raw) }
    case 1:
        guard let ac = try? AhoCorasick(deserializing: file) else { return }
        // Open finding timeout-11ff0706 (RegressionLiteralLoaderOpenTests): a declared
        // length of a pattern no state reports sizes the search buffers. Skipped until
        // the engine sizes them by reportable patterns, so the run can find other bugs.
        if ac.maxPatternLength > 4 * ac.statistics.stateCount + 64 { return }
        for h in haystacks {
            let all = ac.matches(in: h)
            for m in all where m.start < 0 || m.end > h.count || m.start > m.end {
                fuzzFailure("loaded AhoCorasick: match \(m) outside the haystack\ninput: \(showBytes(file))")
            }
            if ac.isMatch(in: h) != !all.isEmpty { fuzzFailure("loaded AhoCorasick: isMatch disagrees with matches\ninput: \(showBytes(file))") }
            var stream = ac.streamSearcher()
            var streamed: [Match] = []
            for b in h { stream.feed([b]) { streamed.append($0) } }
            stream.finish { streamed.append($0) }
            // Not compared with `all`: a file can be structurally safe yet not be what
            // the builder would write (e.g. the empty pattern missing from one state's
            // match list), and then stream and batch searches may differ (see
            // Fuzz/README.md, "Known gaps"). Memory safety is what is checked here.
            for m in streamed where m.start < 0 || m.end > h.count || m.start > m.end {
                fuzzFailure("loaded AhoCorasick: stream match \(m) outside the haystack\ninput: \(showBytes(file))")
            }
        }
        if let dfa = ac.denseDFA { exercise(dfa) }
        roundTrip("AhoCorasick", file, ac.serialized()) { try AhoCorasick(deserializing: $0) }
    case 2:
        guard let kmp = try? KMP(deserializing: file) else { return }
        for h in haystacks { _ = kmp.matches(in: h); _ = kmp.isMatch(in: h) }
        exercise(kmp.denseDFA)
        roundTrip("KMP", file, kmp.serialized()) { try KMP(deserializing: $0) }
    default:
        guard let rules = try? RuleSet(deserializing: file), let matcher = try? rules.matcher() else { return }
        for h in haystacks { _ = matcher.matches(in: h) }
    }
}

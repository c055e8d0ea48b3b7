import Testing
import TestSupport
import RegexBuilder
import Turnstile

/// AhoCorasick and RegexAutomaton as Swift `Regex` components: `ranges(of:)`,
/// `firstMatch(of:)`, `replacing(_:with:)`, `split(separator:)` and a Regex builder give
/// what the same pattern as a Swift `Regex` gives, on seeded random text.
@Suite("Swift Regex interop: the automata as CustomConsumingRegexComponent")
struct SwiftRegexInteropTests {
    static func text(_ rng: inout SeededGenerator) -> String {
        let pieces = ["free", "prize", "win", "winner", " ", "fr", "x", "é", "prizes", "Free", "-", "wi"]
        return (0..<(200 + Int(rng.next() % 200))).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
    }

    /// Checks `component` against `reference` with each of Swift's algorithms on `text`.
    static func compare(_ component: some RegexComponent<Substring>, _ reference: Regex<Substring>, _ text: String,
                        _ label: String, _ failures: inout [String]) {
        if text.ranges(of: component) != text.ranges(of: reference) { failures.append("\(label) ranges(of:)") }
        if text.firstMatch(of: component)?.range != text.firstMatch(of: reference)?.range {
            failures.append("\(label) firstMatch(of:)")
        }
        if text.replacing(component, with: "#") != text.replacing(reference, with: "#") {
            failures.append("\(label) replacing")
        }
        if text.split(separator: component) != text.split(separator: reference) { failures.append("\(label) split") }
        if text.contains(component) != text.contains(reference) { failures.append("\(label) contains") }
        let tail = text.dropFirst(text.count / 2)
        if tail.ranges(of: component) != tail.ranges(of: reference) { failures.append("\(label) Substring ranges(of:)") }
    }

    @Test func automataAgreeWithSwiftRegex() throws {
        var rng = SeededGenerator(defaultSeed: 0x5E6E)
        print("SwiftRegexInteropTests seed \(rng.seed)")
        var failures: [String] = []
        let ac = try AhoCorasick(["free", "prize", "win"])
        let acRegex = try Regex("free|prize|win", as: Substring.self)
        let wholeWords = try AhoCorasick(["free", "prize", "winner"], wholeWord: true)
        let wholeWordsRegex = try Regex(#"\b(?:free|prize|winner)\b"#, as: Substring.self).asciiOnlyWordCharacters().wordBoundaryKind(.simple)
        let automaton = try RegexAutomaton("w[a-z]+|pr[a-z]*e")
        let automatonRegex = try Regex("w[a-z]+|pr[a-z]*e", as: Substring.self)
        for round in 0..<20 {
            let text = Self.text(&rng)
            let label = "seed \(rng.seed) round \(round)"
            Self.compare(ac, acRegex, text, "\(label) AhoCorasick", &failures)
            Self.compare(wholeWords, wholeWordsRegex, text, "\(label) AhoCorasick -w", &failures)
            Self.compare(automaton, automatonRegex, text, "\(label) RegexAutomaton", &failures)
            // The automata's own search agrees with the ranges Swift finds through them.
            if text.ranges(of: ac) != ac.matches(in: text).map({ $0.range(in: text) }) {
                failures.append("\(label) AhoCorasick ranges(of:) vs matches(in:)")
            }
            if text.ranges(of: wholeWords) != wholeWords.matches(in: text).map({ $0.range(in: text) }) {
                failures.append("\(label) AhoCorasick -w ranges(of:) vs matches(in:)")
            }
            if text.ranges(of: automaton) != automaton.matches(in: text).map({ $0.range(in: text) }) {
                failures.append("\(label) RegexAutomaton ranges(of:) vs matches(in:)")
            }
            // In a Regex builder, next to Swift's own components.
            let builder = Regex { "x"; ac }
            let builderReference = try Regex("x(?:free|prize|win)", as: Substring.self)
            if text.ranges(of: builder) != text.ranges(of: builderReference) {
                failures.append("\(label) Regex builder")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(5))")
    }
}

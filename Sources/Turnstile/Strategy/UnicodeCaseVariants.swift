// Unicode case variants of literal words, for the folded-literal-set strategy. The
// literal engines fold ASCII letters only; a word under `-i` with letters beyond ASCII
// (`école`, or `k` with its U+212A KELVIN SIGN under a regex's `i`) is spelled out
// in every combination of the scalars that simply case-fold with its letters, ASCII
// letters kept lower case (the automaton folds them). One Aho-Corasick automaton then
// searches every variant of every word, each variant reporting its word's id: the
// same matches as the regex `(?i)école|…` at the cost of a literal search, with no
// DFA to outgrow its limits (issue 45: 2,000 dictionary words under `-F -i`).

import AutomatonCore
import RegexAutomata

/// Every Unicode case variant of a list of words, with the word each variant spells.
struct UnicodeCaseVariants {
    /// The variants, word by word in the words' order (leftmost-first priority).
    let variants: [[UInt8]]
    /// Variant index → word index.
    let wordOf: [Int]

    /// The most variants one word may have: past it (a long word of Greek or Cyrillic
    /// letters) the regex automaton is the better search.
    static let maxVariantsPerWord = 256
    /// The most variants in all.
    static let maxVariants = 1 << 20

    /// Whether `word` needs more than ASCII folding under `i` (some scalar folds with
    /// one beyond ASCII); `false` for invalid UTF-8.
    static func needsUnicodeFolding(_ word: [UInt8], asciiOnlyWhenASCII: Bool) -> Bool {
        // PERF: the built-in list's 10,000 ASCII words are answered without a String.
        if asciiOnlyWhenASCII && !word.contains(where: { $0 >= 0x80 }) { return false }
        guard let s = String(validating: word, as: UTF8.self) else { return false }
        return s.unicodeScalars.contains { CaseFoldOrbit.members(of: $0.value).contains { $0 >= 0x80 } }
    }

    /// The variants of `words`, or nil when a word is not valid UTF-8 or the variants
    /// exceed the caps.
    init?(_ words: [[UInt8]]) {
        var variants: [[UInt8]] = []
        var wordOf: [Int] = []
        for (index, word) in words.enumerated() {
            guard let text = String(validating: word, as: UTF8.self) else { return nil }
            // Per scalar, its spellings: an ASCII letter once, lower case (the automaton
            // folds its case), plus the other scalars in its orbit — an ASCII one lower
            // case too (`ſ` is also `s`, as `s` is also `ſ`).
            var choices: [[[UInt8]]] = []
            var count = 1
            for scalar in text.unicodeScalars {
                let orbit = CaseFoldOrbit.members(of: scalar.value)
                var spellings: [[UInt8]] = []
                if scalar.isASCII {
                    let b = UInt8(scalar.value)
                    spellings.append([isASCIILetter(b) ? b | 0x20 : b])
                }
                for member in orbit {
                    if member < 0x80 {
                        let b = UInt8(member)
                        let lower = [isASCIILetter(b) ? b | 0x20 : b]
                        if !spellings.contains(lower) { spellings.append(lower) }
                        continue
                    }
                    guard let u = Unicode.Scalar(member) else { continue }
                    spellings.append(Array(String(Character(u)).utf8))
                }
                choices.append(spellings)
                count *= spellings.count
                if count > Self.maxVariantsPerWord { return nil }
            }
            var partial: [[UInt8]] = [[]]
            for spellings in choices {
                partial = partial.flatMap { prefix in spellings.map { prefix + $0 } }
            }
            variants.append(contentsOf: partial)
            wordOf.append(contentsOf: repeatElement(index, count: partial.count))
            if variants.count > Self.maxVariants { return nil }
        }
        self.variants = variants
        self.wordOf = wordOf
    }
}

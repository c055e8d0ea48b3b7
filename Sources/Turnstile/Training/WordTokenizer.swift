// Word tokenization for `turnstile train`.
//
// A word is a maximal run of Unicode word characters — letters, marks, numbers and
// connector punctuation, the characters of `\w` in Unicode regexes (UTS #18, Annex C)
// — case-folded (Unicode lowercase mapping). Everything else (spaces, punctuation,
// symbols such as `£`, invalid UTF-8) separates words, so "don't" is "don" and "t",
// as `-w` sees it.
//
// Known limit, by design: a trained list is matched by the literal engine as whole
// words with ASCII case folding (`filter -F -w -i`), whose word bytes are ASCII
// `[A-Za-z0-9_]`. Only words made entirely of ASCII characters are matched the same
// way, so `matchableWords` keeps only those: a word with any non-ASCII character
// ("café", "naïve", "ＷＩＮ") is dropped whole (its ASCII pieces are not counted
// either, although `-w` would match "caf" inside "café" because `é` is not an ASCII
// word byte; such pieces are rare in the SMS data). Requiring the word to be ASCII
// *before* folding also keeps out words like "\u{212A}ey" (KELVIN SIGN) whose
// lowercase is ASCII but which ASCII case folding would not match.

import AutomatonCore

/// Splits text into case-folded Unicode words.
///
/// ```swift
/// WordTokenizer.words(in: Array("WIN £100 now! Café".utf8))              // ["win", "100", "now", "café"]
/// WordTokenizer.matchableWords(in: Array("WIN £100 now! Café".utf8))     // ["100", "now", "win"] as bytes
/// ```
///
/// - Complexity: O(text bytes).
public enum WordTokenizer {
    /// Every word of `text` in order, case-folded (repeats kept).
    public static func words(in text: [UInt8]) -> [String] {
        var result: [String] = []
        forEachWord(in: text) { scalars, isASCII in
            if isASCII {
                result.append(String(decoding: scalars.map { asciiLowercased(UInt8(ascii: $0)) }, as: UTF8.self))
            } else {
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars)
                result.append(String(s).lowercased())
            }
        }
        return result
    }

    /// The distinct words of `text` that a `-F -w -i` rule matches exactly: the
    /// all-ASCII words, lowercased, as bytes, sorted (bytewise).
    public static func matchableWords(in text: [UInt8]) -> [[UInt8]] {
        var set = Set<[UInt8]>()
        forEachWord(in: text) { scalars, isASCII in
            if isASCII { set.insert(scalars.map { asciiLowercased(UInt8(ascii: $0)) }) }
        }
        return set.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The distinct pairs of ASCII words (`[A-Za-z0-9_]+`) separated by exactly one
    /// space, lowercased — "cash prize" — sorted: exactly where a `-F -w -i` rule with
    /// that phrase matches (`train --bigrams`).
    ///
    /// ```swift
    /// WordTokenizer.bigrams(in: Array("Claim your  FREE prize".utf8))   // ["claim your", "free prize"]
    /// ```
    public static func bigrams(in text: [UInt8]) -> [[UInt8]] {
        var result = Set<[UInt8]>()
        var previous: Range<Int>? = nil
        var i = 0
        let n = text.count
        while i < n {
            guard isASCIIWordByte(text[i]) else { i += 1; continue }
            let start = i
            while i < n, isASCIIWordByte(text[i]) { i += 1 }
            if let p = previous, p.upperBound + 1 == start, text[p.upperBound] == 0x20 {
                result.insert(asciiLowercased(text[p.lowerBound..<i]))
            }
            previous = start..<i
        }
        return result.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Whether a scalar is a word character (`\w` in Unicode regexes).
    public static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII { return isASCIIWordByte(UInt8(s.value)) }
        let p = s.properties
        if p.isAlphabetic || p.isJoinControl { return true }
        switch p.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark,
             .connectorPunctuation:
            return true
        default:
            return false
        }
    }

    /// Calls `body` with each word's scalars and whether they are all ASCII.
    static func forEachWord(in text: [UInt8], _ body: ([Unicode.Scalar], Bool) -> Void) {
        var word: [Unicode.Scalar] = []
        var ascii = true
        func flush() {
            if !word.isEmpty { body(word, ascii) }
            word.removeAll(keepingCapacity: true)
            ascii = true
        }
        var decoder = UTF8()
        var iterator = text.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s):
                if isWordScalar(s) {
                    word.append(s)
                    if !s.isASCII { ascii = false }
                } else {
                    flush()
                }
            case .emptyInput:
                break loop
            case .error:
                flush()
            }
        }
        flush()
    }
}

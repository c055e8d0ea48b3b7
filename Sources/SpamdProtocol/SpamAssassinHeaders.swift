import Turnstile

// The header fields spamd writes (SpamAssassin 4.0.1, checked by hand with
// `spamassassin -L`), so that recipes written for spamd sort our tagged mail as they
// sort SpamAssassin's (issue 54): procmail's `* ^X-Spam-Status: Yes` and
// `* ^X-Spam-Level: \*\*\*\*\*`, maildrop's `/^X-Spam-Flag: YES/`, Sieve's
// `header :contains "X-Spam-Level" "*****"`:
//   X-Spam-Flag: YES                                       (spam only)
//   X-Spam-Level: ******                                   (one star a point, at most 50)
//   X-Spam-Status: Yes, score=6.2 required=5.0 tests=A,B autolearn=no
//   	autolearn_force=no version=turnstile               (folded as SpamAssassin folds)
//   X-Spam-Turnstile: score=1.12 required=0.9             (the list's own numbers)
// SpamAssassin's scores are read against 5.0; a list's run against its own threshold
// (a learned list's 0–1 against 0.9). So the score written is the list's score scaled
// so that its threshold is 5.0 — a message is spam exactly when its stars reach five —
// and a clean message's never reaches 5.0, as spamd never shows a clean message at or
// above the threshold. The list's own numbers follow in X-Spam-Turnstile.

/// Which header fields PROCESS and HEADERS add.
public enum SpamdHeaderStyle: String, Sendable, Hashable, CaseIterable {
    /// spamd's: X-Spam-Flag, X-Spam-Level, X-Spam-Status on SpamAssassin's 5.0 scale,
    /// and X-Spam-Turnstile with the list's own score.
    case spamassassin
    /// `filter --tag`'s: X-Spam-Status with the list's score, and X-Spam-Flag.
    case turnstile
}

/// SpamAssassin's header set for one verdict.
///
/// ```swift
/// let fields = SpamAssassinHeaders(isSpam: true, score: 1.12, threshold: 0.9, tests: ["cheap"], ownScore: "1.12", ownRequired: "0.9")
/// fields.scaledScore                       // 6.22…: 1.12 against 0.9 is 6.2 against 5.0
/// String(decoding: fields.bytes(lineEnding: [0x0A]), as: UTF8.self)
/// // "X-Spam-Flag: YES\nX-Spam-Level: ******\nX-Spam-Status: Yes, score=6.2 required=5.0 tests=cheap …"
/// ```
public struct SpamAssassinHeaders: Sendable, Hashable {
    public var isSpam: Bool
    public var score: Double
    public var threshold: Double
    /// The rules that fired, as the tests list names them.
    public var tests: [String]
    /// The list's score and threshold as `filter` prints them.
    public var ownScore: String
    public var ownRequired: String
    public var prefix = "X-Spam"

    public init(isSpam: Bool, score: Double, threshold: Double, tests: [String], ownScore: String, ownRequired: String) {
        self.isSpam = isSpam
        self.score = score
        self.threshold = threshold
        self.tests = tests
        self.ownScore = ownScore
        self.ownRequired = ownRequired
    }

    /// SpamAssassin's required score.
    public static let required = 5.0

    /// The score on SpamAssassin's scale: the list's threshold becomes 5.0. A spam
    /// verdict is never shown below 5.0 nor a clean one at or above it (rounding to one
    /// decimal included).
    public var scaledScore: Double { Self.scaled(score, threshold: threshold, isSpam: isSpam) }

    /// `score` against `threshold` on SpamAssassin's scale (``scaledScore``): what
    /// X-Spam-Status, `spamc -c`'s `Spam:` line and the log all show.
    public static func scaled(_ score: Double, threshold: Double, isSpam: Bool) -> Double {
        var scaled = score * scale(threshold: threshold)
        if !scaled.isFinite { scaled = scaled < 0 ? -1000 : 1000 }
        if isSpam { return max(scaled, required) }
        return min(scaled, required - 0.1)
    }

    /// What a list's points are multiplied by to read against 5.0 (1 for a threshold
    /// that cannot be scaled: zero, negative or not finite).
    public static func scale(threshold: Double) -> Double {
        threshold > 0 && threshold.isFinite ? required / threshold : 1
    }

    /// `*` for each whole point of ``scaledScore``, at most 50 (SpamAssassin's cap).
    public var stars: Int { max(0, min(50, Int(scaledScore.rounded(.down)))) }

    /// The fields, each ended by `lineEnding`.
    public func bytes(lineEnding: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        if isSpam { out += Array("\(prefix)-Flag: YES".utf8) + lineEnding }
        out += Array("\(prefix)-Level: \(String(repeating: "*", count: stars))".utf8) + lineEnding
        // Sorted, as SpamAssassin's _TESTS_ (perl's sort: byte order).
        let names = tests.isEmpty ? ["none"] : tests.map { String(decoding: SpamStatusHeaders.testName($0), as: UTF8.self) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var pieces = ["\(isSpam ? "Yes" : "No"),", "score=\(cFormat("%.1f", scaledScore))", "required=\(cFormat("%.1f", Self.required))"]
        pieces.append("tests=" + names.joined(separator: ","))
        pieces += ["autolearn=no", "autolearn_force=no", "version=turnstile"]
        out += Self.folded("\(prefix)-Status:", pieces, lineEnding: lineEnding)
        out += Array("\(prefix)-Turnstile: score=\(ownScore) required=\(ownRequired)".utf8) + lineEnding
        return out
    }

    /// `name` and `pieces` (separated by spaces; a tests list may break after a comma)
    /// on lines of at most 78 columns (a TAB counting 8), continuation lines starting
    /// with a TAB, as SpamAssassin folds X-Spam-Status.
    static func folded(_ name: String, _ pieces: [String], lineEnding: [UInt8]) -> [UInt8] {
        // Break points: after each space-separated piece, and after each comma in one.
        var tokens: [(text: String, spaceBefore: Bool)] = []
        for piece in pieces {
            let parts = piece.split(separator: ",", omittingEmptySubsequences: false)
            for (k, part) in parts.enumerated() {
                let text = String(part) + (k < parts.count - 1 ? "," : "")
                if text.isEmpty { continue }
                tokens.append((text, k == 0))
            }
        }
        var out = Array(name.utf8)
        var column = name.utf8.count
        for token in tokens {
            let width = token.text.utf8.count + (token.spaceBefore ? 1 : 0)
            if column + width > 78, column > 8 {
                out += lineEnding
                out.append(0x09)
                column = 8
                out += Array(token.text.utf8)
                column += token.text.utf8.count
            } else {
                if token.spaceBefore { out.append(0x20) }
                out += Array(token.text.utf8)
                column += width
            }
        }
        return out + lineEnding
    }
}

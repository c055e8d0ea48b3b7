import AutomatonCore

// Where a learned list starts from (issue 52): the built-in mail list's trained
// log-odds, moved by what was learned. Without it, a database taught 3 spam and 3 ham
// derives its whole list from 6 messages and throws the built-in list's evidence away
// (measured: 8 of 15 spam caught before learning, 0 after 3 + 3 lessons).
//
// Each token's prior probability f₀ = 1 / (1 + e^−w₀) (w₀ its built-in weight, 0 for a
// token the list does not have) is Robinson's assumed probability x, given the strength
// of k messages ("A Statistical Approach to the Spam Problem", Linux Journal 107, 2003):
//
//     p(w) = (s / S) / (s / S + h / H)          the learned evidence, base rates removed
//     n    = (s + h) · m / (m + c)               m = min(S, H): few lessons count less
//     k'   = k · M / (M + m)                     the prior fades as the user's mail grows
//     f(w) = (k' · f₀ + n · p(w)) / (k' + n)
//     weight = ln(f / (1 − f))
//
// So a token seen in no learned message keeps its built-in weight exactly, one seen in
// a few moves a little, and one seen in many is what the learned mail says. Robinson
// writes x = 0.5 for every token; bogofilter's robx is a constant too; here x is the
// built-in list's trained value.
//
// The built-in list was trained on thousands of messages, so at first it outweighs a
// few lessons (k = 30 at m = 0); as the user's own mail grows it fades (k' = 1.4 at
// m = 2,000), so a large database says what the user's mail says. A token the list
// lacks is not unknown: most such tokens ("and", "for", "our") were seen there and
// found neutral, so their share counts only with c = 1,000 instead of 300. Measured
// (issue 52, four samples of 30 Phishing Pot + 30 present-day ham lessons): with
// k = 3 fixed and c = 100 for every token, 30 + 30 lessons caught 203–398 of 500
// held-back phishing messages where the built-in list caught 309, because 30 ham read
// "and" and "for" as ham evidence; now 309–310, with no more ham flagged.

/// The prior evidence a learned list starts from.
///
/// ```swift
/// let prior = LearningPrior(rules: [Rule("invoice", weight: 1.4)], strength: 3)
/// prior.weight(of: Array("invoice".utf8), spam: 0, ham: 0, spamRecords: 50, hamRecords: 50)   // 1.4: nothing learned
/// prior.weight(of: Array("invoice".utf8), spam: 0, ham: 30, spamRecords: 50, hamRecords: 50)  // < 0: the user's ham says otherwise
/// ```
public struct LearningPrior: Sendable, Hashable {
    /// Each token's prior log-odds (lowercase ASCII).
    public var weights: [[UInt8]: Double]
    /// How many learned messages the prior is worth (Robinson's s) before any is
    /// learned, > 0; it fades as the smaller class grows (``fadeMessages``).
    public var strength: Double

    /// The prior of `rules`' weights (patterns lowercased), worth `strength` messages.
    public init(rules: [Rule], strength: Double) {
        var weights: [[UInt8]: Double] = [:]
        for rule in rules { weights[asciiLowercased(rule.pattern)] = rule.weight }
        self.weights = weights
        self.strength = strength
    }

    /// The built-in mail list's trained tokens (``DefaultMailList/rules`` without the
    /// hand-written ``DefaultMailList/builtinRules``, which a learned list keeps
    /// whole), worth ``defaultStrength`` messages.
    public static let builtinMail: LearningPrior = {
        let handWritten = Set(DefaultMailList.builtinRules.map { asciiLowercased($0.pattern) })
        let trained = DefaultMailList.rules.filter { !handWritten.contains(asciiLowercased($0.pattern)) }
        return LearningPrior(rules: trained, strength: defaultStrength)
    }()

    /// The strength of the built-in prior, in messages (chosen with `make mail-quality`:
    /// README, "Learning").
    public static let defaultStrength = 30.0

    /// The learned weight of `token` (lowercase) seen in `s` of the `spamRecords` spam
    /// and `h` of the `hamRecords` ham learned (both > 0).
    public func weight(of token: [UInt8], spam s: Int, ham h: Int, spamRecords: Int, hamRecords: Int) -> Double {
        let known = weights[token]
        let w0 = known ?? 0
        guard s + h > 0 else { return w0 }
        let f0 = 1 / (1 + exponential(-w0))
        let rs = Double(s) / Double(spamRecords), rh = Double(h) / Double(hamRecords)
        let pw = rs / (rs + rh)
        // A share measured on few messages is trusted in proportion: the token's n
        // messages count as n · m / (m + c), m the smaller class, c = confidenceMessages
        // (unknownConfidenceMessages for a token the prior lacks).
        let m = Double(min(spamRecords, hamRecords))
        let c = known == nil ? Self.unknownConfidenceMessages : Self.confidenceMessages
        let n = Double(s + h) * m / (m + c)
        let k = strength * Self.fadeMessages / (Self.fadeMessages + m)
        let f = (k * f0 + n * pw) / (k + n)
        let clamped = min(max(f, 1 - ScoreModel.maximumProbability), ScoreModel.maximumProbability)
        return naturalLog(clamped / (1 - clamped))
    }

    /// How much of `token`'s learned weight (``weight(of:spam:ham:spamRecords:hamRecords:)``)
    /// comes from the learned messages rather than the prior: n / (k' + n), 0 for a
    /// token no learned message contains, towards 1 as the user's mail outweighs the prior.
    public func learnedShare(of token: [UInt8], spam s: Int, ham h: Int, spamRecords: Int, hamRecords: Int) -> Double {
        guard s + h > 0 else { return 0 }
        let m = Double(min(spamRecords, hamRecords))
        let c = weights[token] == nil ? Self.unknownConfidenceMessages : Self.confidenceMessages
        let n = Double(s + h) * m / (m + c)
        let k = strength * Self.fadeMessages / (Self.fadeMessages + m)
        return n / (k + n)
    }

    /// Learned messages per class at which a measured share of a token the prior has
    /// counts half (above). Without the discount a database taught 3 spam and 3 ham
    /// read a word in 2 of its 3 ham as strong evidence and caught 147 of 500
    /// held-back phishing messages where the built-in list caught 309 (issue 52).
    public static let confidenceMessages = 300.0

    /// The same for a token the prior lacks: mostly words the built-in list's corpus
    /// found neutral, so a few lessons must not make them evidence.
    public static let unknownConfidenceMessages = 1000.0

    /// Learned messages per class at which the prior counts half its ``strength``.
    public static let fadeMessages = 100.0
}

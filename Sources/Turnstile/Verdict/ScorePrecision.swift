// How exact a score is, and how it is written. A score is a sum of weights, and a
// sum of decimal weights in binary floating point carries noise below the weights'
// last decimal: 0.7 + 0.1 is 0.7999999999999999, which would print as such and, worse,
// judge a record clean at threshold 0.8. A rule list states its weights (and its
// threshold) with so many decimals; scores are compared and printed at that precision
// and no finer, so "score 0.8, threshold 0.8" always means spam.
//
// Every place that prints a score or a weight — `filter --json` and `--explain`,
// `eval`, `train`'s report, the mail JSON — goes through ``ScorePrecision/text(_:)``,
// which also keeps the output valid JSON: no `inf`, no `nan`.

/// The number of decimals a rule list's weights and threshold carry, and the one
/// formatting of scores.
///
/// ```swift
/// let p = ScorePrecision(weights: [0.7, 0.1], threshold: 0.8)
/// p.decimals                          // 1
/// p.text(0.7 + 0.1)                   // "0.8" (the sum is 0.7999999999999999)
/// p.reaches(0.7 + 0.1, 0.8)           // true: compared at one decimal
/// ScorePrecision.exact.text(2)        // "2"
/// ScorePrecision.exact.text(.infinity) // "1.7976931348623157e+308"
/// ```
///
/// - Complexity: building is O(weights); each comparison is one subtraction and one
///   comparison; ``text(_:)`` is O(1).
public struct ScorePrecision: Sendable, Hashable {
    /// The most decimals any weight or the threshold needs to be written exactly
    /// (0...``maximumDecimals``), or nil when one needs more: then scores are compared
    /// and printed as computed.
    public let decimals: Int?
    /// Half a unit of the last decimal (0 when ``decimals`` is nil): a score within
    /// this below the threshold is the threshold plus floating-point noise.
    @usableFromInline let slack: Double

    /// Weights with more decimals than this are taken as computed (no rounding).
    public static let maximumDecimals = 12

    /// No rounding: numbers printed in shortest round-trip form.
    public static let exact = ScorePrecision(decimals: nil)

    /// A precision of `decimals` decimals (nil: none).
    public init(decimals: Int?) {
        let d = decimals.map { min(max($0, 0), Self.maximumDecimals) }
        self.decimals = d
        self.slack = d.map { 0.5 / Self.powerOfTen($0) } ?? 0
    }

    /// The precision of a list: the most decimals among `weights` and `threshold`.
    public init(weights: some Sequence<Double>, threshold: Double?) {
        var most = threshold.flatMap(Self.decimals(of:)) ?? 0
        var exact = threshold.map { Self.decimals(of: $0) == nil } ?? false
        if !exact {
            for w in weights {
                guard let d = Self.decimals(of: w) else { exact = true; break }
                most = max(most, d)
            }
        }
        self.init(decimals: exact ? nil : most)
    }

    /// The precision of a list under `model`: a sum is compared at the decimals of its
    /// weights (``init(weights:threshold:)``); a chi-square score is no sum of them, so
    /// it is compared and printed at ``chiSquareDecimals``.
    public init(model: ScoreModel, weights: some Sequence<Double>, threshold: Double?) {
        if model == .chiSquare {
            self.init(decimals: Self.chiSquareDecimals)
        } else {
            self.init(weights: weights, threshold: threshold)
        }
    }

    /// The decimals a chi-square score is compared and printed at.
    public static let chiSquareDecimals = 4

    /// The fewest decimals (at most ``maximumDecimals``) that write `x` exactly (its
    /// shortest decimal form has no more), or nil when it needs more or is not finite.
    public static func decimals(of x: Double) -> Int? {
        guard x.isFinite else { return nil }
        for d in 0...maximumDecimals {
            let scale = powerOfTen(d)
            let scaled = x * scale
            // Past 2^53 every double is an integer: rounding cannot change it.
            if abs(scaled) >= 9_007_199_254_740_992 { return d }
            // n / 10^d, both exact, rounds to the double nearest the decimal n·10^-d,
            // which is `x` exactly when `x`'s shortest form has at most d decimals.
            if scaled.rounded(.toNearestOrAwayFromZero) / scale == x { return d }
        }
        return nil
    }

    /// `x` rounded to ``decimals`` (unchanged when nil, not finite, or too large for
    /// the decimals to matter); never -0.
    public func rounded(_ x: Double) -> Double {
        guard let decimals, x.isFinite else { return x }
        let scale = Self.powerOfTen(decimals)
        let scaled = x * scale
        guard abs(scaled) < 9_007_199_254_740_992 else { return x }
        let r = scaled.rounded(.toNearestOrAwayFromZero) / scale
        return r == 0 ? 0 : r
    }

    /// `true` when `score` reaches `threshold` at this precision: the decision rule,
    /// `score >= threshold` for scores rounded to ``decimals``.
    @inlinable
    public func reaches(_ score: Double, _ threshold: Double) -> Bool { score >= threshold - slack }

    /// The threshold a raw score is compared with (``reaches(_:_:)`` with the
    /// subtraction done once).
    @inlinable
    public func decisionThreshold(for threshold: Double) -> Double { threshold - slack }

    /// `x` as written everywhere a score, weight or threshold is printed: rounded to
    /// ``decimals``, then in the shortest form that reads back exactly, integers without
    /// a fraction ("2", "0.8", "-1.25", "1e-05", "1e+16"). Valid JSON for every input: a
    /// score beyond the range of doubles (a sum of huge weights) is clamped to
    /// ±1.7976931348623157e+308, and NaN — which a sum of finite weights cannot be —
    /// is written `null`.
    public func text(_ x: Double) -> String {
        if x.isNaN { return "null" }
        let value = x.isInfinite ? (x < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude) : rounded(x)
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `x` in shortest round-trip form (``exact``'s ``text(_:)``).
    public static func text(_ x: Double) -> String { exact.text(x) }

    @usableFromInline static func powerOfTen(_ d: Int) -> Double {
        var p = 1.0
        for _ in 0..<d { p *= 10 }
        return p
    }
}

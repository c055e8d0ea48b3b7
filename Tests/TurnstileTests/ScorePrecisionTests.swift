import Testing
import TestSupport
@testable import Turnstile

@Suite("ScorePrecision: scores compared and printed at the decimals the weights carry")
struct ScorePrecisionTests {
    @Test("the decimals of a weight are those of its shortest decimal form (nil past the maximum)",
          arguments: [(0.0, 0), (2, 0), (-3, 0), (0.5, 1), (4.3716, 4), (-0.04865, 5), (1e-5, 5), (1e20, 0),
                      (123456.789, 3), (0.1 + 0.2, nil), (Double.leastNonzeroMagnitude, nil), (.infinity, nil)] as [(Double, Int?)])
    func decimalsOfWeights(weight: Double, decimals: Int?) {
        #expect(ScorePrecision.decimals(of: weight) == decimals, "\(weight)")
    }

    @Test("a list's precision is the most decimals among its weights and threshold")
    func listPrecision() {
        #expect(ScorePrecision(weights: [1, 0.5, 2.25], threshold: 1).decimals == 2)
        #expect(ScorePrecision(weights: [1, 2], threshold: 1.52230).decimals == 4)
        #expect(ScorePrecision(weights: [1, 2], threshold: nil).decimals == 0)
        #expect(ScorePrecision(weights: [1, 0.1 + 0.2], threshold: 1).decimals == nil)
        #expect(ScorePrecision(weights: DefaultSpamList.rules.map(\.weight), threshold: DefaultSpamList.threshold).decimals == 4)
    }

    @Test("text: rounded, then shortest round-trip; integers bare; never -0, inf or nan")
    func text() {
        let p = ScorePrecision(decimals: 4)
        #expect(p.text(0.6007000000000001) == "0.6007")
        #expect(p.text(16.210600000000003) == "16.2106")
        #expect(p.text(2) == "2" && p.text(-2) == "-2" && p.text(2.5) == "2.5")
        #expect(p.text(-0.00001) == "0")
        #expect(p.text(1e16) == "1e+16")
        #expect(p.text(.infinity) == "1.7976931348623157e+308")
        #expect(p.text(-.infinity) == "-1.7976931348623157e+308")
        #expect(p.text(.nan) == "null")
        #expect(ScorePrecision.text(0.1 + 0.2) == "0.30000000000000004", "exact: no rounding")
        #expect(ScorePrecision(decimals: 5).text(1.5223) == "1.5223")
        // Every value printed reads back as the rounded value.
        var rng = SeededGenerator(defaultSeed: 0x5C0E)
        for _ in 0..<1000 {
            let x = Double.random(in: -1000...1000, using: &rng)
            let d = Int.random(in: 0...6, using: &rng)
            let q = ScorePrecision(decimals: d)
            #expect(Double(q.text(x)) == q.rounded(x), "seed 0x5C0E: \(x) at \(d) decimals")
            #expect(abs(q.rounded(x) - x) <= 0.5 / ScorePrecision.powerOfTen(d) * (1 + 1e-9), "\(x) at \(d)")
        }
    }

    @Test("the verdict: sums that are the threshold up to float noise reach it")
    func verdict() throws {
        let rules = [Rule("x", weight: 0.7), Rule("y", weight: 0.1), Rule("z", weight: 0.0001)]
        let filter = try SpamFilter(rules: rules, options: SpamFilter.standardOptions, threshold: 0.8)
        #expect(0.7 + 0.1 < 0.8, "the binary sum falls short")
        let verdict = filter.verdict(for: "x y")
        #expect(verdict.isSpam)
        #expect(filter.precision.text(verdict.score) == "0.8")
        // One unit of the last decimal below the threshold stays clean.
        let below = try SpamFilter(rules: rules, options: SpamFilter.standardOptions, threshold: 0.8001)
        #expect(!below.verdict(for: "x y").isSpam)
        #expect(below.verdict(for: "x y z").isSpam)
        // Weights with more decimals than the precision can hold: compared as computed.
        let fine = try SpamFilter(rules: [Rule("a", weight: 0.1 + 0.2)], options: SpamFilter.standardOptions,
                                  threshold: 0.30000000000000004)
        #expect(fine.precision.decimals == nil)
        #expect(fine.verdict(for: "a").isSpam)
        #expect(!(try SpamFilter(rules: [Rule("a", weight: 0.3)], options: SpamFilter.standardOptions,
                                 threshold: 0.30000000000000004)).verdict(for: "a").isSpam)
    }
}

import Testing
@testable import Turnstile

@Suite("SpamFilter, RuleFile and RuleSet")
struct SpamFilterTests {
    static var literalWords: Matcher.Options {
        var o = Matcher.Options()
        o.syntax = .literal
        o.caseInsensitive = true
        o.wholeWord = true
        return o
    }

    @Test("each rule counts once per record; the threshold is inclusive")
    func scoring() throws {
        let rules = [SpamFilter.Rule("cash", weight: 0.5), SpamFilter.Rule("cash prize", weight: 0.25),
                     SpamFilter.Rule("free", weight: 2)]
        let filter = try SpamFilter(rules: rules, options: Self.literalWords, threshold: 0.75)
        let v = filter.verdict(for: "cash cash CASH prize")
        #expect(v.score == 0.75)
        #expect(v.isSpam)
        #expect(v.matches.count == 4, "overlapping: every occurrence is reported")
        #expect(!filter.verdict(for: "cash only").isSpam)
        #expect(filter.verdict(for: "free").score == 2)
    }

    @Test("regex rules: a rule hidden by another rule's leftmost-first match still counts")
    func regexRulesCountOnce() throws {
        let rules = [SpamFilter.Rule("abc", weight: 1), SpamFilter.Rule("b", weight: 0.5)]
        let filter = try SpamFilter(rules: rules, options: .init(), threshold: 1.5)
        #expect(filter.needsCompletion)
        let v = filter.verdict(for: "xabcx")
        #expect(v.score == 1.5)
        #expect(v.isSpam)
        #expect(Set(v.matches.map(\.pattern)) == [0, 1])
        #expect(filter.verdict(for: "zzz").matches.isEmpty)
    }

    @Test("the judge counts each rule once per record and resets per record")
    func judgeCountsDistinctRules() throws {
        let filter = try SpamFilter(
            rules: [SpamFilter.Rule("a", weight: 1), SpamFilter.Rule("b", weight: 0.5)], options: Self.literalWords,
            threshold: 1.5)
        var judge = RecordJudge(filter)
        judge.beginRecord()
        judge.add(Match(pattern: 0, start: 4, end: 5))
        judge.add(Match(pattern: 0, start: 0, end: 1))
        #expect(judge.score == 1)
        #expect(!judge.isSpam)
        judge.add(Match(pattern: 1, start: 2, end: 3))
        #expect(judge.score == 1.5)
        #expect(judge.isSpam && judge.isSettledSpam)
        #expect(Array(judge.hits) == [RuleHit(rule: 0, weight: 1, start: 4, end: 5), RuleHit(rule: 1, weight: 0.5, start: 2, end: 3)])
        judge.beginRecord()
        #expect(judge.score == 0 && judge.hits.isEmpty && !judge.isSpam)
    }

    @Test("a judge that records no hits still scores and decides the same")
    func judgeWithoutHits() throws {
        let filter = try SpamFilter(rules: [SpamFilter.Rule("a", weight: 1)], options: Self.literalWords)
        var judge = RecordJudge(filter, recordingHits: false)
        judge.beginRecord()
        judge.add(Match(pattern: 0, start: 0, end: 1))
        #expect(judge.score == 1 && judge.isSpam && judge.hits.isEmpty)
    }

    @Test("a negative weight means a spam score is not settled")
    func negativeWeightsAreNotSettled() throws {
        let filter = try SpamFilter(
            rules: [SpamFilter.Rule("a", weight: 2), SpamFilter.Rule("b", weight: -1)], options: Self.literalWords)
        var judge = RecordJudge(filter)
        judge.beginRecord()
        judge.add(Match(pattern: 0, start: 0, end: 1))
        #expect(judge.isSpam && !judge.isSettledSpam)
        #expect(!judge.scoreOnlyGrows)
    }

    @Test("the verdict lists each rule's first match")
    func verdictHits() throws {
        let filter = try SpamFilter(rules: [SpamFilter.Rule("cash", weight: 1), SpamFilter.Rule("prize", weight: 2)],
                                    options: Self.literalWords, threshold: 3)
        let v = filter.verdict(for: "prize cash, more cash")
        #expect(v.isSpam && v.score == 3)
        #expect(v.hits == [RuleHit(rule: 1, weight: 2, start: 0, end: 5), RuleHit(rule: 0, weight: 1, start: 6, end: 10)])
    }

    @Test("rule files: comments, blank lines, CRLF, optional weights")
    func ruleFile() throws {
        let text = "# comment\n\nwinner\t2\r\nfree entry\n  \ncall now\t 0.5 \n"
        let rules = try RuleFile.parse(Array(text.utf8), source: "r.tsv")
        #expect(rules == [SpamFilter.Rule("winner", weight: 2), SpamFilter.Rule("free entry", weight: 1),
                          SpamFilter.Rule("call now", weight: 0.5)])
    }

    @Test("a bad weight names the file and line")
    func badWeight() {
        #expect {
            _ = try RuleFile.parse(Array("ok\nspam\tlots\n".utf8), source: "r.tsv")
        } throws: { error in
            (error as? TurnstileError)?.description == "r.tsv, line 2: the weight \"lots\" is not a number"
        }
    }

    @Test("a rule set survives saving and loading")
    func roundTrip() throws {
        for set in [RuleSet.standard,
                    RuleSet(rules: [SpamFilter.Rule("a+b", weight: 3)], options: .init()),
                    RuleSet(rules: [SpamFilter.Rule("x", weight: 0.5)], options: Self.literalWords)] {
            let bytes = try set.serialized()
            let again = try RuleSet(deserializing: bytes)
            #expect(again == set)
        }
    }

    @Test("a truncated, corrupt or foreign file is a typed error")
    func corruptFiles() throws {
        let bytes = try RuleSet.standard.serialized()
        for bad in [Array(bytes.prefix(100)), Array("hello".utf8), bytes + [0], []] {
            #expect(throws: TurnstileError.self) { _ = try RuleSet(deserializing: bad) }
        }
        var flipped = bytes
        flipped[flipped.count - 5] ^= 0xFF
        #expect(throws: TurnstileError.self) { _ = try RuleSet(deserializing: flipped) }
    }
}

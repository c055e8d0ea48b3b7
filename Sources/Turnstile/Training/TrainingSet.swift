// Labelled records prepared once for training (and for every fold of a
// cross-validation): each record's distinct matchable words and the included
// phrases found in it.

import AutomatonCore

/// Labelled records with their words (``WordTokenizer/matchableWords(in:)``) and
/// the included (curated) phrases they contain, ready for ``SpamTrainer``.
///
/// Phrases are found with the filter's own matcher (literal, whole words, ASCII
/// case-insensitive), so a phrase counts in training exactly where `filter` would
/// match it.
///
/// ```swift
/// let set = try TrainingSet(records: [LabelledRecord(isSpam: true, "Free entry now")],
///                           phrases: [Array("free entry".utf8)])
/// set.vocabulary.count   // 3: "entry", "free", "now"
/// ```
///
/// - Complexity: O(total bytes + matches) to build.
public struct TrainingSet: Sendable {
    public let records: [LabelledRecord]
    /// The records decoded as e-mail (same indices) when they are mail; nil for text.
    /// Mail is tokenized and judged on its decoded parts (``MailTokens``, ``MailJudge``).
    public let messages: [MailMessage]?
    /// Every matchable word of the records, lowercased, sorted bytewise; a word's
    /// id is its index.
    public let vocabulary: [[UInt8]]
    /// Per record: the ids of its distinct words, ascending.
    let recordWords: [[Int32]]
    /// The included phrases, in the order given, duplicates (ignoring ASCII case)
    /// removed; a phrase's id is its index.
    public let phrases: [[UInt8]]
    /// Per record: the ids of the distinct phrases found in it.
    let recordPhrases: [[Int32]]
    /// Per word id: the word is also an included phrase (it is scored as one).
    let wordIsPhrase: [Bool]

    /// Prepares `records`; `phrases` are patterns to score and include whatever
    /// their rank (a curated list).
    ///
    /// - Throws: ``TurnstileError`` when a phrase cannot be matched as a whole word
    ///   (it must start and end with an ASCII word character).
    ///
    /// With a mail `format` each record is one message: it is decoded, its tokens are
    /// ``MailTokens/tokens(of:)`` (body words and scoped subject, from, header and URI
    /// words), and phrases are looked for in its body text.
    ///
    /// `bigrams`: also count each pair of words separated by exactly one space
    /// (``WordTokenizer/bigrams(in:)``), a phrase a `-F -w -i` rule matches exactly there.
    public init(
        records: [LabelledRecord], phrases: [[UInt8]] = [], format: RecordFormat = .lines, bigrams: Bool = false
    ) throws(TurnstileError) {
        self.records = records
        let messages = format.isMail
            ? records.map { format.message(of: $0.text) } : nil
        self.messages = messages
        var ids: [[UInt8]: Int] = [:]
        var perRecord: [[[UInt8]]] = []
        perRecord.reserveCapacity(records.count)
        for (k, r) in records.enumerated() {
            var words = messages.map { MailTokens.tokens(of: $0[k]) } ?? WordTokenizer.matchableWords(in: r.text)
            if bigrams { words += Set(WordTokenizer.bigrams(in: messages?[k].body ?? r.text)) }
            for w in words where ids[w] == nil { ids[w] = 0 }
            perRecord.append(words)
        }
        let vocabulary = ids.keys.sorted { $0.lexicographicallyPrecedes($1) }
        for (i, w) in vocabulary.enumerated() { ids[w] = i }
        self.vocabulary = vocabulary
        self.recordWords = perRecord.map { words in words.map { Int32(ids[$0]!) }.sorted() }

        var seen = Set<[UInt8]>()
        var unique: [[UInt8]] = []
        for p in phrases {
            guard let first = p.first, let last = p.last, isASCIIWordByte(first), isASCIIWordByte(last) else {
                throw TurnstileError(.invalidOptions(
                    "the phrase \"\(String(decoding: p, as: UTF8.self))\" must start and end with a letter, digit or '_' to be matched as a whole word"))
            }
            if seen.insert(asciiLowercased(p)).inserted { unique.append(p) }
        }
        self.phrases = unique
        self.wordIsPhrase = vocabulary.map { seen.contains($0) }
        if unique.isEmpty {
            recordPhrases = Array(repeating: [], count: records.count)
        } else {
            let filter = try SpamFilter(rules: unique.map { SpamFilter.Rule(pattern: $0) },
                                        options: SpamFilter.standardOptions)
            recordPhrases = records.indices.map { k in
                let text = messages?[k].body ?? records[k].text
                return Array(Set(filter.matcher.matches(in: text).map { Int32($0.pattern) })).sorted()
            }
        }
    }

    /// Judges the records at `indices` with `rules` (matched `-F -w -i`, scope prefixes
    /// read for mail) at `threshold`: each one's score and decision, from the same
    /// judges `filter` uses (``RecordJudge``, ``MailJudge``).
    public func judge(rules: [Rule], threshold: Double, indices: [Int], model: ScoreModel = .sum) throws(TurnstileError)
        -> [(score: Double, isSpam: Bool)]
    {
        if let messages {
            var judge = try MailJudge(rules: RuleSet(rules: rules, options: SpamFilter.standardOptions, model: model),
                                      threshold: threshold)
            return indices.map { i in
                judge.judge(messages[i])
                return (judge.score, judge.isSpam)
            }
        }
        let filter = try SpamFilter(rules: rules, options: SpamFilter.standardOptions, threshold: threshold, model: model)
        var judge = RecordJudge(filter, recordingHits: false)
        return indices.map { i in
            records[i].text.withUnsafeBufferPointer { _ = judge.judge($0) }
            return (judge.score, judge.isSpam)
        }
    }
}

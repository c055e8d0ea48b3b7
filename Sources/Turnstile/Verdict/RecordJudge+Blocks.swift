// A block of records judged in one walk of the rules' automaton: `filter --count`
// (and `-c`) needs of each record only its verdict, and a verdict needs each rule once
// per record. The judge walks the word set's dense DFA itself
// (SearchStrategy+WordHits.swift), finds a record's end only when a hit lies past
// the last one, and counts the records in between as clean without looking at them,
// so a text dense with matches of common words costs the automaton's walk and a
// stamp per hit, not a sink call per match.
// PERF: Benchmarks/scripts/literal_throughput.py 'filter'; the before/after numbers
// are in the commit that added this file.

import AutomatonCore

extension RecordJudge {
    /// `true` when ``tallyRecords(in:delimiter:)`` can judge blocks of records split on
    /// `byte`: the rules are an overlapping word set none of whose matches can hold
    /// `byte`, and a record without a match is clean.
    public func canTallyRecords(delimiter byte: UInt8) -> Bool {
        // Asked once per block: O(1), not the matcher's O(patterns) answer (a pipe's
        // 64 KiB blocks spent 20 % of `filter --count` in its key-path walk).
        recordWithoutMatchesIsClean && words?.canSplit(on: byte) == true
    }

    /// Judges every record of `block` — complete records, each but perhaps the last
    /// followed by `byte` — and returns how many records there are and how many of
    /// them are spam: the verdicts ``judge(_:)`` gives each record on its own. Only
    /// when ``canTallyRecords(delimiter:)``; the judge's current record is left empty.
    ///
    /// ```swift
    /// var judge = RecordJudge(try SpamFilter.standard(), recordingHits: false)
    /// let text = Array("hello there\nURGENT! Claim your prize now\n".utf8)
    /// text.withUnsafeBufferPointer { judge.tallyRecords(in: $0, delimiter: 0x0A) }   // (records: 2, spam: 1)
    /// ```
    /// - Complexity: O(block bytes + occurrences), no allocation once warm.
    public mutating func tallyRecords(in block: UnsafeBufferPointer<UInt8>, delimiter byte: UInt8) -> (records: Int, spam: Int) {
        precondition(canTallyRecords(delimiter: byte), "tallyRecords needs an overlapping word set")
        let count = block.count
        guard count > 0, let words else { return (0, 0) }
        let records = RecordReader.count(byte, in: block) + (block[count - 1] == byte ? 0 : 1)
        let weights = weights, equalStart = equalStart, equalRules = equalRules
        // Room for every rule's weight once: a record's distinct rules never need more.
        if fired.count < weights.count { fired = [Double](repeating: 0, count: weights.count) }
        var spam = 0
        let stamp: Int = lastRecord.withUnsafeMutableBufferPointer { lastRecord in
            fired.withUnsafeMutableBufferPointer { fired in
                weights.withUnsafeBufferPointer { weights in
                    equalStart.withUnsafeBufferPointer { equalStart in
                        equalRules.withUnsafeBufferPointer { equalRules in
                            var tally = BlockTally(
                                block: block, delimiter: byte, stamp: record, lastRecord: lastRecord, weights: weights,
                                fired: fired, combines: combines, model: model, threshold: decisionThreshold,
                                equalStart: equalStart, equalRules: equalRules)
                            words.forEachHit(in: block, into: &tally)
                            tally.endRecord()
                            spam = tally.spam
                            return tally.stamp
                        }
                    }
                }
            }
        }
        record = stamp
        beginRecord()
        return (records, spam)
    }
}

/// The state of ``RecordJudge/tallyRecords(in:delimiter:)``'s walk: the current
/// record's score and where it ends, over the judge's tables.
private struct BlockTally: WordHitVisitor {
    let block: UnsafeBufferPointer<UInt8>
    let delimiter: UInt8
    /// The current record's stamp (``RecordJudge``'s `lastRecord` convention).
    var stamp: Int
    let lastRecord: UnsafeMutableBufferPointer<Int>
    let weights: UnsafeBufferPointer<Double>
    /// With the chi-square model: `fired[..<firedCount]`, the record's distinct weights.
    let fired: UnsafeMutableBufferPointer<Double>
    let combines: Bool
    let model: ScoreModel
    let threshold: Double
    let equalStart: UnsafeBufferPointer<Int>
    let equalRules: UnsafeBufferPointer<Int>
    var total = 0.0
    var firedCount = 0
    /// The delimiter that ends the current record (the block's end for a last record
    /// without one); -1 before the first hit.
    var recordEnd = -1
    var spam = 0

    init(block: UnsafeBufferPointer<UInt8>, delimiter: UInt8, stamp: Int, lastRecord: UnsafeMutableBufferPointer<Int>,
         weights: UnsafeBufferPointer<Double>, fired: UnsafeMutableBufferPointer<Double>, combines: Bool,
         model: ScoreModel, threshold: Double, equalStart: UnsafeBufferPointer<Int>, equalRules: UnsafeBufferPointer<Int>) {
        self.block = block
        self.delimiter = delimiter
        self.stamp = stamp
        self.lastRecord = lastRecord
        self.weights = weights
        self.fired = fired
        self.combines = combines
        self.model = model
        self.threshold = threshold
        self.equalStart = equalStart
        self.equalRules = equalRules
    }

    /// Counts the current record when it had a hit.
    @inline(__always)
    mutating func endRecord() {
        guard recordEnd >= 0 else { return }
        let score = combines ? model.score(weights: UnsafeBufferPointer(rebasing: fired[..<firedCount])) : total
        if score >= threshold { spam &+= 1 }
    }

    @inline(__always)
    mutating func hit(pattern rule: Int, start: Int, end: Int) -> Bool {
        if end > recordEnd {
            // No match holds the delimiter, so a hit ending past it is the next record's
            // (or a later one's: those between had no hit, so they are clean).
            endRecord()
            stamp &+= 1
            total = 0
            firedCount = 0
            recordEnd = RecordDelimiter.find(delimiter, in: block, from: end) ?? block.count
        }
        if equalStart.isEmpty {
            count(rule)
        } else {
            for k in equalStart[rule]..<equalStart[rule &+ 1] { count(equalRules[k]) }
        }
        return true
    }

    @inline(__always)
    private mutating func count(_ rule: Int) {
        guard lastRecord[rule] != stamp else { return }
        lastRecord[rule] = stamp
        let weight = weights[rule]
        total += weight
        if combines { fired[firedCount] = weight; firedCount &+= 1 }
    }
}

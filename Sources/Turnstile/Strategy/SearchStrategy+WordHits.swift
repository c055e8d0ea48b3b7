// The whole-word set's hits without the match-by-match layers: a spam judge needs each
// rule once per record, and a list of 2,000 common words (one-letter ones among them)
// matches nearly every word of a text, so `filter --count` spent its time handing
// ~200 K matches per MiB through five closures and a sink's witness table. Walking the
// Aho-Corasick DFA itself instead halved that (1.68 s -> 0.75 s for 64 MiB), and then
// 43 % of the walk was one load: the table (6,491 states x 64 classes x 4 bytes =
// 1.7 MB) does not fit in L2, and English text visits it all.
//
// Under grep's `-w` (both the engine's `\b` checks and the strategy's "no word
// character on either side") a literal matches only where its first byte starts a run
// of ASCII word bytes and its last byte ends one: a pattern that begins or ends with a
// non-word byte never matches, a pattern of word bytes only matches exactly where it
// *is* a whole run, and a phrase ("po box", "100% free") is a run followed by the
// phrase's other bytes exactly. So the text is cut into word runs, each run is looked
// up in a small hash table of the words (one probe, L1/L2-resident), and a run that
// begins a phrase has the phrase's bytes compared after it. Letters beyond ASCII next
// to a hit are checked as SearchStrategy.isWholeWord checks them (WordCharacters).
// The hits are ``SearchStrategy/forEachMatch(in:from:_:)``'s matches, as
// WordHitsTests checks on generated text against that search.
// PERF: Benchmarks/scripts/literal_throughput.py 'filter'.

import AutomatonCore
import CLiteralSIMD
import LiteralAutomata

/// What ``WholeWordSet/forEachHit(in:into:)`` hands each hit to.
protocol WordHitVisitor {
    /// A match of `pattern` at `start..<end`; returns false to stop.
    mutating func hit(pattern: Int, start: Int, end: Int) -> Bool
}

/// A literal set searched overlapping under grep's `-w`, as word runs and a hash
/// table of its words (``SearchStrategy/wholeWordSet``).
struct WholeWordSet: Sendable {
    /// ASCII letters match either case.
    let asciiCaseInsensitive: Bool
    /// The `-w` rule sees letters beyond ASCII (``SearchStrategy/checksWholeWords``
    /// with Unicode words).
    let unicode: Bool
    /// The patterns, by id.
    let patterns: [[UInt8]]

    /// One word of the table: a pattern of word bytes only, the first run of some
    /// phrases, or both. 16 bytes, so the table of the built-in list (2,133 words at
    /// a load of at most 1/4) is 128 KiB: probes stay in L2 and few go past one slot.
    struct Slot: Sendable {
        /// The word's first (up to) 8 bytes, folded (``key(_:_:_:)``).
        var key: UInt64 = 0
        /// The pattern that is this word, or -1.
        var pattern: Int32 = -1
        /// The word's length; 0 for a free slot.
        var length: UInt16 = 0
        /// Some phrases begin with this word (``SlotMore``).
        var hasPhrases = false
    }

    /// What a slot's word needs beyond its first 8 bytes, by slot index: where its
    /// bytes (folded) are in ``pool`` for a word over 8 bytes, and its phrases
    /// `phrases[phraseStart..<phraseEnd]`.
    struct SlotMore: Sendable {
        var poolOffset: Int32 = 0
        var phraseStart: Int32 = 0
        var phraseEnd: Int32 = 0
    }

    /// A pattern with a byte that is not a word byte inside: its id, and its bytes
    /// (folded under -i, ``foldedLetter(_:_:)``) at `pool[offset..<offset + length]`;
    /// `tail` is its (up to) 8 bytes after the first word run, folded, little-endian,
    /// and `tailMask` their bytes, so one load of the text rejects a phrase.
    struct Phrase: Sendable {
        var pattern: Int32
        var offset: Int32
        var length: Int32
        var tail: UInt64 = 0
        var tailMask: UInt64 = 0
    }

    /// 256 flags: byte b occurs in some pattern (in either case under -i): a record
    /// delimiter must not (``canSplit(on:)``).
    let bytes: [Bool]
    /// Open addressing, a power of two at least four times the words.
    let slots: [Slot]
    let more: [SlotMore]
    let phrases: [Phrase]
    let pool: [UInt8]
    let shift: UInt64

    /// Each pattern's representative: the first id with the same pattern (ignoring
    /// ASCII case when the set does), which is the one the set reports.
    let representative: [Int32]

    /// The set of `patterns`, or nil when one does not begin and end with a word byte
    /// (grep's `-w` is then not a matter of runs) or the table would not fit its
    /// 32-bit offsets.
    ///
    /// Distinct words and phrases are found through a scratch table hashed as the
    /// slots are (no dictionary of byte arrays: hashing every pattern's bytes through
    /// `Hasher` was most of the 9 M instructions the built-in list took to start
    /// judging, loaded or built).
    ///
    /// - Complexity: O(total pattern bytes), with a comparison of the phrases that
    ///   share a first word.
    init?(patterns: [[UInt8]], asciiCaseInsensitive: Bool, unicode: Bool) {
        self.patterns = patterns
        self.asciiCaseInsensitive = asciiCaseInsensitive
        self.unicode = unicode
        let fold = asciiCaseInsensitive
        for pattern in patterns {
            guard let first = pattern.first, let last = pattern.last,
                  isASCIIWordByte(first), isASCIIWordByte(last) else { return nil }  // grep's -w is not runs
        }
        // Each distinct word once, in the order of the first pattern spelling it (equal
        // patterns are reported by one, RecordJudge counts the others), and its phrases.
        struct Word {
            var key: UInt64
            var offset: Int   // its folded bytes in `folded`
            var length: Int
            var pattern: Int32 = -1
            var phrases: [Phrase] = []
        }
        var words: [Word] = []
        var folded: [UInt8] = []  // each word's folded bytes
        var pool: [UInt8] = []    // each distinct phrase's bytes as written
        var representative = [Int32](repeating: -1, count: patterns.count)
        var scratchBits: UInt64 = 4
        while (1 << scratchBits) < 2 * max(patterns.count, 1) { scratchBits += 1 }
        var scratch = [Int32](repeating: -1, count: 1 << scratchBits)
        let scratchMask = scratch.count - 1
        for (id, pattern) in patterns.enumerated() {
            var runLength = 0
            while runLength < pattern.count && isASCIIWordByte(pattern[runLength]) { runLength += 1 }
            let offset = folded.count
            for k in 0..<runLength { folded.append(fold ? pattern[k] | 0x20 : pattern[k]) }
            let key = folded.withUnsafeBufferPointer { Self.key($0, offset, offset + runLength) }
            var i = Int(Self.hash(key, runLength, bits: scratchBits))
            var w = -1
            while scratch[i] >= 0 {
                let other = words[Int(scratch[i])]
                if other.key == key && other.length == runLength
                    && folded[other.offset..<(other.offset + runLength)] == folded[offset..<(offset + runLength)] {
                    w = Int(scratch[i])
                    break
                }
                i = (i + 1) & scratchMask
            }
            if w >= 0 {
                folded.removeLast(runLength)
            } else {
                w = words.count
                scratch[i] = Int32(w)
                words.append(Word(key: key, offset: offset, length: runLength))
            }
            if runLength == pattern.count {
                if words[w].pattern < 0 { words[w].pattern = Int32(id) }
                representative[id] = words[w].pattern
                continue
            }
            // A phrase: equal to an earlier one only if that one has the same first word.
            let same = words[w].phrases.first { phrase in
                Int(phrase.length) == pattern.count && (0..<pattern.count).allSatisfy { k in
                    Self.foldedLetter(pool[Int(phrase.offset) + k], fold) == Self.foldedLetter(pattern[k], fold)
                }
            }
            if let same {
                representative[id] = same.pattern
            } else {
                var phrase = Phrase(pattern: Int32(id), offset: Int32(pool.count), length: Int32(pattern.count))
                for k in runLength..<min(pattern.count, runLength + 8) {
                    let shift = UInt64((k - runLength) * 8)
                    phrase.tail |= UInt64(Self.foldedLetter(pattern[k], fold)) << shift
                    phrase.tailMask |= 0xFF << shift
                }
                words[w].phrases.append(phrase)
                pool.append(contentsOf: pattern.map { Self.foldedLetter($0, fold) })
                representative[id] = Int32(id)
            }
        }
        var bits: UInt64 = 4
        while (1 << bits) < 4 * max(words.count, 1) { bits += 1 }
        var slots = [Slot](repeating: Slot(), count: 1 << bits)
        var more = [SlotMore](repeating: SlotMore(), count: 1 << bits)
        var phrases: [Phrase] = []
        for word in words {
            guard word.length <= Int(UInt16.max) else { return nil }
            var slot = Slot()
            slot.key = word.key
            slot.length = UInt16(word.length)
            slot.pattern = word.pattern
            slot.hasPhrases = !word.phrases.isEmpty
            var extra = SlotMore()
            extra.poolOffset = Int32(truncatingIfNeeded: pool.count)
            pool.append(contentsOf: folded[word.offset..<(word.offset + word.length)])
            extra.phraseStart = Int32(truncatingIfNeeded: phrases.count)
            phrases.append(contentsOf: word.phrases)
            extra.phraseEnd = Int32(truncatingIfNeeded: phrases.count)
            var i = Int(Self.hash(slot.key, word.length, bits: bits))
            while slots[i].length != 0 { i = (i + 1) & (slots.count - 1) }
            slots[i] = slot
            more[i] = extra
        }
        guard pool.count < Int(Int32.max) else { return nil }
        var bytes = [Bool](repeating: false, count: 256)
        for pattern in patterns {
            for b in pattern {
                bytes[Int(b)] = true
                if asciiCaseInsensitive && isASCIILetter(b) { bytes[Int(b ^ 0x20)] = true }
            }
        }
        self.bytes = bytes
        self.slots = slots
        self.more = more
        self.phrases = phrases
        self.pool = pool
        self.shift = 64 - bits
        self.representative = representative
    }

    /// `b` with an ASCII capital lowercased under -i: how phrases compare.
    @inline(__always)
    static func foldedLetter(_ b: UInt8, _ fold: Bool) -> UInt8 { fold && b &- 0x41 < 26 ? b | 0x20 : b }

    /// ``foldedLetter(_:_:)`` of the 8 bytes of `x` at once: a byte in `A`...`Z` gains
    /// 0x20, any other byte is unchanged.
    @inline(__always)
    static func foldedLetters(_ x: UInt64) -> UInt64 {
        let low = x & 0x7F7F_7F7F_7F7F_7F7F
        let upper = (low &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(low &+ 0x2525_2525_2525_2525) & ~x & 0x8080_8080_8080_8080
        return x | (upper &>> 2)
    }

    /// `true` when no hit can hold `byte`, so a block of records split on it can be
    /// searched in one pass (what ``SearchStrategy/canSearchAcross(delimiter:)`` says
    /// of the literal engines, in O(1)).
    func canSplit(on byte: UInt8) -> Bool { !bytes[Int(byte)] && !isASCIIWordByte(byte) }

    /// The first (up to) 8 bytes of `h[start..<end]`, little-endian, zero-padded.
    @inline(__always)
    static func key(_ h: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        let n = min(end &- start, 8)
        if start &+ 8 <= h.count {
            let v = UnsafeRawPointer(h.baseAddress! + start).loadUnaligned(as: UInt64.self)
            return n == 8 ? v : v & ((1 &<< UInt64(n &* 8)) &- 1)
        }
        var v: UInt64 = 0
        for k in 0..<n { v |= UInt64(h[start &+ k]) &<< UInt64(k &* 8) }
        return v
    }

    @inline(__always)
    static func hash(_ key: UInt64, _ length: Int, bits: UInt64) -> UInt64 {
        ((key ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15) >> (64 - bits)
    }

    /// Hands `visitor` every match ``SearchStrategy/forEachMatch(in:from:_:)`` reports
    /// in `haystack` from 0, each when its first word run ends (so a phrase comes
    /// before the words inside it), except that of equal patterns one stands for all
    /// (``equalPatterns()`` lists the others); the visitor returns false to stop. (A
    /// visitor, not a closure: the state a closure captures is boxed and checked for
    /// exclusive access on every hit — 8 % of the instructions, measured.)
    ///
    /// - Complexity: O(n + phrase bytes compared), no allocation.
    @inline(__always)
    func forEachHit<Visitor: WordHitVisitor>(in h: UnsafeBufferPointer<UInt8>, into visitor: inout Visitor) {
        let count = h.count
        guard count > 0 else { return }
        let unicode = unicode
        let mask = slots.count &- 1, shift = shift
        let wordFold: UInt64 = asciiCaseInsensitive ? 0x2020_2020_2020_2020 : 0
        slots.withUnsafeBufferPointer { slots in
            Self.wordBytes.withUnsafeBufferPointer { isWordByte in
                /// The hits of the word run `h[start..<end]`. Inlined, it handles the
                /// common run — a word of at most 8 bytes that heads no phrase and has no
                /// byte beyond ASCII beside it, or no word at all — and hands the rest to
                /// ``hits(ofRun:_:key:from:in:into:)``.
                // PERF: a call per run with its captures as arguments cost ~50
                // instructions a run (callgrind, `filter --count` of 32 MiB of subtitles).
                @inline(__always) func run(_ start: Int, _ end: Int) -> Bool {
                    let length = end &- start
                    let fill: UInt64 = length >= 8 ? ~0 : (1 &<< UInt64(length &* 8)) &- 1
                    let key = Self.key(h, start, end) | (wordFold & fill)
                    var i = Int(truncatingIfNeeded: ((key ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
                    while true {
                        let slot = slots[i]
                        if slot.length == 0 { return true }
                        if slot.key == key && Int(slot.length) == length {
                            let plain = length <= 8
                                && !(unicode && (start > 0 && h[start &- 1] >= 0x80 || end < count && h[end] >= 0x80))
                            guard plain else { return hits(ofRun: start, end, key: key, from: i, in: h, into: &visitor) }
                            if slot.pattern >= 0 && !visitor.hit(pattern: Int(slot.pattern), start: start, end: end) { return false }
                            // PERF: a phrase head ("you", "to", "no": 11 % of the runs of
                            // subtitles) went through hits(ofRun:) whole; see the commit.
                            return !slot.hasPhrases || phraseHits(ofRun: start, end, slot: i, in: h, into: &visitor)
                        }
                        i = (i &+ 1) & mask
                    }
                }
                // The boundaries between runs of word bytes and other bytes, 64 bytes at
                // a time (`tl_word_byte_bits64`, a bit per byte): one step per boundary,
                // not a branch per byte. Boundaries alternate: a run starts, then ends.
                // PERF: 64 bytes by SSE2 instead of 8 by SWAR (see the commit).
                var inWord = false
                var start = 0
                var i = 0
                let base = h.baseAddress!
                while i &+ 64 <= count {
                    let w = tl_word_byte_bits64(base + i)
                    var t = w ^ (w &<< 1 | (inWord ? 1 : 0))
                    while t != 0 {
                        let at = i &+ t.trailingZeroBitCount
                        if inWord {
                            if !run(start, at) { return }
                        } else {
                            start = at
                        }
                        inWord.toggle()
                        t &= t &- 1
                    }
                    i &+= 64
                }
                while i < count {
                    let isWord = isWordByte[Int(h[i])]
                    if isWord != inWord {
                        if inWord {
                            if !run(start, i) { return }
                        } else {
                            start = i
                        }
                        inWord = isWord
                    }
                    i &+= 1
                }
                if inWord { _ = run(start, count) }
            }
        }
    }

    /// The hits of the word run `h[start..<end]` whose folded first bytes are `key`,
    /// probing the table from slot `first`: a word over 8 bytes (compared past its key),
    /// the phrases it heads, and the `-w` rule for letters beyond ASCII beside a hit
    /// (``WordCharacters``). Returns false when the visitor stops.
    ///
    /// - Complexity: O(run + phrase bytes compared).
    @inline(never)
    func hits<Visitor: WordHitVisitor>(ofRun start: Int, _ end: Int, key: UInt64, from first: Int,
                                       in h: UnsafeBufferPointer<UInt8>, into visitor: inout Visitor) -> Bool {
        let length = end &- start
        let fold = asciiCaseInsensitive, unicode = unicode
        let wordFold: UInt8 = fold ? 0x20 : 0
        func isWhole(_ start: Int, _ end: Int) -> Bool { Self.isWhole(start, end, in: h, unicode: unicode) }
        // Plain loops over the stored arrays: a slice or an `allSatisfy` closure here
        // retained and released an array per call.
        var i = first
        while true {
            let slot = slots[i]
            if slot.length == 0 { return true }
            if slot.key == key && Int(slot.length) == length {
                var same = true
                let word = Int(more[i].poolOffset)
                var k = 8
                while k < length {
                    if h[start &+ k] | wordFold != pool[word &+ k] { same = false; break }
                    k &+= 1
                }
                if same {
                    if slot.pattern >= 0, isWhole(start, end),
                       !visitor.hit(pattern: Int(slot.pattern), start: start, end: end) { return false }
                    return !slot.hasPhrases || phraseHits(ofRun: start, end, slot: i, in: h, into: &visitor)
                }
            }
            i = (i &+ 1) & (slots.count &- 1)
        }
    }

    /// The hits of the phrases that the word run `h[start..<end]`, the word of slot
    /// `slot`, heads: each phrase's bytes after the run compared 8 at a time (its
    /// ``Phrase/tail``), then byte by byte past 8; the `-w` rule at the phrase's end as
    /// ``hits(ofRun:_:key:from:in:into:)`` applies it. Returns false when the visitor stops.
    ///
    /// - Complexity: O(phrases of the word + phrase bytes compared).
    @inline(never)
    func phraseHits<Visitor: WordHitVisitor>(ofRun start: Int, _ end: Int, slot: Int,
                                             in h: UnsafeBufferPointer<UInt8>, into visitor: inout Visitor) -> Bool {
        let count = h.count, length = end &- start
        let fold = asciiCaseInsensitive, unicode = unicode
        return phrases.withUnsafeBufferPointer { phrases in
            pool.withUnsafeBufferPointer { pool in
                var p = Int(more[slot].phraseStart)
                let last = Int(more[slot].phraseEnd)
                while p < last {
                    let phrase = phrases[p]
                    p &+= 1
                    let phraseLength = Int(phrase.length)
                    let phraseEnd = start &+ phraseLength
                    guard phraseEnd <= count, phraseEnd == count || !isASCIIWordByte(h[phraseEnd]) else { continue }
                    var k = length
                    if end &+ 8 <= count {
                        var x = UnsafeRawPointer(h.baseAddress! + end).loadUnaligned(as: UInt64.self)
                        if fold { x = Self.foldedLetters(x) }
                        guard (x ^ phrase.tail) & phrase.tailMask == 0 else { continue }
                        k = min(length &+ 8, phraseLength)
                    }
                    let bytes = Int(phrase.offset)
                    while k < phraseLength {
                        if Self.foldedLetter(h[start &+ k], fold) != pool[bytes &+ k] { break }
                        k &+= 1
                    }
                    guard k == phraseLength else { continue }
                    guard Self.isWhole(start, phraseEnd, in: h, unicode: unicode) else { continue }
                    if !visitor.hit(pattern: Int(phrase.pattern), start: start, end: phraseEnd) { return false }
                }
                return true
            }
        }
    }

    /// `true` when letters beyond ASCII next to `start..<end` do not make it part of a
    /// longer word (the ASCII neighbours are not word bytes): the `-w` rule at a hit's
    /// edges, for word runs and phrases alike.
    @inline(__always)
    static func isWhole(_ start: Int, _ end: Int, in h: UnsafeBufferPointer<UInt8>, unicode: Bool) -> Bool {
        guard unicode, start > 0 && h[start &- 1] >= 0x80 || end < h.count && h[end] >= 0x80 else { return true }
        return WordCharacters.isWholeWord(start..<end, in: h)
    }

    /// `isASCIIWordByte` as a table.
    private static let wordBytes: [Bool] = (0..<256).map { isASCIIWordByte(UInt8($0)) }
}

extension WholeWordSet {
    /// Patterns that are equal (ignoring ASCII case when the set does), which the set
    /// reports as one: `list[start[p]..<start[p + 1]]` are the ids equal to `p`, `p`
    /// among them; nil when every pattern is distinct.
    func equalPatterns() -> (start: [Int], list: [Int])? {
        // The ids each representative stands for, in id order: a count, then a fill.
        var count = [Int](repeating: 0, count: patterns.count)
        var distinct = 0
        for r in representative {
            if count[Int(r)] == 0 { distinct += 1 }
            count[Int(r)] += 1
        }
        guard distinct < patterns.count else { return nil }
        var groupStart = [Int](repeating: 0, count: patterns.count + 1)
        for p in 0..<patterns.count { groupStart[p + 1] = groupStart[p] + count[p] }
        var members = [Int](repeating: 0, count: patterns.count)
        var filled = groupStart
        for (id, r) in representative.enumerated() {
            members[filled[Int(r)]] = id
            filled[Int(r)] += 1
        }
        var start = [0], list: [Int] = []
        start.reserveCapacity(patterns.count + 1)
        list.reserveCapacity(patterns.count)
        for r in representative {
            list.append(contentsOf: members[groupStart[Int(r)]..<groupStart[Int(r) + 1]])
            start.append(list.count)
        }
        return (start, list)
    }
}

extension SearchStrategy {
    /// The literal set as word runs and a table (``WholeWordSet``), when the matches
    /// are the overlapping whole-word occurrences of literals (`filter -F -w`, the
    /// built-in lists) searched without a prefilter; nil for anything else (a regex,
    /// case variants mapped to their words, an empty pattern, leftmost kinds, or a
    /// short list whose rare start bytes a prefilter skips to faster).
    var wholeWordSet: WholeWordSet? {
        guard options.matchKind == .overlapping, !options.wholeLine, patternOf == nil,
              case .ahoCorasick(let ac) = engine, ac.matchKind == .overlapping, ac.isWholeWord,
              ac.prefilterKernel == nil, ac.patternCount == patterns.count,
              !patterns.contains(where: { $0.isEmpty }) else { return nil }  // PERF: a key path cost 700 instructions a pattern
        return WholeWordSet(patterns: patterns, asciiCaseInsensitive: ac.isASCIICaseInsensitive,
                            unicode: checksWholeWords && options.unicodeWords && !options.bytesMode)
    }
}

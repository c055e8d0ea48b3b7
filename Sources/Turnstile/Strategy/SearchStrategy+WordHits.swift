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
    /// (as written) at `pool[offset..<offset + length]`.
    struct Phrase: Sendable {
        var pattern: Int32
        var offset: Int32
        var length: Int32
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

    /// The set of `patterns`, or nil when one does not begin and end with a word byte
    /// (grep's `-w` is then not a matter of runs) or the table would not fit its
    /// 32-bit offsets.
    init?(patterns: [[UInt8]], asciiCaseInsensitive: Bool, unicode: Bool) {
        self.patterns = patterns
        self.asciiCaseInsensitive = asciiCaseInsensitive
        self.unicode = unicode
        var pool: [UInt8] = []
        // Each distinct word once (the first pattern spelling it: equal patterns are
        // reported by one, RecordJudge counts the others), and its phrases.
        var words: [[UInt8]: (pattern: Int32, phrases: [Phrase])] = [:]
        var order: [[UInt8]] = []
        var seenPhrases = Set<[UInt8]>()
        for (id, pattern) in patterns.enumerated() {
            guard let first = pattern.first, let last = pattern.last,
                  isASCIIWordByte(first), isASCIIWordByte(last) else { return nil }  // grep's -w is not runs
            let run = pattern.prefix { isASCIIWordByte($0) }
            let word = Self.folded(Array(run), asciiCaseInsensitive, wordOnly: true)
            if words[word] == nil { words[word] = (-1, []); order.append(word) }
            if run.count == pattern.count {
                if words[word]!.pattern < 0 { words[word]!.pattern = Int32(id) }
            } else if seenPhrases.insert(Self.folded(pattern, asciiCaseInsensitive, wordOnly: false)).inserted {
                words[word]!.phrases.append(Phrase(pattern: Int32(id), offset: Int32(pool.count), length: Int32(pattern.count)))
                pool.append(contentsOf: pattern)
            }
        }
        var bits: UInt64 = 4
        while (1 << bits) < 4 * max(order.count, 1) { bits += 1 }
        var slots = [Slot](repeating: Slot(), count: 1 << bits)
        var more = [SlotMore](repeating: SlotMore(), count: 1 << bits)
        var phrases: [Phrase] = []
        for word in order {
            let entry = words[word]!
            guard word.count <= Int(UInt16.max) else { return nil }
            var slot = Slot()
            slot.key = word.withUnsafeBufferPointer { Self.key($0, 0, $0.count) }
            slot.length = UInt16(word.count)
            slot.pattern = entry.pattern
            slot.hasPhrases = !entry.phrases.isEmpty
            var extra = SlotMore()
            extra.poolOffset = Int32(pool.count)
            pool.append(contentsOf: word)
            extra.phraseStart = Int32(phrases.count)
            phrases.append(contentsOf: entry.phrases)
            extra.phraseEnd = Int32(phrases.count)
            var i = Int(Self.hash(slot.key, word.count, bits: bits))
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
    }

    /// `true` when no hit can hold `byte`, so a block of records split on it can be
    /// searched in one pass (what ``SearchStrategy/canSearchAcross(delimiter:)`` says
    /// of the literal engines, in O(1)).
    func canSplit(on byte: UInt8) -> Bool { !bytes[Int(byte)] && !isASCIIWordByte(byte) }

    /// `bytes` with ASCII letters lowercased under -i: in a word every byte ORed with
    /// 0x20 (``key(_:_:_:)``'s fold: one-to-one on word bytes), elsewhere letters only.
    static func folded(_ bytes: [UInt8], _ fold: Bool, wordOnly: Bool) -> [UInt8] {
        guard fold else { return bytes }
        return bytes.map { wordOnly ? $0 | 0x20 : ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) }
    }

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
                            let plain = length <= 8 && !slot.hasPhrases
                                && !(unicode && (start > 0 && h[start &- 1] >= 0x80 || end < count && h[end] >= 0x80))
                            guard plain else { return hits(ofRun: start, end, key: key, from: i, in: h, into: &visitor) }
                            return slot.pattern < 0 || visitor.hit(pattern: Int(slot.pattern), start: start, end: end)
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
        let count = h.count, length = end &- start
        let fold = asciiCaseInsensitive, unicode = unicode
        let wordFold: UInt8 = fold ? 0x20 : 0
        /// `true` when letters beyond ASCII next to `start..<end` do not make it part of
        /// a longer word (the ASCII neighbours are not word bytes).
        func isWhole(_ start: Int, _ end: Int) -> Bool {
            guard unicode, start > 0 && h[start &- 1] >= 0x80 || end < count && h[end] >= 0x80 else { return true }
            return WordCharacters.isWholeWord(start..<end, in: h)
        }
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
                    guard slot.hasPhrases else { return true }
                    var p = Int(more[i].phraseStart)
                    let last = Int(more[i].phraseEnd)
                    while p < last {
                        let phrase = phrases[p]
                        p &+= 1
                        let phraseEnd = start &+ Int(phrase.length)
                        guard phraseEnd <= count, phraseEnd == count || !isASCIIWordByte(h[phraseEnd]) else { continue }
                        let bytes = Int(phrase.offset)
                        var k = length
                        while k < Int(phrase.length) {
                            var a = h[start &+ k], b = pool[bytes &+ k]
                            if fold {
                                if a &- 0x41 < 26 { a |= 0x20 }
                                if b &- 0x41 < 26 { b |= 0x20 }
                            }
                            if a != b { break }
                            k &+= 1
                        }
                        if k == Int(phrase.length), isWhole(start, phraseEnd),
                           !visitor.hit(pattern: Int(phrase.pattern), start: start, end: phraseEnd) { return false }
                    }
                    return true
                }
            }
            i = (i &+ 1) & (slots.count &- 1)
        }
    }

    /// `isASCIIWordByte` as a table.
    private static let wordBytes: [Bool] = (0..<256).map { isASCIIWordByte(UInt8($0)) }
}

extension WholeWordSet {
    /// Patterns that are equal (ignoring ASCII case when the set does), which the set
    /// reports as one: `list[start[p]..<start[p + 1]]` are the ids equal to `p`, `p`
    /// among them; nil when every pattern is distinct.
    func equalPatterns() -> (start: [Int], list: [Int])? {
        var ids: [[UInt8]: [Int]] = [:]
        for (id, pattern) in patterns.enumerated() {
            ids[Self.folded(pattern, asciiCaseInsensitive, wordOnly: false), default: []].append(id)
        }
        guard ids.count < patterns.count else { return nil }
        var start = [0], list: [Int] = []
        for pattern in patterns {
            list.append(contentsOf: ids[Self.folded(pattern, asciiCaseInsensitive, wordOnly: false)]!)
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
              !patterns.contains(where: \.isEmpty) else { return nil }
        return WholeWordSet(patterns: patterns, asciiCaseInsensitive: ac.isASCIICaseInsensitive,
                            unicode: checksWholeWords && options.unicodeWords && !options.bytesMode)
    }
}

// Fuzz target: Aho-Corasick (and KMP for one pattern) against the naive reference,
// every match kind, both representations, streaming with random chunk sizes.
//
// Input: byte 0: bits 0-1 match kind (0 overlapping, 1 leftmost-first, 2 leftmost-
// longest), bit 2 ASCII case-insensitive, bit 3 whole word, bit 4 compact NFA,
// bit 5 prefilter off; byte 1: pattern count (mod 12); per pattern a length byte
// (mod 7) then that many bytes; then a chunk-size seed byte; the rest is the haystack.
// Pattern and haystack bytes map into a small alphabet (a b c A B _ space 0xFF) so
// matches are frequent.

import AutomatonCore
import FuzzSupport
import FuzzTestSupport
import LiteralAutomata

let alphabet: [UInt8] = [0x61, 0x62, 0x63, 0x41, 0x42, 0x5F, 0x20, 0xFF]

func describe(_ patterns: [[UInt8]], _ flags: UInt8, _ haystack: [UInt8]) -> String {
    "patterns: \(patterns.map(showBytes))\nflags: \(flags)\nhaystack: \(showBytes(haystack))"
}

runFuzzer { data in
    var input = FuzzInput(data)
    let flags = input.byte()
    let kinds: [MatchKind] = [.overlapping, .leftmostFirst, .leftmostLongest, .leftmostFirst]
    let kind = kinds[Int(flags & 3)]
    let caseInsensitive = flags & 4 != 0
    let wholeWord = flags & 8 != 0
    let representation: LiteralRepresentation = flags & 16 != 0 ? .compact : .dense
    let count = input.int(below: 12)
    var patterns: [[UInt8]] = []
    for _ in 0..<count {
        let length = input.int(below: 7)
        patterns.append(input.take(length).map { alphabet[Int($0 & 7)] })
    }
    var chunkSeed = UInt64(input.byte()) &+ 1
    let haystack = input.rest().map { alphabet[Int($0 & 7)] }

    let ac: AhoCorasick
    do {
        ac = try AhoCorasick.Builder().matchKind(kind).asciiCaseInsensitive(caseInsensitive)
            .wholeWord(wholeWord).prefilter(flags & 32 == 0).representation(representation)
            .build(patterns)
    } catch {
        fuzzFailure("build failed within default limits: \(error)\n\(describe(patterns, flags, haystack))")
    }
    let naiveKind: NaiveLiteralMatcher.Kind =
        kind == .overlapping ? .overlapping : kind == .leftmostFirst ? .leftmostFirst : .leftmostLongest
    let expected = NaiveLiteralMatcher(patterns: patterns, kind: naiveKind,
                                       caseInsensitive: caseInsensitive, wholeWord: wholeWord).matches(in: haystack)
    let got: [Match] = ac.matches(in: haystack)
    if got != expected {
        fuzzFailure("matches differ\n\(describe(patterns, flags, haystack))\ngot:      \(got)\nexpected: \(expected)")
    }
    if ac.isMatch(in: haystack) != !expected.isEmpty {
        fuzzFailure("isMatch differs\n\(describe(patterns, flags, haystack))\nexpected: \(expected)")
    }
    if kind != .overlapping, ac.firstMatch(in: haystack) != expected.first {
        fuzzFailure("firstMatch differs\n\(describe(patterns, flags, haystack))\ngot \(String(describing: ac.firstMatch(in: haystack)))\nexpected: \(expected)")
    }

    // Streaming: random chunk sizes (including empty chunks) from the seed byte.
    var chunks: [[UInt8]] = []
    var i = 0
    while i < haystack.count {
        chunkSeed = chunkSeed &* 6364136223846793005 &+ 1442695040888963407
        let size = Int(chunkSeed >> 60)  // 0...15
        chunks.append(Array(haystack[i..<min(haystack.count, i + size)]))
        i += size
    }
    var stream = ac.streamSearcher()
    var streamed: [Match] = []
    for chunk in chunks { stream.feed(chunk) { streamed.append($0) } }
    stream.finish { streamed.append($0) }
    if streamed != expected {
        fuzzFailure("stream differs\n\(describe(patterns, flags, haystack))\nchunks: \(chunks.map(\.count))\ngot:      \(streamed)\nexpected: \(expected)")
    }

    // KMP for a single pattern must agree too.
    if patterns.count == 1 {
        let kmp: KMP
        do {
            kmp = try KMP(patterns[0], matchKind: kind, asciiCaseInsensitive: caseInsensitive,
                          wholeWord: wholeWord, prefilter: flags & 32 == 0)
        } catch { fuzzFailure("KMP build failed: \(error)\n\(describe(patterns, flags, haystack))") }
        let k: [Match] = kmp.matches(in: haystack)
        if k != expected {
            fuzzFailure("KMP differs\n\(describe(patterns, flags, haystack))\ngot:      \(k)\nexpected: \(expected)")
        }
        var ks = kmp.streamSearcher()
        var kstreamed: [Match] = []
        for chunk in chunks { ks.feed(chunk) { kstreamed.append($0) } }
        ks.finish { kstreamed.append($0) }
        if kstreamed != expected {
            fuzzFailure("KMP stream differs\n\(describe(patterns, flags, haystack))\nchunks: \(chunks.map(\.count))\ngot: \(kstreamed)\nexpected: \(expected)")
        }
    }
}

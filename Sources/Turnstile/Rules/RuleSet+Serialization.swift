// The file `turnstile compile -o` writes and `--automaton` loads: a rule set with its
// threshold and, for word lists, the spam filter's built automaton, sealed in a
// checksummed SavedContainer so that a damaged or truncated file is a typed error
// before anything in it is trusted.
//
// Payload, version 4, little-endian:
//   u32 flags (1 literal, 2 case-insensitive, 4 whole word, 8 bytes mode, 16 ucp,
//             32 chi-square model)
//   u32 match kind
//   u8 has threshold | u64 threshold (IEEE 754 bits)
//   u32 rule count | per rule: u64 weight (IEEE 754 bits) | u32 length | pattern bytes
//   u64 automaton length | the filter's Aho-Corasick automaton (AhoCorasick.serialized();
//   empty for regex rules and single words, which are compiled when loaded)
//
// Older versions are not read: their files are rejected with the version error, and
// `compile -o` makes a new one. Version 1 had no checksum, no threshold and a bare
// leftmost table checked by rebuilding; version 2 held a literal automaton without
// the state depths its loader now checks instead of walking the table; version 3 held
// one without its own checksum (its saved format, now sealed too, is version 3).

import AutomatonCore
import LiteralAutomata

/// The spam filter's automaton of a loaded rule set: a cache of what the rules and
/// options build, so two sets are equal whether or not they carry one.
final class LoadedFilterAutomaton: Sendable {
    let automaton: AhoCorasick
    init(_ automaton: AhoCorasick) { self.automaton = automaton }
}

extension RuleSet: Hashable {
    /// Rules, options and threshold; a loaded automaton is a cache of them.
    public static func == (a: RuleSet, b: RuleSet) -> Bool {
        a.rules == b.rules && a.options == b.options && a.threshold == b.threshold && a.model == b.model
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rules)
        hasher.combine(options)
        hasher.combine(threshold)
        hasher.combine(model)
    }
}

extension RuleSet {
    /// The 8 magic bytes of a saved rule set: "TRNSTRUL".
    public static let magic: [UInt8] = Array("TRNSTRUL".utf8)
    /// The format version this build writes and reads.
    public static let version: UInt32 = 4

    /// The rule set, its threshold and (for word lists) its built filter automaton, for
    /// ``init(deserializing:)``.
    ///
    /// - Throws: ``TurnstileError`` when the rules do not build.
    public func serialized() throws(TurnstileError) -> [UInt8] {
        var w = ByteWriter()
        var flags: UInt32 = 0
        if options.syntax == .literal { flags |= 1 }
        if options.caseInsensitive { flags |= 2 }
        if options.wholeWord { flags |= 4 }
        if options.bytesMode { flags |= 8 }
        if options.ucp { flags |= 16 }
        if model == .chiSquare { flags |= 32 }
        w.u32(flags)
        w.u32(UInt32(options.matchKind.rawValue))
        w.u8(threshold == nil ? 0 : 1)
        w.u64((threshold ?? 0).bitPattern)
        w.u32(UInt32(rules.count))
        for rule in rules {
            w.u64(rule.weight.bitPattern)
            w.u32(UInt32(rule.pattern.count))
            w.bytes(rule.pattern)
        }
        let automaton: [UInt8]
        // A word list's automaton is saved as it is; the case variants of words beyond
        // ASCII under -i (folded-literal-set) are spelled out again on loading.
        let strategy = try spamFilter(threshold: 1).matcher.strategy
        if case .ahoCorasick(let ac) = strategy.engine, strategy.name == .literalSet {
            automaton = ac.serialized()
        } else {
            automaton = []
        }
        w.u64(UInt64(automaton.count))
        w.bytes(automaton)
        return SavedContainer.seal(w.out, magic: Self.magic, version: Self.version)
    }

    /// Loads a rule set saved by ``serialized()``: the checksum first, then every field;
    /// a saved automaton must be the filter automaton of these rules and options (its
    /// kind, options and pattern count are checked; its tables by the literal loader).
    ///
    /// - Throws: ``TurnstileError`` wrapping ``AutomatonError`` (`notAnAutomaton`,
    ///   `unsupportedVersion`, `truncated`, `checksumMismatch`, `corrupt`).
    public init(deserializing bytes: [UInt8]) throws(TurnstileError) {
        func fail(_ kind: AutomatonError.Kind) -> TurnstileError { TurnstileError(.automaton(AutomatonError(kind))) }
        let payload: ArraySlice<UInt8>
        do { payload = try SavedContainer.open(bytes, magic: Self.magic, version: Self.version) } catch {
            throw TurnstileError(.automaton(error))
        }
        var r = ByteReader(payload)
        do throws(AutomatonError) {
            let flags = try r.u32()
            guard flags & ~63 == 0 else { throw AutomatonError(.corrupt("unknown option flags \(flags)")) }
            let kindRaw = try r.u32()
            guard kindRaw <= 255, let kind = MatchKind(rawValue: UInt8(kindRaw)) else {
                throw AutomatonError(.corrupt("unknown match kind \(kindRaw)"))
            }
            var options = Matcher.Options()
            options.syntax = flags & 1 != 0 ? .literal : .regex
            options.caseInsensitive = flags & 2 != 0
            options.wholeWord = flags & 4 != 0
            options.bytesMode = flags & 8 != 0
            options.ucp = flags & 16 != 0
            options.matchKind = kind
            let hasThreshold = try r.u8()
            guard hasThreshold <= 1 else { throw AutomatonError(.corrupt("threshold marker \(hasThreshold)")) }
            let thresholdValue = Double(bitPattern: try r.u64())
            guard thresholdValue.isFinite else { throw AutomatonError(.corrupt("the threshold is not a finite number")) }
            let count = Int(try r.u32())
            // Each rule takes at least 12 bytes, which bounds the count before allocating.
            guard count <= r.remaining / 12 else { throw AutomatonError(.corrupt("\(count) rules cannot fit in the file")) }
            var rules: [SpamFilter.Rule] = []
            rules.reserveCapacity(count)
            for _ in 0..<count {
                let weight = Double(bitPattern: try r.u64())
                guard weight.isFinite else { throw AutomatonError(.corrupt("a rule weight is not a finite number")) }
                let length = Int(try r.u32())
                rules.append(SpamFilter.Rule(pattern: try r.bytes(length), weight: weight))
            }
            let automatonLength = try r.u64()
            guard automatonLength == UInt64(r.remaining) else {
                throw AutomatonError(.corrupt("the automaton takes \(automatonLength) bytes, \(r.remaining) remain"))
            }
            self.init(rules: rules, options: options, threshold: hasThreshold == 1 ? thresholdValue : nil,
                      model: flags & 32 != 0 ? .chiSquare : .sum)
            if automatonLength > 0 {
                // The rule set's checksum (checked above) covers the automaton's bytes.
                let ac = try AhoCorasick(deserializing: try r.slice(Int(automatonLength)), checksumCovered: true)
                guard options.syntax == .literal, ac.matchKind == .overlapping, ac.patternCount == rules.count,
                      ac.isASCIICaseInsensitive == options.caseInsensitive,
                      ac.isWholeWord == Matcher.engineWholeWord(rules.map(\.pattern), options: options)
                else {
                    throw AutomatonError(.corrupt("the saved automaton was not built from these rules and options"))
                }
                loaded = LoadedFilterAutomaton(ac)
            }
        } catch {
            throw TurnstileError(.automaton(error))
        }
    }
}

/// A list of weighted rules and the options they are read with: what a ``Matcher``
/// or a ``SpamFilter`` is built from, and what `turnstile compile -o` saves.
///
/// The saved form holds the rules, the options and the main automaton's table
/// (``DenseDFA/serialized()``). Loading validates every field, rebuilds the engines
/// from the rules and checks that the rebuilt table equals the saved one, so a
/// corrupt file or one written by an incompatible build is a typed error, never a
/// silently different matcher. (The literal and regex engines have no public
/// constructor from a bare table, so the rules are the source of truth.)
///
/// ```swift
/// let rules = RuleSet.standard                      // the built-in spam list
/// let bytes = try rules.serialized()
/// let again = try RuleSet(deserializing: bytes)     // same rules and options
/// let filter = try again.spamFilter(threshold: 1)
/// ```
///
/// - Complexity: saving and loading are O(rules + table size); loading also pays a
///   build of the matcher.

import AutomatonCore
public struct RuleSet: Sendable, Hashable {
    public var rules: [SpamFilter.Rule]
    public var options: Matcher.Options

    public init(rules: [SpamFilter.Rule], options: Matcher.Options) {
        self.rules = rules
        self.options = options
    }

    /// The built-in list (``DefaultSpamList``) as whole words, ASCII case-insensitive.
    public static var standard: RuleSet {
        RuleSet(rules: DefaultSpamList.rules, options: SpamFilter.standardOptions)
    }

    /// The built-in mail list (``DefaultMailList``: body words and scoped tokens, see
    /// ``MailScope``), whole words, ASCII case-insensitive: the default in mail mode.
    public static var standardMail: RuleSet {
        RuleSet(rules: DefaultMailList.rules, options: SpamFilter.standardOptions)
    }

    /// The matcher over the rules' patterns.
    public func matcher() throws(TurnstileError) -> Matcher {
        try Matcher(bytePatterns: rules.map(\.pattern), options: options)
    }

    /// A spam filter over the rules.
    public func spamFilter(threshold: Double = 1) throws(TurnstileError) -> SpamFilter {
        try SpamFilter(rules: rules, options: options, threshold: threshold)
    }

    /// The 8 magic bytes of a saved rule set: "TRNSTRUL".
    public static let magic: [UInt8] = Array("TRNSTRUL".utf8)
    /// The format version this build writes and reads.
    public static let version: UInt32 = 1

    // Format, version 1, little-endian:
    //   8 magic | u32 version | u32 flags (1 literal, 2 case-insensitive, 4 whole word,
    //   8 bytes mode) | u32 match kind | u32 rule count |
    //   per rule: u64 weight (IEEE 754 bits) | u32 length | pattern bytes |
    //   u64 table length | the table (DenseDFA.serialized(), may be empty)

    /// The rule set with its compiled table, for ``init(deserializing:)``.
    ///
    /// - Throws: ``TurnstileError`` when the rules do not build.
    public func serialized() throws(TurnstileError) -> [UInt8] {
        let table = try matcher().denseDFA?.serialized() ?? []
        var out = Self.magic
        func put32(_ v: UInt32) { for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
        func put64(_ v: UInt64) { for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
        put32(Self.version)
        var flags: UInt32 = 0
        if options.syntax == .literal { flags |= 1 }
        if options.caseInsensitive { flags |= 2 }
        if options.wholeWord { flags |= 4 }
        if options.bytesMode { flags |= 8 }
        put32(flags)
        put32(UInt32(options.matchKind.rawValue))
        put32(UInt32(rules.count))
        for rule in rules {
            put64(rule.weight.bitPattern)
            put32(UInt32(rule.pattern.count))
            out.append(contentsOf: rule.pattern)
        }
        put64(UInt64(table.count))
        out.append(contentsOf: table)
        return out
    }

    /// Loads a rule set saved by ``serialized()``.
    ///
    /// - Throws: ``TurnstileError`` wrapping ``AutomatonError`` (`notAnAutomaton`,
    ///   `unsupportedVersion`, `truncated`, `corrupt`) when the bytes are not a valid
    ///   saved rule set, or when the saved table differs from the rebuilt one.
    public init(deserializing bytes: [UInt8]) throws(TurnstileError) {
        var at = 0
        func fail(_ kind: AutomatonError.Kind) -> TurnstileError { TurnstileError(.automaton(AutomatonError(kind))) }
        func need(_ n: Int) throws(TurnstileError) {
            if n < 0 || bytes.count - at < n { throw fail(.truncated(needed: at + max(n, 0), available: bytes.count)) }
        }
        func get32() throws(TurnstileError) -> UInt32 {
            try need(4)
            var v: UInt32 = 0
            for k in 0..<4 { v |= UInt32(bytes[at + k]) << (8 * k) }
            at += 4
            return v
        }
        func get64() throws(TurnstileError) -> UInt64 {
            try need(8)
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(bytes[at + k]) << (8 * k) }
            at += 8
            return v
        }
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.magic else { throw fail(.notAnAutomaton) }
        at = 8
        let version = try get32()
        guard version == Self.version else { throw fail(.unsupportedVersion(found: version, supported: Self.version)) }
        let flags = try get32()
        guard flags & ~15 == 0 else { throw fail(.corrupt("unknown option flags \(flags)")) }
        let kindRaw = try get32()
        guard kindRaw <= 255, let kind = MatchKind(rawValue: UInt8(kindRaw)) else {
            throw fail(.corrupt("unknown match kind \(kindRaw)"))
        }
        var options = Matcher.Options()
        options.syntax = flags & 1 != 0 ? .literal : .regex
        options.caseInsensitive = flags & 2 != 0
        options.wholeWord = flags & 4 != 0
        options.bytesMode = flags & 8 != 0
        options.matchKind = kind
        let count = Int(try get32())
        // Each rule takes at least 12 bytes, which bounds the count before allocating.
        try need(count * 12)
        var rules: [SpamFilter.Rule] = []
        rules.reserveCapacity(count)
        for _ in 0..<count {
            let weight = Double(bitPattern: try get64())
            guard weight.isFinite else { throw fail(.corrupt("a rule weight is not a finite number")) }
            let length = Int(try get32())
            try need(length)
            rules.append(SpamFilter.Rule(pattern: Array(bytes[at..<(at + length)]), weight: weight))
            at += length
        }
        let tableLength = try get64()
        guard tableLength <= UInt64(bytes.count - at) else {
            throw fail(.truncated(needed: at + Int(min(tableLength, UInt64(Int.max / 2))), available: bytes.count))
        }
        let table = Array(bytes[at..<(at + Int(tableLength))])
        at += Int(tableLength)
        guard at == bytes.count else { throw fail(.corrupt("\(bytes.count - at) unexpected bytes after the table")) }
        if !table.isEmpty {
            do { _ = try DenseDFA(deserializing: table) } catch { throw TurnstileError(.automaton(error)) }
        }
        self.init(rules: rules, options: options)
        let rebuilt = try matcher().denseDFA?.serialized() ?? []
        guard rebuilt == table else {
            throw fail(.corrupt("the saved table does not match its rules (written by a different build?)"))
        }
    }
}

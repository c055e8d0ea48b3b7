// GNURegex: GNU grep's two regex dialects (BRE, `grep -G`; ERE, `grep -E`) read with
// GNU's quirks and rewritten into the syntax ``Parser`` reads, so one parser, one Hir and
// one set of automata serve `grep` as they serve `match`.
//
// Sources: POSIX.1-2017 XBD 9 (Regular Expressions), the GNU regex and dfa.c
// documentation (grep 3.8's `info grep`, "Regular Expressions" and "Usage"), and GNU
// grep 3.8 itself as the oracle for every fine point below (the CLI tests compare with
// /usr/bin/grep).
//
// What the rewrite does, construct by construct:
// - BRE: `\(…\)` groups, `\{m,n\}` intervals, `\|`, `\+`, `\?` (GNU extensions); `*`,
//   `\+`, `\?` and `\{` are literal at the start of the pattern, after `\(`, `\|` or a
//   leading `^`; `^` is an anchor only at the start of a branch, `$` only at its end,
//   literal elsewhere; `+ ? { } | ( )` are literal.
// - ERE: `^` and `$` are anchors anywhere; a `*`, `+`, `?` at the start of a branch
//   repeats nothing (GNU warns "* at start of expression"), a `{` there is dropped with
//   a warning; a `{` that does not open a valid interval is literal (`a{x`, `a{1`);
//   `{,n}` is `{0,n}`; a `)` with no `(` is literal.
// - Both: a quantifier after a quantifier applies to the whole (`a**`, `a{1,2}{3}`,
//   `a+?` = `(a+)?`, never lazy); a quantifier after an anchor repeats the anchor; bracket
//   expressions are POSIX (`\` is literal inside, `]` first is literal, `[:name:]`,
//   `[=c=]` and `[.c.]` with one character); `\w \W \s \S \b \B \< \>` are GNU's; ``\` ``
//   and `\'` are the record's start and end; `\` before any other character is that
//   character; `\1`…`\9` are back-references, which no finite automaton can run: an error.
// - Every literal is written back escaped (`\*`) or, for a byte ≥ 0x80 in bytes mode
//   (the C locale), as `\xHH`, so nothing of the PCRE-style syntax leaks through.
//
// Known limits: GNU's rarer oddities are not reproduced (`a(*)` is an error in grep and
// a group repeating nothing here); bounds above ``RegexSyntax/maxRepetition`` are the
// parser's error, where grep allows up to 32,767.

/// GNU grep's regex dialects, rewritten into the syntax ``RegexSyntax`` parses.
///
/// ```swift
/// let t = try GNURegex.translate(Array(#"\(ab\)*c\{2\}"#.utf8), dialect: .basic)
/// String(decoding: t.pattern, as: UTF8.self)   // "(?:ab)*c{2}"
/// ```
public enum GNURegex {
    /// Which of grep's syntaxes a pattern is written in.
    public enum Dialect: Sendable, Hashable {
        /// Basic regular expressions (`grep`, `grep -G`).
        case basic
        /// Extended regular expressions (`grep -E`, `egrep`).
        case extended
    }

    /// A rewritten pattern and the warnings GNU grep prints for it.
    public struct Translation: Sendable, Hashable {
        /// The pattern in ``RegexSyntax``'s syntax, meaning what GNU grep means.
        public var pattern: [UInt8]
        /// GNU's warnings, such as `* at start of expression`, in pattern order.
        public var warnings: [String]
    }

    /// Why a pattern is not a valid GNU regex: GNU grep's own sentence where it has one
    /// (`Unmatched ( or \(`), so a user sees what grep would have said.
    public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// `pattern` read as `dialect`, rewritten.
    ///
    /// - Parameters:
    ///   - bytesMode: whether a character is a byte (the C locale) rather than a UTF-8
    ///     scalar; bytes ≥ 0x80 are then written as `\xHH`.
    ///   - dotMatchesNewline: whether `.` matches a newline (grep `-z`, whose records may
    ///     hold newlines).
    /// - Complexity: O(n) in the pattern's length.
    ///   - classMembers: the members of a POSIX class by name (`alpha`, `space`…) in the
    ///     locale, as code point ranges; when given (UTF-8 text only), `[:name:]`, `\w`,
    ///     `\W`, `\s` and `\S` are written out as those ranges, so they mean what the
    ///     locale says (grep in a UTF-8 locale: `[[:alpha:]]` matches `é`). Without it
    ///     they are the parser's ASCII classes.
    ///   - equivalents: the members of the equivalence class `[=c=]` of a character (its
    ///     UTF-8 bytes) in the locale, as code point ranges (grep in `en_US.UTF-8`:
    ///     `[[=e=]]` matches `é`), or nil when the locale has no such collating element
    ///     (an error, as in grep); without it `[=c=]` is `c`.
    public static func translate(
        _ pattern: [UInt8], dialect: Dialect, bytesMode: Bool = false, dotMatchesNewline: Bool = false,
        classMembers: ((String) -> [ClosedRange<UInt32>])? = nil,
        equivalents: (([UInt8]) -> [ClosedRange<UInt32>]?)? = nil
    ) throws(Error) -> Translation {
        var reader = GNURegexReader(pattern: pattern, dialect: dialect, bytesMode: bytesMode,
                                    dotMatchesNewline: dotMatchesNewline)
        if !bytesMode {
            reader.classMembers = classMembers
            reader.equivalents = equivalents
        }
        return try reader.translate()
    }
}

/// The rewrite's state: a cursor over the pattern and the warnings seen.
private struct GNURegexReader {
    let pattern: [UInt8]
    let basic: Bool
    let bytesMode: Bool
    let dotMatchesNewline: Bool
    var pos = 0
    var warnings: [String] = []
    /// The locale's classes (see ``GNURegex/translate(_:dialect:bytesMode:dotMatchesNewline:classMembers:)``).
    var classMembers: ((String) -> [ClosedRange<UInt32>])?
    /// The locale's equivalence classes (`[=c=]`), by character.
    var equivalents: (([UInt8]) -> [ClosedRange<UInt32>]?)?

    init(pattern: [UInt8], dialect: GNURegex.Dialect, bytesMode: Bool, dotMatchesNewline: Bool) {
        self.pattern = pattern
        self.basic = dialect == .basic
        self.bytesMode = bytesMode
        self.dotMatchesNewline = dotMatchesNewline
    }

    /// One item of a branch as written out, and what a following quantifier may do to it.
    struct Item {
        enum Kind { case atom, quantified, anchor }
        var bytes: [UInt8]
        var kind: Kind
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        pos + ahead < pattern.count ? pattern[pos + ahead] : nil
    }

    private static func fail(_ message: String) -> GNURegex.Error { GNURegex.Error(message: message) }

    mutating func translate() throws(GNURegex.Error) -> GNURegex.Translation {
        var depth = 0
        let out = try alternation(depth: &depth)
        if pos < pattern.count {
            // Only a BRE `\)` without its `\(` stops the top level early.
            throw Self.fail("Unmatched ) or \\)")
        }
        return GNURegex.Translation(pattern: out, warnings: warnings)
    }

    // MARK: Alternation and branches

    /// Whether the cursor is at `|` (ERE) or `\|` (BRE).
    private func atBar() -> Bool {
        basic ? peek() == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: "|") : peek() == UInt8(ascii: "|")
    }

    /// Whether the cursor is at the `)` (ERE) or `\)` (BRE) that closes an open group.
    private func atClose(depth: Int) -> Bool {
        guard depth > 0 else { return false }
        return basic ? peek() == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: ")") : peek() == UInt8(ascii: ")")
    }

    private mutating func alternation(depth: inout Int) throws(GNURegex.Error) -> [UInt8] {
        var out = try branch(depth: &depth)
        while atBar() {
            pos += basic ? 2 : 1
            out.append(UInt8(ascii: "|"))
            out += try branch(depth: &depth)
        }
        return out
    }

    private mutating func branch(depth: inout Int) throws(GNURegex.Error) -> [UInt8] {
        var items: [Item] = []
        let branchStart = pos
        while pos < pattern.count, !atBar(), !atClose(depth: depth) {
            if basic, peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: ")") {
                throw Self.fail("Unmatched ) or \\)")
            }
            // A BRE's leading context: the start of the branch, or right after its leading `^`.
            let leading = items.isEmpty || (items.count == 1 && items[0].kind == .anchor && pos == branchStart + 1)
            if let quantifier = try quantifier(leading: leading, itemsEmpty: items.isEmpty, items: items) {
                apply(quantifier, to: &items)
                continue
            }
            if let item = try atom(depth: &depth, atBranchStart: items.isEmpty) {
                items.append(item)
            }
        }
        return items.flatMap(\.bytes)
    }

    // MARK: Quantifiers

    /// A quantifier at the cursor, written out (`*`, `{2,}`), or nil when the cursor is at
    /// something else — including a quantifier character that is literal here (then the
    /// atom reader takes it).
    private mutating func quantifier(leading: Bool, itemsEmpty: Bool, items: [Item]) throws(GNURegex.Error) -> [UInt8]? {
        guard let c = peek() else { return nil }
        if basic {
            if c == UInt8(ascii: "*") {
                if leading { return nil }  // literal
                pos += 1
                return [c]
            }
            guard c == UInt8(ascii: "\\"), let d = peek(1) else { return nil }
            switch d {
            case UInt8(ascii: "+"), UInt8(ascii: "?"):
                if leading { return nil }
                pos += 2
                return [d]
            case UInt8(ascii: "{"):
                if leading { return nil }
                pos += 2
                return try interval(closing: [UInt8(ascii: "\\"), UInt8(ascii: "}")], basic: true)
            default:
                return nil
            }
        }
        switch c {
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
            pos += 1
            if itemsEmpty || items.allSatisfy({ $0.kind == .anchor }) {
                warnings.append("\(Character(Unicode.Scalar(c))) at start of expression")
            }
            return [c]
        case UInt8(ascii: "{"):
            let save = pos
            pos += 1
            guard let written = try interval(closing: [UInt8(ascii: "}")], basic: false) else {
                pos = save
                return nil  // not an interval: a literal `{`
            }
            if itemsEmpty {
                // GNU drops a `{` that starts an expression and reads on after it.
                warnings.append("{...} at start of expression")
                pos = save + 1
                return []
            }
            return written
        default:
            return nil
        }
    }

    /// An interval's bounds after its `{` (or `\{`), written out as `{m,n}`. In an ERE a
    /// malformed interval is no interval (nil, read as a literal `{`); in a BRE it is an
    /// error, as in GNU.
    private mutating func interval(closing: [UInt8], basic: Bool) throws(GNURegex.Error) -> [UInt8]? {
        func number() -> Int? {
            var value: Int?
            while let c = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) {
                value = Swift.min((value ?? 0) * 10 + Int(c - UInt8(ascii: "0")), 1 << 20)
                pos += 1
            }
            return value
        }
        let low = number()
        var high = low
        if peek() == UInt8(ascii: ",") {
            pos += 1
            high = number()
        } else if low == nil {
            if basic { throw Self.fail(pos >= pattern.count ? "Unmatched \\{" : "Invalid content of \\{\\}") }
            return nil
        }
        guard pattern[pos...].starts(with: closing) else {
            if basic {
                throw Self.fail(pattern[pos...].contains(UInt8(ascii: "}")) ? "Invalid content of \\{\\}" : "Unmatched \\{")
            }
            return nil
        }
        pos += closing.count
        let min = low ?? 0
        if let high, high < min { throw Self.fail("Invalid content of \\{\\}") }
        if min > 32767 || (high ?? 0) > 32767 { throw Self.fail("Regular expression too big") }
        if let high, high == min { return Array("{\(min)}".utf8) }
        return Array("{\(min),\(high.map(String.init) ?? "")}".utf8)
    }

    /// Applies a written quantifier to the last item: a bare atom takes it as is; a
    /// quantified item or an anchor is grouped first, so `a**` and `a+?` keep GNU's
    /// meaning (never lazy) and `^*` repeats the anchor; with no item it repeats nothing.
    private func apply(_ quantifier: [UInt8], to items: inout [Item]) {
        guard !quantifier.isEmpty else { return }
        guard var last = items.popLast() else {
            items.append(Item(bytes: Array("(?:)".utf8) + quantifier, kind: .quantified))
            return
        }
        if last.kind != .atom { last.bytes = Array("(?:".utf8) + last.bytes + [UInt8(ascii: ")")] }
        last.bytes += quantifier
        last.kind = .quantified
        items.append(last)
    }

    // MARK: Atoms

    /// The atom at the cursor, or nil for something that writes nothing.
    private mutating func atom(depth: inout Int, atBranchStart: Bool) throws(GNURegex.Error) -> Item? {
        let c = pattern[pos]
        switch c {
        case UInt8(ascii: "^"):
            pos += 1
            if !basic || atBranchStart { return Item(bytes: [c], kind: .anchor) }
            return literal(c)
        case UInt8(ascii: "$"):
            pos += 1
            if !basic || pos == pattern.count || atBar() || atClose(depth: depth) { return Item(bytes: [c], kind: .anchor) }
            return literal(c)
        case UInt8(ascii: "."):
            pos += 1
            return Item(bytes: Array((dotMatchesNewline ? "(?s:.)" : ".").utf8), kind: .atom)
        case UInt8(ascii: "["):
            return Item(bytes: try bracket(), kind: .atom)
        case UInt8(ascii: "("):
            if basic { pos += 1; return literal(c) }
            return try group(depth: &depth, openLength: 1)
        case UInt8(ascii: "\\"):
            return try escape(depth: &depth)
        default:
            return literal(readCharacter())
        }
    }

    private mutating func group(depth: inout Int, openLength: Int) throws(GNURegex.Error) -> Item {
        pos += openLength
        depth += 1
        if depth > RegexSyntax.maxNesting { throw Self.fail("groups nest more than \(RegexSyntax.maxNesting) deep") }
        let inner = try alternation(depth: &depth)
        guard atClose(depth: depth) else { throw Self.fail("Unmatched ( or \\(") }
        pos += basic ? 2 : 1
        depth -= 1
        return Item(bytes: Array("(?:".utf8) + inner + [UInt8(ascii: ")")], kind: .atom)
    }

    private mutating func escape(depth: inout Int) throws(GNURegex.Error) -> Item? {
        guard let d = peek(1) else { throw Self.fail("Trailing backslash") }
        if basic, d == UInt8(ascii: "(") { return try group(depth: &depth, openLength: 2) }
        pos += 2
        let special: String? = switch d {
        case UInt8(ascii: "w"): "\\w"
        case UInt8(ascii: "W"): "\\W"
        case UInt8(ascii: "s"): "\\s"
        case UInt8(ascii: "S"): "\\S"
        default: nil
        }
        if let special {
            if let classMembers {
                // grep's \w is [_[:alnum:]], \s is [[:space:]], in the locale.
                let lower = d | 0x20
                var ranges = classMembers(lower == UInt8(ascii: "w") ? "alnum" : "space")
                if lower == UInt8(ascii: "w") { ranges.append(0x5F...0x5F) }
                let negated = d == UInt8(ascii: "W") || d == UInt8(ascii: "S")
                return Item(bytes: [UInt8(ascii: "[")] + (negated ? [UInt8(ascii: "^")] : []) + Self.written(ranges)
                                + [UInt8(ascii: "]")], kind: .atom)
            }
            return Item(bytes: Array(special.utf8), kind: .atom)
        }
        let look: String? = switch d {
        case UInt8(ascii: "b"): "\\b"
        case UInt8(ascii: "B"): "\\B"
        case UInt8(ascii: "<"): "\\<"
        case UInt8(ascii: ">"): "\\>"
        case UInt8(ascii: "`"): "^"
        case UInt8(ascii: "'"): "$"
        default: nil
        }
        if let look { return Item(bytes: Array(look.utf8), kind: .anchor) }
        if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(d) {
            throw Self.fail("back-references (\\\(Character(Unicode.Scalar(d)))) cannot run in a finite automaton, so they are not supported")
        }
        pos -= 1
        return literal(readCharacter())
    }

    /// One character at the cursor: a UTF-8 scalar's bytes (a stray byte alone), or one
    /// byte in bytes mode.
    private mutating func readCharacter() -> [UInt8] {
        let lead = pattern[pos]
        var length = 1
        if !bytesMode, lead >= 0xC2, lead <= 0xF4 {
            let want = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            if pos + want <= pattern.count, pattern[(pos + 1)..<(pos + want)].allSatisfy({ $0 & 0xC0 == 0x80 }) {
                length = want
            }
        }
        defer { pos += length }
        return Array(pattern[pos..<(pos + length)])
    }

    /// A character written so the parser reads it literally.
    private func escaped(_ character: [UInt8]) -> [UInt8] {
        guard character.count == 1 else { return character }
        let c = character[0]
        if c >= 0x80 { return Self.hexEscape(c) }
        let isAlnum = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c | 0x20)
        if isAlnum { return [c] }
        switch c {
        case 0x0A: return Array("\\n".utf8)
        case 0x09: return Array("\\t".utf8)
        case 0x0D: return Array("\\r".utf8)
        case 0x0C: return Array("\\f".utf8)
        case 0x20...0x7E: return [UInt8(ascii: "\\"), c]
        default: return Self.hexEscape(c)
        }
    }

    /// Code point ranges as the members of a parser class: `\x{H}-\x{H}` each.
    private static func written(_ ranges: [ClosedRange<UInt32>]) -> [UInt8] {
        var out: [UInt8] = []
        for r in ranges {
            out += Array("\\x{\(String(r.lowerBound, radix: 16))}".utf8)
            if r.upperBound > r.lowerBound { out += Array("-\\x{\(String(r.upperBound, radix: 16))}".utf8) }
        }
        return out
    }

    /// `\xHH`: a byte in bytes mode, a control character in either mode.
    private static func hexEscape(_ c: UInt8) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        return [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(c >> 4)], hex[Int(c & 15)]]
    }

    private func literal(_ c: UInt8) -> Item { literal([c]) }

    private func literal(_ character: [UInt8]) -> Item { Item(bytes: escaped(character), kind: .atom) }

    // MARK: Bracket expressions

    private static let classNames: Set<String> = [
        "alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct", "graph", "cntrl", "blank", "alnum",
    ]

    /// A POSIX bracket expression at the cursor (a `[`), written as a parser class.
    private mutating func bracket() throws(GNURegex.Error) -> [UInt8] {
        let unmatched = Self.fail("Unmatched [, [^, [:, [., or [=")
        pos += 1
        var out: [UInt8] = [UInt8(ascii: "[")]
        if peek() == UInt8(ascii: "^") {
            out.append(UInt8(ascii: "^"))
            pos += 1
        }
        let contentStart = pos
        var first = true
        while true {
            guard let c = peek() else { throw unmatched }
            if c == UInt8(ascii: "]"), !first {
                // `[:alpha:]` for `[[:alpha:]]`: GNU refuses it with one fixed sentence
                // (it names `[:space:]` whatever the class), which scripts match.
                let content = pattern[contentStart..<pos]
                if content.count >= 2, content.first == UInt8(ascii: ":"), content.last == UInt8(ascii: ":") {
                    throw Self.fail("character class syntax is [[:space:]], not [:space:]")
                }
                pos += 1
                break
            }
            first = false
            if c == UInt8(ascii: "["), let kind = peek(1),
               kind == UInt8(ascii: ":") || kind == UInt8(ascii: "=") || kind == UInt8(ascii: ".") {
                guard let end = findTerminator(kind, from: pos + 2) else { throw unmatched }
                let inner = Array(pattern[(pos + 2)..<end])
                pos = end + 2
                if kind == UInt8(ascii: ":") {
                    let name = String(decoding: inner, as: UTF8.self)
                    guard Self.classNames.contains(name) else { throw Self.fail("Invalid character class name") }
                    if let classMembers, case let ranges = classMembers(name), !ranges.isEmpty {
                        out += Self.written(ranges)
                    } else {
                        out += Array("[:\(name):]".utf8)
                    }
                    continue
                }
                guard let character = singleCharacter(inner) else {
                    throw Self.fail("Invalid collation character")
                }
                if kind == UInt8(ascii: "=") {
                    // An equivalence class cannot end a range: GNU says "Invalid range end".
                    if peek() == UInt8(ascii: "-"), let next = peek(1), next != UInt8(ascii: "]") {
                        throw Self.fail("Invalid range end")
                    }
                    if let equivalents {
                        guard let ranges = equivalents(character) else { throw Self.fail("Invalid collation character") }
                        if !ranges.isEmpty {
                            out += Self.written(ranges)
                            continue
                        }
                    }
                }
                if try range(from: character, into: &out) { continue }
                out += escaped(character)
                continue
            }
            let character = readCharacter()
            if try range(from: character, into: &out) { continue }
            out += escaped(character)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// When the cursor is at `-` followed by a range's end (not `]`), reads the end and
    /// writes `start-end`, checking the order; otherwise writes nothing.
    private mutating func range(from start: [UInt8], into out: inout [UInt8]) throws(GNURegex.Error) -> Bool {
        guard peek() == UInt8(ascii: "-"), let next = peek(1), next != UInt8(ascii: "]") else { return false }
        pos += 1
        let end: [UInt8]
        if next == UInt8(ascii: "["), let kind = peek(1), kind == UInt8(ascii: ".") || kind == UInt8(ascii: "=") {
            if kind == UInt8(ascii: "=") { throw Self.fail("Invalid range end") }
            guard let close = findTerminator(kind, from: pos + 2),
                  let character = singleCharacter(Array(pattern[(pos + 2)..<close])) else {
                throw Self.fail("Invalid range end")
            }
            pos = close + 2
            end = character
        } else {
            end = readCharacter()
        }
        guard scalarValue(start) <= scalarValue(end) else { throw Self.fail("Invalid range end") }
        out += escaped(start) + [UInt8(ascii: "-")] + escaped(end)
        return true
    }

    /// The offset of the `:]`, `=]` or `.]` closing a bracket item opened before `from`.
    private func findTerminator(_ kind: UInt8, from: Int) -> Int? {
        var i = from
        while i + 1 < pattern.count {
            if pattern[i] == kind && pattern[i + 1] == UInt8(ascii: "]") { return i }
            i += 1
        }
        return nil
    }

    /// `bytes` when they are exactly one character (a byte in bytes mode).
    private func singleCharacter(_ bytes: [UInt8]) -> [UInt8]? {
        guard let lead = bytes.first else { return nil }
        if bytes.count == 1 { return bytes }
        if bytesMode || lead < 0xC2 { return nil }
        let want = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        return bytes.count == want ? bytes : nil
    }

    /// A character's code point (its byte in bytes mode), for ordering range ends.
    private func scalarValue(_ character: [UInt8]) -> UInt32 {
        guard character.count > 1 else { return UInt32(character[0]) }
        let lead = character[0]
        var value = UInt32(lead) & (character.count == 2 ? 0x1F : character.count == 3 ? 0x0F : 0x07)
        for b in character.dropFirst() { value = value << 6 | UInt32(b & 0x3F) }
        return value
    }
}

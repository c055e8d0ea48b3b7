// Allow and deny lists of senders (`filter --allow-from FILE --deny-from FILE`), as
// SpamAssassin's whitelist_from and blacklist_from: a message from an allowed sender
// is clean and from a denied one spam, whatever its rules score. Entries are compared
// exactly, not as patterns — `@pharmacy.example` is that domain and no other, so
// `evil-pharmacy.example` (which a rule `from:pharmacy.example` would let through) is
// not allowed. Only the address is compared: in `"boss@example.org" <x@spam.example>`
// the sender is x@spam.example, not the display name. The From field is forgeable, as
// SpamAssassin's manual warns; Sender and Return-Path can be checked too.

import AutomatonCore

/// One allow or deny list: addresses and `@domain`s, one per line.
///
/// ```swift
/// let allow = try SenderList(parsing: Array("# friends\nalice@example.org\n@example.net\n".utf8),
///                            source: "allow.txt", decision: .allow)
/// allow.entry(for: Array("ALICE@Example.org".utf8))?.line          // 2
/// allow.entry(for: Array("bob@evil-example.net".utf8))             // nil
/// ```
///
/// - Complexity: O(entries) to read; O(address length) per look-up (hashed).
public struct SenderList: Sendable, Hashable {
    /// What a match means.
    public enum Decision: String, Sendable, Hashable {
        case allow, deny
    }

    /// One line of the list.
    public struct Entry: Sendable, Hashable {
        /// As written, lowercased: `name@domain` or `@domain`.
        public var text: String
        /// The 1-based line number in ``SenderList/source``.
        public var line: Int
        /// `true` for `@domain`.
        public var isDomain: Bool { text.hasPrefix("@") }
    }

    public let source: String
    public let decision: Decision
    private var addresses: [[UInt8]: Entry] = [:]
    private var domains: [[UInt8]: Entry] = [:]

    /// Reads `bytes`: one address or `@domain` per line, compared ASCII
    /// case-insensitively; blank lines and lines starting with `#` are skipped.
    ///
    /// - Throws: ``TurnstileError`` naming the line of an entry that is neither.
    public init(parsing bytes: [UInt8], source: String, decision: Decision) throws(TurnstileError) {
        self.source = source
        self.decision = decision
        var number = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let line = Self.trimmed(raw)
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            let lower = asciiLowercased(line)
            let text = String(decoding: lower, as: UTF8.self)
            guard let at = lower.lastIndex(of: UInt8(ascii: "@")), at + 1 < lower.count,
                  !lower.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
            else {
                throw TurnstileError(.invalidOptions("\(source):\(number): '\(text)' is neither an address (name@domain) nor a domain (@domain)"))
            }
            let entry = Entry(text: text, line: number)
            if at == 0 {
                if domains[Array(lower.dropFirst())] == nil { domains[Array(lower.dropFirst())] = entry }
            } else if addresses[lower] == nil {
                addresses[lower] = entry
            }
        }
    }

    /// The entry `address` matches (its exact address first, then its domain), if any.
    public func entry(for address: [UInt8]) -> Entry? {
        let lower = asciiLowercased(address)
        if let exact = addresses[lower] { return exact }
        guard let at = lower.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return domains[Array(lower[(at + 1)...])]
    }

    static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let f = s.first, f == 0x20 || f == 0x09 || f == 0x0D { s = s.dropFirst() }
        while let l = s.last, l == 0x20 || l == 0x09 || l == 0x0D { s = s.dropLast() }
        return s
    }
}

/// Allow and deny lists applied to a message's sender fields.
///
/// ```swift
/// let policy = SenderPolicy(lists: [allow])          // From only
/// policy.decide(MailMessage(parsing: Array("From: Alice <alice@example.org>\n\nhi".utf8)))?.decision   // .allow
/// ```
public struct SenderPolicy: Sendable, Hashable {
    /// The fields whose addresses are looked up (lowercase names): From by default.
    public var fields: [String]
    public var lists: [SenderList]

    public init(lists: [SenderList], fields: [String] = ["from"]) {
        self.lists = lists
        self.fields = fields
    }

    /// Why a message's verdict came from a list.
    public struct Match: Sendable, Hashable {
        public var decision: SenderList.Decision
        public var source: String
        public var entry: SenderList.Entry
        /// The field (lowercase) and the address in it that matched.
        public var field: String
        public var address: String
    }

    /// The deciding match: an exact address before a domain, and at the same
    /// precision an allow before a deny (a friend at a denied domain is let through).
    /// Nil when no address of the fields is listed.
    public func decide(_ message: MailMessage) -> Match? {
        var best: Match?
        func rank(_ m: Match) -> Int { (m.entry.isDomain ? 0 : 2) + (m.decision == .allow ? 1 : 0) }
        for field in fields {
            for address in Self.addresses(in: message.values(of: Array(field.utf8))) {
                for list in lists {
                    guard let entry = list.entry(for: address) else { continue }
                    let m = Match(decision: list.decision, source: list.source, entry: entry, field: field,
                                  address: String(decoding: address, as: UTF8.self))
                    if best == nil || rank(m) > rank(best!) { best = m }
                }
            }
        }
        return best
    }

    /// The addresses of a decoded field value: each `<…>` when there are any (the
    /// display name is not the sender), else each word with an `@`; comments in
    /// parentheses skipped.
    static func addresses(in value: [UInt8]) -> [[UInt8]] {
        var text: [UInt8] = []
        var depth = 0
        for b in value {
            if b == UInt8(ascii: "(") { depth += 1; continue }
            if b == UInt8(ascii: ")"), depth > 0 { depth -= 1; continue }
            if depth == 0 { text.append(b) }
        }
        var result: [[UInt8]] = []
        if text.contains(UInt8(ascii: "<")) {
            var i = 0
            while let open = text[i...].firstIndex(of: UInt8(ascii: "<")) {
                guard let close = text[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
                let inner = SenderList.trimmed(text[(open + 1)..<close])
                if inner.contains(UInt8(ascii: "@")) { result.append(Array(inner)) }
                i = close + 1
            }
            return result
        }
        for word in text.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: ",") || $0 == 0x0A })
        where word.contains(UInt8(ascii: "@")) {
            var w = word
            while let f = w.first, f == UInt8(ascii: "\"") || f == UInt8(ascii: "'") { w = w.dropFirst() }
            while let l = w.last, l == UInt8(ascii: "\"") || l == UInt8(ascii: "'") || l == UInt8(ascii: ";") { w = w.dropLast() }
            result.append(Array(w))
        }
        return result
    }
}

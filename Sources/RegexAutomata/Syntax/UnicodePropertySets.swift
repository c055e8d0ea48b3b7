// UnicodePropertySets (enum UnicodeProperties): what `\p{…}` names and what `\w \d \s` and the POSIX classes mean
// under (*UCP), read from the generated tables (Generated/UnicodeProperties.swift) the
// first time a pattern asks.
//
// Names are matched as PCRE2 10.42 matches them: letters case-insensitively, with spaces,
// `_` and `-` ignored. A general category is one or two letters (`L`, `Lu`, `L&` = `Lc`);
// PCRE2's special properties are `Any`, `Xan`, `Xps`, `Xsp`, `Xwd`, `Xuc`; a script is
// its long or four-letter name, and a bare script name means its Script_Extensions (as
// `scx=`) while `sc=`/`script=` mean the Script property; PCRE2 reads Common, Inherited and
// Unknown as their Script either way. Everything else (binary properties, Bidi_Class) is
// an unknown property here.

/// The Unicode property sets behind `\p{…}` and (*UCP).
///
/// ```swift
/// UnicodeProperties.set(named: "Greek")      // Script_Extensions=Greek
/// UnicodeProperties.set(named: "sc=Greek")   // Script=Greek
/// UnicodeProperties.ucpClass("w")            // \w under (*UCP): L, N and _
/// ```
enum UnicodeProperties {
    /// The Unicode version of the tables.
    static var unicodeVersion: String { unicodePropertiesVersion }

    /// The set `name` (the text inside `\p{…}`, without a leading `^`) stands for, or nil
    /// when PCRE2 10.42 does not know it.
    static func set(named name: String) -> ScalarRangeSet? {
        let loose = looseName(name)
        if let colon = loose.firstIndex(where: { $0 == "=" || $0 == ":" }) {
            let key = loose[..<colon], value = String(loose[loose.index(after: colon)...])
            switch key {
            case "sc", "script": return tables.scripts[value]
            case "scx", "scriptextensions": return tables.extensions[value]
            default: return nil
            }
        }
        return tables.byName[loose] ?? tables.extensions[loose]
    }

    /// `\d`, `\s`, `\w` (by their letter) and the POSIX classes PCRE2 widens under
    /// (*UCP) (`alpha`, `graph`, …); nil for the ones it leaves alone (`xdigit`, `ascii`).
    static func ucpClass(_ name: String) -> ScalarRangeSet? {
        tables.ucp[name]
    }

    /// PCRE2's loose matching: lower case, spaces, `_` and `-` dropped.
    static func looseName(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
    }

    private struct Tables: Sendable {
        var byName: [String: ScalarRangeSet] = [:]
        var scripts: [String: ScalarRangeSet] = [:]
        var extensions: [String: ScalarRangeSet] = [:]
        var ucp: [String: ScalarRangeSet] = [:]
    }

    private static let tables: Tables = {
        var t = Tables()
        var byLetter: [String: [ClosedRange<UInt32>]] = [:]
        for (name, text) in unicodeGeneralCategoryTable {
            let ranges = parse(text)
            t.byName[looseName(name)] = ScalarRangeSet(ranges)
            byLetter[String(name.prefix(1)).lowercased(), default: []] += ranges
            if name == "Lu" || name == "Ll" || name == "Lt" { byLetter["l&", default: []] += ranges }
        }
        for (letter, ranges) in byLetter { t.byName[letter] = ScalarRangeSet(ranges) }
        t.byName["lc"] = t.byName["l&"]
        for (name, text) in unicodeSpecialPropertyTable { t.byName[looseName(name)] = ScalarRangeSet(parse(text)) }
        for (long, short, script, extensions) in unicodeScriptTable {
            let sc = ScalarRangeSet(parse(script)), scx = ScalarRangeSet(parse(extensions))
            for name in [looseName(long), looseName(short)] {
                t.scripts[name] = sc
                t.extensions[name] = scx
            }
        }
        for (name, text) in unicodeUCPClassTable { t.ucp[name] = ScalarRangeSet(parse(text)) }
        return t
    }()

    /// "41-5A 61-7A" → [0x41...0x5A, 0x61...0x7A].
    private static func parse(_ text: String) -> [ClosedRange<UInt32>] {
        text.split(separator: " ").map { item in
            let bounds = item.split(separator: "-")
            return UInt32(bounds[0], radix: 16)!...UInt32(bounds[1], radix: 16)!
        }
    }
}

import AutomatonCore
import PCRE2Oracle
@testable import RegexAutomata
import TestSupport

/// Every engine configuration that claims the regex semantics, compiled from one
/// pattern list: the full DFA unminimized and minimized, the lazy DFA (with its
/// default and with a tiny cache that forces clears), and the PikeVM.
struct RegexEngines {
    let configurations: [(name: String, regex: RegexAutomaton)]
    let pikeVM: PikeVM
    let isUTF8: Bool

    init(patterns: [String], options: RegexSyntax.Options) throws(RegexError) {
        let base = RegexCompiler().syntax(options).limits(Limits(maxStates: 20_000, maxTableBytes: 8 << 20, maxCacheBytes: 2 << 20))
        var list: [(String, RegexAutomaton)] = []
        list.append(("dense", try base.minimize(false).compile(patterns: patterns)))
        list.append(("dense-minimized", try base.minimize(true).compile(patterns: patterns)))
        list.append(("lazy", try base.forceLazy(true).compile(patterns: patterns)))
        list.append(("lazy-small-cache", try base.forceLazy(true).limits(Limits(maxStates: 20_000, maxTableBytes: 8 << 20, maxCacheBytes: 2_000)).compile(patterns: patterns)))
        self.configurations = list
        self.pikeVM = PikeVM(nfa: list[0].1.forwardNFA)
        self.isUTF8 = options.mode == .utf8
    }

    /// (engine name, matches) for every engine.
    func allMatches(_ haystack: [UInt8]) -> [(String, [Match])] {
        var out = configurations.map { ($0.name, $0.regex.matches(in: haystack)) }
        out.append(("pikevm", haystack.withUnsafeBufferPointer { pikeVM.matches(in: $0, utf8: isUTF8) }))
        return out
    }
}

extension PCRE2Options {
    init(_ o: RegexSyntax.Options) {
        self.init(encoding: o.mode == .utf8 ? .utf : .bytes, caseless: o.caseInsensitive,
                  multiline: o.multiLine, dotall: o.dotMatchesNewline)
    }
}

func describe(_ bytes: [UInt8]) -> String {
    if let s = String(validating: bytes, as: UTF8.self) { return s.debugDescription }
    return bytes.map { String($0, radix: 16) }.joined(separator: " ")
}

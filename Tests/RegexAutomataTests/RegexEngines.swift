import AutomatonCore
import Foundation
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
    let patternText: String

    init(patterns: [String], options: RegexSyntax.Options) throws(RegexError) {
        let base = RegexCompiler().syntax(options).limits(Limits(maxStates: 3_000, maxTableBytes: 8 << 20, maxCacheBytes: 2 << 20))
        var list: [(String, RegexAutomaton)] = []
        let dense = try base.minimize(false).compile(patterns: patterns)
        list.append(("dense", dense))
        if case .dense(let f, let r) = dense.engine {
            list.append(("dense-minimized", RegexAutomaton(
                engine: .dense(forward: f.minimized(), reverse: r.minimized()), nonEmpty: dense.nonEmpty,
                forwardNFA: dense.forwardNFA, reverseNFA: dense.reverseNFA,
                isUTF8: dense.isUTF8, canMatchEmpty: dense.canMatchEmpty, prefilter: dense.prefilter)))
        }
        if dense.prefilter != nil {
            // The same DFA scanning every byte: the prefix prefilter on and off.
            list.append(("dense-no-prefilter", try base.prefilter(false).compile(patterns: patterns)))
        }
        list.append(("lazy", try base.forceLazy(true).compile(patterns: patterns)))
        list.append(("lazy-small-cache", try base.forceLazy(true).limits(Limits(maxStates: 3_000, maxTableBytes: 8 << 20, maxCacheBytes: 2_000)).compile(patterns: patterns)))
        self.configurations = list
        self.pikeVM = PikeVM(nfa: list[0].1.forwardNFA)
        self.isUTF8 = options.mode == .utf8
        self.patternText = patterns.joined(separator: " | ")
    }

    /// (engine name, matches) for every engine.
    func allMatches(_ haystack: [UInt8]) -> [(String, [Match])] {
        let trace = Environment.value("TURNSTILE_TRACE") != nil
        var out = configurations.map { c in
            if trace { FileHandle.standardError.write(Data("  engine \(c.name) /\(patternText)/ on \(describe(haystack))\n".utf8)) }
            return (c.name, Array(c.regex.matches(in: haystack)))
        }
        out.append(("pikevm", haystack.withUnsafeBufferPointer { pikeVM.matches(in: $0, utf8: isUTF8) }))
        return out
    }
}

extension PCRE2Options {
    init(_ o: RegexSyntax.Options) {
        self.init(encoding: o.mode == .utf8 ? .utf : .bytes, caseless: o.caseInsensitive,
                  multiline: o.multiLine, dotall: o.dotMatchesNewline)
        ucp = o.ucp
    }
}

func describe(_ bytes: [UInt8]) -> String {
    if let s = String(validating: bytes, as: UTF8.self) { return s.debugDescription }
    return bytes.map { String($0, radix: 16) }.joined(separator: " ")
}

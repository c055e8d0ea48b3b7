// Fuzz target: the regex parser and compiler on arbitrary bytes.
//
// Input: byte 0 chooses the options (bit 0 `i`, bit 1 `m`, bit 2 `s`, bit 3 bytes
// mode, bit 4 lazy DFA only, bit 5 several patterns split at '\n'); the rest is the
// pattern. Every input must give a typed error or an automaton built within the
// default limits (libFuzzer's -timeout and -rss_limit_mb catch a hang or a blow-up);
// a built automaton must then search a few haystacks consistently.

import AutomatonCore
import FuzzSupport
import RegexAutomata

let haystacks: [[UInt8]] = [
    [], Array("a".utf8), Array("abc aaa\nxyz 123 ab_ab\n".utf8),
    Array(0...255), Array("é日\u{1F600}\r\n".utf8) + [0xFF, 0xC3, 0x28],
]

runFuzzer { data in
    var input = FuzzInput(data)
    let flags = input.byte()
    var options = RegexSyntax.Options()
    options.caseInsensitive = flags & 1 != 0
    options.multiLine = flags & 2 != 0
    options.dotMatchesNewline = flags & 4 != 0
    options.mode = flags & 8 != 0 ? .bytes : .utf8
    let body = input.rest()
    let patterns: [[UInt8]] = flags & 32 != 0
        ? body.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init) : [body]

    var hirs: [Hir] = []
    for p in patterns {
        do throws(RegexSyntaxError) { hirs.append(try RegexSyntax.parse(p, options: options)) } catch {
            // Typed error: its message must render (offset inside the pattern).
            _ = error.description
            if error.offset < 0 || error.offset > p.count {
                fuzzFailure("syntax error offset \(error.offset) outside the pattern \(showBytes(p))")
            }
            return
        }
    }
    let compiler = RegexCompiler().syntax(options).forceLazy(flags & 16 != 0)
    let regex: RegexAutomaton
    do throws(RegexError) { regex = try compiler.compile(hirs: hirs) } catch {
        _ = error.description
        return
    }
    if let dfa = regex.forwardDFA, dfa.memoryBytes > compiler.limits.maxTableBytes * 2 {
        fuzzFailure("forward DFA of \(dfa.memoryBytes) bytes exceeds the table limit for \(showBytes(body))")
    }
    for h in haystacks + [body] {
        let all: [Match] = regex.matches(in: h)
        let first = regex.firstMatch(in: h)
        let any = regex.isMatch(in: h)
        var previousEnd = 0
        for m in all {
            if m.start > m.end || m.end > h.count || m.start < previousEnd || m.pattern >= patterns.count {
                fuzzFailure("bad match \(m) for \(showBytes(body)) in \(showBytes(h))")
            }
            previousEnd = m.end
        }
        if first != all.first || any != !all.isEmpty {
            fuzzFailure("""
                inconsistent searches for \(showBytes(body)) flags \(flags) in \(showBytes(h)):
                matches \(all) firstMatch \(String(describing: first)) isMatch \(any)
                """)
        }
    }
}

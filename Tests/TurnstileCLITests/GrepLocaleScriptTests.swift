import Foundation
import Testing
import TestSupport

/// The locales the scripts of ``GrepLocaleScriptTests`` run under, and whether this
/// machine has them (`locale -a`; `make deps` installs `locales-all`).
enum ScriptLocales {
    static let all = ["C", "C.UTF-8", "en_US.UTF-8", "tr_TR.UTF-8"]

    /// The names `locale -a` lists, lowercased with `utf-8` spelled `utf8` as glibc does.
    static let installed: Set<String> = {
        guard let r = try? ChildProcess.run(URL(fileURLWithPath: "/usr/bin/locale"), ["-a"], stdin: [],
                                            environment: ["PATH": "/usr/bin:/bin"], directory: nil),
              r.status == 0 else { return [] }
        return Set(r.out.split(separator: "\n").map { normalized(String($0)) })
    }()

    static func normalized(_ name: String) -> String { name.lowercased().replacingOccurrences(of: "utf-8", with: "utf8") }

    static func has(_ locale: String) -> Bool { locale == "C" || installed.contains(normalized(locale)) }

    /// Every locale of ``all`` is installed.
    static let allInstalled = all.allSatisfy(has)

    /// The sentence a skipped test gives.
    static let missingReason: Comment =
        "locale -a lacks \(all.filter { !has($0) }.joined(separator: ", ")): run make deps (locales-all)"
}

/// Issue 48's GNU grep behaviours: each case is a shell script that calls `grep`,
/// run with the links to the built binary first on `PATH` and with `/usr/bin/grep`,
/// under `LC_ALL=C`, `C.UTF-8`, `en_US.UTF-8` and `tr_TR.UTF-8` (see
/// ``GrepPersonalityTests/compare(_:locales:)``): standard output, the presence of error
/// messages and the exit status must be equal.
@Suite("grep's edge cases under four locales, as GNU grep",
       .enabled(if: GNUGrep.path != nil, "GNU grep not found at /usr/bin/grep: the comparison is skipped"),
       .enabled(if: ScriptLocales.allInstalled, ScriptLocales.missingReason))
struct GrepLocaleScriptTests {
    static func compare(_ script: String) throws {
        try GrepPersonalityTests.compare(script, locales: ScriptLocales.all)
    }

    /// Seven lines, three with an `x`, for `-m`.
    static let lines = #"printf 'a\nx1\nb\nx2 x\nc\nx3\nd\n' > f; "#

    static let maxCount = [
        "while grep -m1 x; do echo '[again]'; done < f",
        "{ grep -m1 x; sed 1q; } < f",
        "{ grep -m3 x; sed 1q; } < f",
        "{ grep -m1 x -; cat; } < f",
        "{ grep -m1 -A1 x; echo $?; cat; } < f",
        "{ grep -m1 -v x; cat; } < f",
        "{ grep -m1 -c x; cat; } < f",
        "{ grep -m2 -n -b x; grep -n -b x; } < f",
        "{ grep -m5 x; echo $?; cat; } < f",
        "{ grep -m3 -A5 x; echo $?; cat; } < f",
        "{ head -c 2 > /dev/null; grep -m1 x; cat; } < f",
        "cat f | { grep -m1 x; cat; }",
        "{ grep -m2 -o -v -C1 x; echo $?; cat; } < f",
        "{ grep -m1 -o -C2 x; cat; } < f",
        "{ grep -m1 -B1 -o -v x; cat; } < f",
        "grep -o -v -n -b -C1 x f; echo $?",
        "grep -o -v -n -A1 -m1 x f",
        "grep -o -v x f; echo $?",
        "grep -o -v -H -n --color=always -C1 x f | od -c",
        "{ grep -m0 x; echo $?; cat; } < f",
    ].map { lines + $0 }

    @Test("-m leaves standard input after the last selected line; -m with -v, -o and context", arguments: maxCount)
    func maxCountLeavesInput(_ script: String) throws { try Self.compare(script) }

    static let listings = [
        "-L -m0 x", "-l -m0 x", "-L -f /dev/null", "-l -f /dev/null", "-L -v ''", "-l -v ''", "-c -m0 x",
        "-c -f /dev/null", "-L -m0 x nosuch", "-l -m0 x nosuch", "-L -f /dev/null nosuch", "-L -v '' nosuch",
        "-L -x -v ''", "-L -v -f /dev/null", "-l -v -f /dev/null", "-L -m0 x dd", "-L x dd", "-l -m0 x dd",
        "-l -v '' dd nosuch", "-L -m0 -r x .", "-L -m1 x", "-L -Z -m0 x",
    ].map { "printf 'a\\nx1\\n' > g; mkdir dd; grep \($0) /dev/null g; echo $?" } + [
        // GNU grep translates "(standard input)" (tr_TR: "(standart girdi)"); --label names it.
        "echo x | grep --label=in -L -m0 x; echo $?", "echo x | grep --label=in -L -m0 x -; echo $?",
        "echo x | grep --label=in -L -f /dev/null",
    ]

    @Test("-L and -l with -m0, -f /dev/null and -v '': grep's names and status; unopenable inputs stay errors",
          arguments: listings)
    func listsWithoutSelecting(_ script: String) throws { try Self.compare(script) }
}

extension GrepLocaleScriptTests {
    static let writeErrors = [
        "grep x g > /dev/full; echo $?", "grep -c x g > /dev/full; echo $?", "grep -q x g > /dev/full; echo $?",
        "grep -l x g > /dev/full; echo $?", "grep nomatch g > /dev/full; echo $?", "seq 100000 | grep 1 > /dev/full; echo $?",
        "egrep 'x|y' g > /dev/full; echo $?", "fgrep -n x g > /dev/full; echo $?", "grep -L nomatch g > /dev/full; echo $?",
        "grep -o x g nosuch > /dev/full; echo $?",
    ].map { #"printf 'a\nx1\n' > g; "# + $0 }

    @Test("a write error (> /dev/full) is reported and exits 2", arguments: writeErrors)
    func writeError(_ script: String) throws { try Self.compare(script) }

    @Test("the write error's message is grep's, word for word")
    func writeErrorMessage() throws {
        let script = #"printf 'x\n' > g; grep x g > /dev/full"#
        let gnu = try GrepPersonalityTests.run(script, path: "/usr/bin:/bin", locale: "C")
        let ours = try GrepPersonalityTests.run(script, path: GrepPersonalityTests.linkFolder.path + ":/usr/bin:/bin", locale: "C")
        #expect(gnu.stderr == "grep: write error: No space left on device\n")
        #expect(ours.stderr == gnu.stderr && ours.status == 2)
    }

    /// `awk` writing `open` N times, `inner`, then `close` N times: a pattern file.
    static func nested(_ n: Int, _ open: String, _ inner: String, _ close: String) -> String {
        #"awk 'BEGIN { for (i = 0; i < \#(n); i++) printf "\#(open)"; printf "\#(inner)"; for (i = 0; i < \#(n); i++) printf "\#(close)"; print "" }' > p; "#
    }

    static let deepNesting = [
        nested(50_000, "(", "a", ")") + "grep -E -f p g; echo $?",
        nested(50_000, "(", "a", ")") + "grep -E -c -e \"$(cat p)\" g; echo $?",
        nested(50_000, "(", "a|x", ")") + "grep -E -o -i -w -f p g; echo $?",
        nested(50_000, "(", "a", ")") + "egrep -v -f p g; echo $?",
        nested(50_000, #"\\("#, "a", #"\\)"#) + "grep -f p g; echo $?",
        nested(50_000, #"\\("#, "a", #"\\)"#) + "grep -c -x -f p g; echo $?",
        nested(30_000, "(", "", ")") + "grep -E -f p g; echo $?",
        // Shallow enough for both: the same answer.
        nested(200, "(", "a|x", ")*") + "grep -E -o -f p g; echo $?",
        nested(200, #"\\("#, "x", #"\\)"#) + "grep -n -f p g; echo $?",
    ].map { #"printf 'a\nx1\n' > g; "# + $0 }

    @Test("patterns nested tens of thousands deep end with an error and status 2, never a crash",
          arguments: deepNesting)
    func deeplyNested(_ script: String) throws { try Self.compare(script) }
}

extension GrepLocaleScriptTests {
    /// Files with encoding errors: a stray byte, a sequence cut at the line's end and
    /// at the file's end, surrogates, overlong forms and glibc's accepted old forms.
    static let badFiles = #"printf 'ab\377c\nplain c\n' > bad; printf 'caf\303\251\nx\303\n' > trunc; "#
        + #"printf 'a\303\251b\na\303b\n' > mid; printf 'ab\303' > cut; "#
        + #"printf 'x\355\240\200c\ny\364\220\200\200c\nz\370\210\200\200\200c\nw\300\201c\n' > forms; "#
        + #"printf 'plain c\nab\377c\nplain d\nx\nplain e\n' > ctx; printf 'c\n' > good; "#

    static let encodingErrors = [
        "grep c bad; echo $?", "grep -a c bad", "grep -c c bad", "grep plain bad", "grep -v zzz bad; echo $?",
        "grep -o 'b.c' bad; echo $?", "grep -a -o 'b.c' bad | od -c", "grep -a -c '^.*$' bad",
        "grep -a -o '[^a]' mid | od -c", "grep -a -c 'a.b' mid", "grep -a -c 'a..b' mid", "grep -a -o 'x.' trunc | od -c",
        "grep -a -c 'x.$' trunc", "grep x trunc; echo $?", "grep -n caf trunc", "grep -I caf trunc; echo $?",
        "grep -l c bad", "grep -q c bad; echo $?", "grep -a -o '[[:alpha:]]*' bad | od -c", "grep -n c forms",
        "grep -A1 'plain c' ctx", "grep -A1 plain ctx", "grep -n -B1 plain ctx", "grep -n -I -B1 plain ctx",
        "grep -I c bad; echo $?", "grep -o -b 'ab.\\|c' bad", "grep -o -I 'ab.\\|c' bad", "grep -c -I c bad",
        "grep -I -l c bad", "grep -I -L c bad; echo $?", "grep c bad good; grep -H -c c bad good",
        "grep -c 'b.' cut", "grep b cut; echo $?", "grep -a b cut | od -c", "grep -z -c c bad",
        "grep --binary-files=without-match plain bad; echo $?", "grep -m1 -n c ctx bad",
        // Context around a line left out: grep's trailing context stops there, and `--`
        // is decided where a group starts.
        "grep -C1 -n plain ctx", "grep -A2 'plain c' ctx", "grep -n -C2 plain ctx", "grep -m2 -A3 -n plain ctx",
        "grep -v -n -C1 plain ctx", "grep -n -v -B2 -A1 x ctx", "grep -n -A0 c ctx", "grep -o -C1 -n 'plain.' ctx",
    ].map { badFiles + $0 }

    @Test("invalid UTF-8: a line with an encoding error is binary in a UTF-8 locale; . and classes never match part of a sequence",
          arguments: encodingErrors)
    func invalidUTF8(_ script: String) throws { try Self.compare(script) }
}

extension GrepLocaleScriptTests {
    /// Lines with ERE's special characters as text, in both cases of the letters around.
    static let specialsFile = #"printf 'a$*.[^\\/b\nX(+?{|y\n$*.[^\\/(+?{|\nA$*.[^\\/(+?{|$*.[^\\/\nxq(+?{|Q$*.[^\\/Z\n' > f; "#

    static let caseFoldedSpecials = [
        #"grep -o -i -F -e '$*.[^\/' -e '(+?{|' f"#, #"grep -o -i -F -e 'X(+?{|' -e 'q(+?{|q' -e 'A$*.[' f"#,
        #"grep -o -i -F -e '$*.[^\/Z' -e '$*.[^' -e 'Q$' f"#, #"grep -o -i -F -e '(+?{|' -e '$*.[^\/' f"#,
        #"grep -o -i -E -e '\$\*\.\[\^\\/' -e '\(\+\?\{\|' f"#, #"grep -o -i -E -e 'x\(\+' -e 'q\(\+\?\{\|q' -e 'a\$\*\.\[' f"#,
        #"grep -o -i -e 'x(+' -e 'q(+?{|q' -e 'a\$\*\.\[' f"#, #"grep -o -i -e '\$\*\.\[^\\/' -e '(+?{|' f; echo $?"#,
        #"grep -o -i -E -e '$*.[^\/' -e '(+?{|' f; echo $?"#, #"grep -o -i -e '$*.[^\/' -e '(+?{|' f; echo $?"#,
        #"grep -o -i -E -e '(+?{|' f; echo $?"#, #"grep -o -i -w -F -e '$*.[^\/' -e '(+?{|' f; echo $?"#,
        #"grep -o -b -i -F -e '$*' -e '*.' f"#, #"grep -o -i -F -x -e 'X(+?{|Y' f"#, #"grep -c -i -F -e 'A$*.[^\/B' f"#,
        #"grep -o -n -i -F -e '[^\/(' -e '/(+?' f"#, #"fgrep -o -i -e '?{|$' -e '|$*' f"#,
    ].map { specialsFile + $0 }

    @Test("-o -i with several -e patterns holding ERE's specials as text (-F, -E, BRE): grep's matches",
          arguments: caseFoldedSpecials)
    func caseFoldedSpecialCharacters(_ script: String) throws { try Self.compare(script) }
}

extension GrepLocaleScriptTests {
    /// Words next to letters beyond ASCII, and letters with accents.
    static let wordsFile = #"printf 'caf\303\251 x\nE\n\303\251t\303\251\nfoo\303\250 foo\n\303\251foo bar\nfoo\n\302\253foo\302\273\nna\303\257ve\nIi\304\260\304\261\n' > w; "#

    static let multibyteWords = [
        "grep -n -w foo w", "grep -n -o -w foo w", "grep -n -w -F foo w", "grep -c -w 'caf.' w", "grep -o -w 'na.ve' w",
        "grep -n -w -v foo w", "grep -n -x -w foo w",
        "grep -o '[[=e=]]' w | od -c", "grep -o 'caf[[=e=]]' w", "grep -c '[[=a=]]' w", "grep -o '[^[=e=] ]' w | od -c",
        "grep -o '[[=e=]x]' w | od -c", "grep -o '[[=é=]]' w; echo $?", "grep -o '[[=E=]]' w | od -c",
        "grep -o '[[=i=]]' w | od -c", "grep -o '[[=e=]-z]' w; echo $?", "grep -o '[a-[=e=]]' w; echo $?",
        "grep -o '[[=e=]-]' w | od -c", "grep -o -E '([[=o=]])+' w", "grep -c -i '[[=e=]]' w",
    ].map { wordsFile + $0 }

    @Test("-w with letters beyond ASCII next to the word; [[=e=]] is the locale's equivalence class",
          arguments: multibyteWords)
    func multibyteWordsAndEquivalenceClasses(_ script: String) throws { try Self.compare(script) }
}

/// Multibyte locales that are not UTF-8 (issue 48): turnstile reads their text as bytes,
/// as under `LC_ALL=C`, and says so once on standard error. On ASCII text that gives
/// GNU grep's lines and status; text with the locale's multibyte characters may differ
/// (README, "What still differs").
@Suite("grep under EUC-JP and GB18030 says once that it reads bytes",
       .enabled(if: GNUGrep.path != nil, "GNU grep not found at /usr/bin/grep: the comparison is skipped"),
       .enabled(if: ScriptLocales.has("ja_JP.eucjp") && ScriptLocales.has("zh_CN.gb18030"),
                "locale -a lacks ja_JP.eucjp or zh_CN.gb18030: run make deps (locales-all)"))
struct GrepMultibyteLocaleTests {
    static let scripts = [
        #"printf 'abc\nx.y\nABC\n' > f; grep -n b f; grep -c -i abc f; grep -o 'x.y' f; grep -w -c abc f; echo $?"#,
        #"printf 'abc\n' | grep -e a -e z; echo $?"#,
        #"printf 'abc\n' | grep zz; echo $?"#,
    ]

    @Test("ASCII text: GNU grep's lines and status, and one warning", arguments: scripts)
    func asciiText(_ script: String) throws {
        for locale in ["ja_JP.eucjp", "zh_CN.gb18030"] {
            let gnu = try GrepPersonalityTests.run(script, path: "/usr/bin:/bin", locale: locale)
            let ours = try GrepPersonalityTests.run(script, path: GrepPersonalityTests.linkFolder.path + ":/usr/bin:/bin",
                                                    locale: locale)
            #expect(gnu.stdout == ours.stdout && gnu.status == ours.status, "LC_ALL=\(locale) \(script): \(ours.stderr)")
            let warnings = ours.stderr.split(separator: "\n").filter { $0.contains("is not supported") }
            let calls = script.components(separatedBy: "grep ").count - 1
            #expect(warnings.count == calls && ours.stderr.split(separator: "\n").count == calls,
                    "one warning per grep run under \(locale): \(ours.stderr)")
        }
    }
}

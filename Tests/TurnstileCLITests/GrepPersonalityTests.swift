import Foundation
import Testing
import TestSupport

/// `turnstile grep` as a drop-in GNU grep (issue 35): each case is a small shell script
/// that calls `grep`, run twice in a fresh folder — once with a folder holding links
/// named `grep`, `egrep` and `fgrep` to the built binary first on `PATH`, once with
/// `/usr/bin/grep` — under `LC_ALL=C` and under a UTF-8 locale. Standard output, whether
/// anything was written to standard error, and the exit status must be equal.
@Suite("turnstile as grep answers as GNU grep", .enabled(if: GNUGrep.path != nil,
                                                       "GNU grep not found at /usr/bin/grep: the comparison is skipped"))
struct GrepPersonalityTests {
    /// A script and a name for it.
    struct Case: CustomStringConvertible, Sendable {
        var script: String
        /// Only under this locale (nil: both).
        var locale: String?
        var description: String { script }
        init(_ script: String, locale: String? = nil) {
            self.script = script
            self.locale = locale
        }
    }

    /// The folder whose `grep`, `egrep` and `fgrep` are links to the built binary.
    static let linkFolder: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("turnstile-grep-links-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ["grep", "egrep", "fgrep"] {
            let link = dir.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: link)
            try? FileManager.default.createSymbolicLink(at: link, withDestinationURL: CLI.binary)
        }
        return dir
    }()

    /// The UTF-8 locale the cases run under besides C.
    static let utf8Locale = "C.UTF-8"

    struct Outcome: Equatable {
        var status: Int32
        var stdout: [UInt8]
        var wroteErrors: Bool
        var stderr: String
        static func == (a: Outcome, b: Outcome) -> Bool {
            a.status == b.status && a.stdout == b.stdout && a.wroteErrors == b.wroteErrors
        }
    }

    /// Runs `script` with `sh` in a fresh folder, with `path` as `PATH` (ended after 30
    /// seconds: a FIFO case that goes wrong would otherwise wait for ever).
    static func run(_ script: String, path: String, locale: String) throws -> Outcome {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try ChildProcess.run("/usr/bin/timeout", ["30", "/bin/sh", "-c", script], stdin: nil,
                                     environment: ["LC_ALL": locale, "PATH": path, "HOME": dir.path], directory: dir)
        return Outcome(status: r.status, stdout: r.stdout, wroteErrors: !r.stderr.isEmpty, stderr: r.err)
    }

    static func compare(_ c: Case) throws {
        try compare(c.script, locales: c.locale.map { [$0] } ?? ["C", utf8Locale])
    }

    /// Runs `script` with GNU grep and with the links under each of `locales` and
    /// expects the same standard output, exit status and presence of error messages.
    static func compare(_ script: String, locales: [String]) throws {
        for locale in locales {
            let gnu = try run(script, path: "/usr/bin:/bin", locale: locale)
            let ours = try run(script, path: linkFolder.path + ":/usr/bin:/bin", locale: locale)
            #expect(gnu == ours, """
                LC_ALL=\(locale) \(script)
                GNU grep (status \(gnu.status)): \(String(decoding: gnu.stdout, as: UTF8.self).debugDescription) \(gnu.stderr)
                turnstile (status \(ours.status)): \(String(decoding: ours.stdout, as: UTF8.self).debugDescription) \(ours.stderr)
                """)
        }
    }

    /// A line with GNU's special characters in many places.
    static let specials = #"aab aaaaaab foo +foo *foo * ab) x e a{1 a{x {1} d ad a+ a? a| ^x x$ (a) \ \d a] -"#
        + #"\nhello world\nx\nab*c a.c abbbc a{2} {1,2}\n"#

    /// `printf` of `input` piped into `grep flags pattern` (each quoted for sh). A
    /// pattern with a class the UTF-8 locale spells out in Unicode (`\w`, `[[:alpha:]]`)
    /// runs under C only: its automaton takes seconds to build in a debug build, and
    /// `make test-grep-scripts` checks those classes in UTF-8 with the release binary.
    static func piped(_ flags: String, _ pattern: String, input: String = specials) -> Case {
        let unicodeClass = ["\\w", "\\W", "\\s", "\\S", "[:"].contains { pattern.contains($0) } && !pattern.contains("[:digit:]")
        return Case("printf '%b' '\(input.shellQuotedBody)' | grep \(flags) -- '\(pattern.shellQuotedBody)'",
                    locale: unicodeClass ? "C" : nil)
    }

    static let basicPatterns = [
        #"a\d"#, #"a\w"#, #"\s"#, #"a\+"#, #"a\?"#, #"a\|x"#, "*foo", #"\(*foo\)"#, "a**", #"a\{,3\}"#, #"a\{1"#,
        #"x\|^x"#, "^*", "a^", "$x", #"x$\|e"#, #"\(^x\)"#, #"a\{1,2\}\{2\}"#, "[[:alpha:]", "[:space:]", "[a",
        #"\(a"#, #"a\)"#, #"\{1\}"#, #"a\{x\}"#, #"[\d]"#, #"\"#, #"a\]"#, #"\}"#, #"x\{1\}*"#, #"\(\)"#,
        "[[:foo:]]", "[b-a]", #"\`a"#, #"a\'"#, #"\<a"#, #"a\>"#, #"\bx\b"#, #"\Bx"#, "ab*c", "a.c", #"a\.c"#,
        "a{2}", "a+", "(a)", "a|x", #"[[:digit:]]\{1,2\}"#, "[^a-z ]", "[]a]", "[^]a]", #"\(a\|b\)*c"#,
    ]

    static let extendedPatterns = [
        "a{,3}b", "a**", "+foo", "*foo", "^*", "a|*b", "ab)", "a{1,2}{3}", "[[=e=]]", "[[.x.]]", "a{1", "a{x",
        "a{1,2", "()", "(", #"a\d"#, "a{2}{3}", "a*?", "a+?", "a{x}", "a{2,1}", "a{,}", "a|", "|a", "(|a)",
        "[a-]", "[]a]", "[^]a ]", #"[a\]"#, "a{1}{2}", "(*a)", "(+a)", "a|+", "x{0}", #"\d"#, #"\^x"#, #"a\|"#,
        ")", "a{", "^+", "$*", "(^x)", "x$|e", "a^", "x$x", #"\("#, #"\{"#, "[[.space.]]", "[[=a=]b]", "[[.-.]]",
        "[a-[.z.]]", "a{1,2}?", #"\W"#, #"\S"#, #"\B"#, #"a\b"#, "(a|b)+c", "[[:upper:]]+", "a{32768}",
    ]

    /// `-on` shows which lines are selected and where each match starts and ends.
    static let syntaxCases: [Case] =
        basicPatterns.map { piped("-on", $0) } + extendedPatterns.map { piped("-onE", $0) }
        + extendedPatterns.prefix(12).map { p in Case("printf '%b' '\(specials.shellQuotedBody)' | egrep -c -- '\(p.shellQuotedBody)'") }
        + ["a.c", "a*", "[x]", #"\(a"#].map { p in Case("printf '%b' '\(specials.shellQuotedBody)' | fgrep -c -- '\(p.shellQuotedBody)'") }

    @Test("GNU's BRE and ERE, quirks included, through grep, egrep and fgrep", arguments: syntaxCases)
    func syntax(_ c: Case) throws { try Self.compare(c) }

    /// Options grep has and how it reads its command line.
    static let optionCases: [Case] = [
        // A newline separates patterns: in -e, in -F, in the operand, in -f.
        Case(#"printf 'foo\nbar\nbaz\n' | grep -e "$(printf 'foo\nbaz')""#),
        Case(#"printf 'foo\nbar\nbaz\n' | grep -c -F "$(printf 'fo\nba')""#),
        Case(#"printf 'foo\nbar\nbaz\n' | grep -n "$(printf 'o\\|z\nr')""#),
        Case(#"printf 'foo\nbar\n' | grep -c -e "$(printf 'x\n')""#),
        Case(#"printf 'o\nr\n' > p; printf 'foo\nbar\nbaz\n' | grep -f p"#),
        Case(#"printf 'a\\(b\\)*\n' > p; printf 'abb\nb\n' | grep -f p"#),
        // Matchers.
        Case("echo x | grep -E -F x"), Case("echo x | grep -G -E x"), Case("echo x | grep -E -E 'x|y'"),
        Case("echo aa | grep -G 'a\\{2\\}'"), Case("echo 'a+' | grep -F 'a+'"),
        // -i, -y and --no-ignore-case (the last one wins).
        Case("printf 'Foo\\nfoo\\n' | grep -i FOO"), Case("printf 'Foo\\nfoo\\n' | grep -y FOO"),
        Case("printf 'Foo\\nfoo\\n' | grep -i --no-ignore-case foo"),
        Case("printf 'Foo\\nfoo\\n' | grep --no-ignore-case -i foo"),
        // getopt_long: abbreviations, -NUM, clustered options with values.
        Case("printf 'a\\nb\\nc\\nd\\n' | grep --cont=1 c"), Case("printf 'Ab\\nab\\n' | grep --ignore a"),
        Case("printf 'ab\\n' | grep --only b"), Case("printf 'ab\\n' | grep --co b"),
        Case("printf 'a\\nb\\nc\\nd\\ne\\n' | grep -1 c"), Case("printf 'a\\nb\\nc\\nd\\ne\\n' | grep -nC1 c"),
        Case("printf 'a\\nb\\nc\\nd\\ne\\n' | grep -nA1 -e b -e e"), Case("printf 'ab\\n' | grep --nonsense b"),
        // Context separators.
        Case("printf 'a\\nx\\nb\\nc\\nd\\nx\\n' | grep -A0 x"),
        Case("printf 'a\\nx\\nb\\nc\\nd\\nx\\n' | grep --group-separator=XX -A0 x"),
        Case("printf 'a\\nx\\nb\\nc\\nd\\nx\\n' | grep --no-group-separator -A0 x"),
        Case("printf 'a\\nx\\nb\\nc\\nd\\nx\\n' | grep --group-separator '' -B1 x"),
        // -T, -U, -V.
        Case("seq 1 200 > s; grep -T -n -b -e '^1$' -e '^99$' -e '^100$' s"),
        Case("seq 1 20 > s; echo 5 > t; grep -T -H 5 s t; grep -T -c 5 s t"),
        Case("printf 'x\\n\\nx\\n' > s; grep -T -n '' s"), Case("printf 'ab\\n' | grep -U b"),
        Case("grep -V > /dev/null"),
        // Folders, devices, -r, -R, -d, --exclude-from.
        Case("mkdir d; echo hello > d/g; echo hello > f; grep hello f d"),
        Case("mkdir d; echo hello > d/g; echo hello > f; grep -d skip hello f d"),
        Case("mkdir d; echo hello > d/g; echo hello > f; grep -d recurse hello f d"),
        Case("mkdir d; echo hello > d/g; echo hello > f; grep -r hello f d"),
        Case("mkdir d; echo hello > d/g; echo hello > f; grep -r hello f"),
        Case("mkdir d; echo hello > d/g; echo hello > f; grep -r hello d"),
        Case("mkdir d e; echo hello > d/g; ln -s ../d e/l; grep -R hello e; grep -r hello e; echo $?"),
        Case("mkdir d; echo hello > d/a.c; echo hello > d/b.h; echo '*.h' > x; grep -r --exclude-from=x hello d"),
        // -r takes each folder's entries in the folder's own order, as grep does (no sort).
        Case("mkdir -p o/sub; for n in zeta alpha mid beta 10 2 Z a; do echo hit > o/$n; echo hit > o/sub/$n; done; grep -r hit o; cd o && grep -rc hit"),
        Case("grep -D skip x /dev/null; echo $?; grep -D read x /dev/null; echo $?"),
        // Each input is opened once: a FIFO's writer loses nothing.
        Case("mkfifo p; (printf 'a\\nx\\nb\\n' > p &); grep x p"),
        Case("mkfifo p; (printf 'a\\nx\\nb\\n' > p &); grep -c '' p"),
        Case("mkfifo p; grep -D skip x p; echo $?"),
        // Input that is also the output.
        Case("echo x > f; grep x f >> f; echo $?; cat f"),
        Case("echo x > f; grep -c x f >> f; echo $?; cat f"),
        Case("echo x > f; grep x < f >> f; echo $?; cat f"),
        Case("echo x > f; echo x > g; grep -s x f g >> f; echo $?; cat f"),
        // File names are bytes: not UTF-8, on the command line and under -r.
        Case(#"n=$(printf 'caf\351'); echo x > "$n"; grep -H x "$n"; grep -l x "$n" nope; grep -r x . | od -c"#),
        Case(#"mkdir d; echo x > "d/$(printf '\377')"; grep -rc x d | od -c"#),
        // A list of plain words without -F: the same answers as a regex list, built as one.
        Case("seq -f 'word%g' 1 10000 > w; printf 'word77\nxx\nword10000 a\n' | grep -n -f w"),
        Case("seq -f 'w%g' 1 3000 > w; printf 'w77\nxx\nw1000 a\n' | grep -o -w -f w"),
        // Usage errors.
        Case("grep"), Case("grep -E"), Case("echo x | grep -A"), Case("echo x | grep -A x x"),
        Case("echo x | grep --binary-files=nope x"),
    ]

    /// `--color` marks the longest of the words that start at one place, as `-o` prints
    /// it (`ab` and `abc` on `xabcx`: `abc`), in every output mode that colours.
    static let colorCases: [Case] = [
        "-F -e ab -e abc", "-e ab -e abc", "-E -e ab -e abc", "-i -e ab -e abc", "-F -i -e AB -e abc",
        "-F -e b -e abc -e bcx", "-n -H -F -e ab -e abc", "-w -F -e ab -e abc", "-x -e ab -e abc",
        #"-F -i -e "$(printf '\303\211L')" -e "$(printf '\303\251lan')""#,
    ].map { Case(#"printf 'xabcx\nab abc\n\303\251lan\n' | grep --color=always "# + $0 + " | od -c") }

    @Test("--color marks the longest word at a place, as GNU grep", arguments: colorCases)
    func colorLongest(_ c: Case) throws { try Self.compare(c) }

    @Test("grep's options, its command-line reading and its inputs", arguments: optionCases)
    func options(_ c: Case) throws { try Self.compare(c) }

    /// A NUL past the first 32 KiB: inside GNU grep's first 96 KiB buffer the input is
    /// binary from its first line (only `binary file matches`); in a later buffer the
    /// lines of the buffers before it are printed first (13-byte lines: 7,561 a buffer),
    /// read or redirected, and past the first mapped window (1.5 M lines, 19.5 MB).
    static let binaryHeadCases: [Case] = [3_000, 6_900, 7_700, 16_000].flatMap { lines -> [Case] in
        let make = #"awk 'BEGIN{for(i=0;i<\#(lines);i++) printf "line %07d\n", i}' > f; printf 'bin\0ary line\n' >> f; "#
            + #"awk 'BEGIN{for(i=0;i<50;i++) printf "line %07d\n", i}' >> f; "#
        return [make + "grep line f", make + "grep -c line f", make + "grep -n ary f", make + "grep line < f",
                make + "grep -l line f", make + "grep -a -c ary f", make + "grep -I line f; echo $?",
                make + "grep -I -c line f; echo $?"].map { Case($0) }
    } + [#"awk 'BEGIN{for(i=0;i<1500000;i++) printf "line %07d\n", i}' > f; printf 'bin\0ary line\n' >> f; "#
         + #"echo line >> f; grep line f | tail -2; grep -c line f; grep -n ary f"#].map { Case($0, locale: "C") }

    @Test("a NUL makes the input binary from GNU grep's 96 KiB buffer that holds it, as GNU grep reads it",
          arguments: binaryHeadCases)
    func binaryHead(_ c: Case) throws { try Self.compare(c) }

    /// Locales: a character is a byte under C and a UTF-8 sequence under a UTF-8 locale.
    static let localeCases: [Case] = [
        Case(#"printf 'a\377b\n\303\251\n' | grep -c 'a.b'"#),
        Case(#"printf 'a\377b\n\303\251\n' | grep -c '^.*$'"#),
        Case(#"printf 'a\377b\n\303\251\nx\n' | grep -c '^.$'"#),
        Case(#"printf 'caf\303\251\nCAF\303\211\n' | grep -i 'café'"#),
        Case(#"printf 'caf\303\251\nCAF\303\211\n' | grep -c -E '^.{4}$'"#),
        Case(#"printf '\303\251t\303\251\nete\n' | grep -o '[^t]'"#),
        Case(#"printf 'x\303\251y\n' | grep -o '[[:alpha:]]*'"#, locale: "C"),
        Case(#"printf '\303\251lan\nELAN\n\303\211LAN\n' | grep -Fi "$(printf '\303\211LAN')""#),
        Case(#"printf '\303\251lan\nELAN\n\303\211LAN\n' | grep -i -e "$(printf '\303\211LAN')" -e x"#),
        Case(#"printf '\303\251lan\nELAN\n\303\211LAN\n' | grep -Fic "$(printf '\303\251LAN')""#),
        // -i: `s` and `ſ` are one letter in a UTF-8 locale; `k` and U+212A KELVIN SIGN
        // are not, to GNU grep (towlower of U+212A is itself in glibc).
        Case(#"printf '\305\277 x\nKISS\nki\305\277\305\277\n' | grep -ci s"#, locale: utf8Locale),
        Case(#"printf '\305\277 x\nKISS\nki\305\277\305\277\n' | grep -oi kiss"#, locale: utf8Locale),
        Case(#"printf '\305\277 x\nKISS\nki\305\277\305\277\n' | grep -wci s"#, locale: utf8Locale),
        Case(#"printf 's\nS\n\342\204\252\n' | grep -i "$(printf '\305\277')""#, locale: utf8Locale),
        Case(#"printf 'k\n\342\204\252\n' | grep -ci K"#, locale: utf8Locale),
        Case(#"printf 's\n\305\277\n' | grep -ci s"#, locale: "C"),
        Case(#"printf 'a\nb\0c\0' | grep -z 'a.b' | od -c"#),
        Case(#"printf 'a\nb\0c\0' | grep -z '^b' | od -c"#),
    ]

    @Test("LC_ALL=C and a UTF-8 locale give grep's answers", arguments: localeCases)
    func locales(_ c: Case) throws { try Self.compare(c) }

    /// Lines for `-P`: PCRE2's escapes, classes and quantifiers have something to find.
    /// ASCII only: GNU grep 3.8's `-P` (PCRE2 10.42, JIT, invalid-UTF mode) does not
    /// match `é` with `\D`, `\W` or `\S` in a UTF-8 locale, where `[\D]` and `[^a]` do;
    /// we read them as PCRE2 documents them. UTF-8 text has cases of its own below.
    static let perlInput = #"Hello World\ta1\n  42 foo bar\nfoo@example.com x\nab aab b\nabc\n\n"#
        + #"xyz$ ^x (a) []a] a{ a{x} a{1,2 a|b\n\\ / - } 1999-12-31\nAa bb\naaa\n"#

    /// Regular patterns in PCRE2's syntax, and PCRE2's errors (GNU grep: status 2).
    static let perlPatterns = [
        #"\t"#, #"\d"#, #"\d+"#, #"\D"#, #"\w+"#, #"\W"#, #"\s"#, #"\S+"#, "(?i)hello", "(?i:HeLLo) world", "(?-i)a",
        #"\bfoo\b"#, #"\Bx"#, #"^\d{2,3}"#, "a{2}", "a{2,}", "a+?b", #"[[:alpha:]]+"#, "[[:digit:]]", #"[^\d\s]"#,
        #"[\w.-]+@[\w.-]+"#, #"\x41"#, #"\x{41}"#, #"\."#, "a|b", "(a|b)+c", "(?:ab)+", "^$", "^", "$", ".", ".*",
        "x$", "^x", #"\$"#, #"\^x"#, #"\(a\)"#, "[]a]", "[^]a]", "a{", "a{x}", "a{1,2", #"\h"#, #"\H+"#, #"\v"#,
        #"\p{L}+"#, #"\p{Lu}"#, #"\P{L}"#, #"\pL"#, #"[\p{L}\d]+"#, "(?<n>a)b", "(?P<n>a)", "(?'n'a)+",
        "a(?#note)b", "(?|a|b)c", #"\Aa"#, #"b\z"#, "(?s).", "(?m)^x", "(?i)[a-c]+", #"[\]]"#, #"\\"#, #"\/"#,
        #"\-"#, #"\}"#, #"\d{4}-\d\d-\d\d"#, #"(\w+)@(\w+)\.com"#, "[^[:space:]]+", "(?i)AA", "a{0}b",
        "a**", "(", ")", "a{2}{3}", "[z-a]", "[[:foo:]]", #"\x{110000}"#, "[:alpha:]", "(?<1n>a)", "(?<n>a)(?<n>b)",
        #"\Qa{\E"#, #"\Q(a)\E"#, #"\N+"#, #"\e|\a"#, #"\101"#, #"\o{101}"#, #"[\Q]a\E]+"#, #"x\Q\E+"#, #"\N{3}"#,
        #"\ca|\c?"#, #"\c"#, #"\o{8}"#,
    ]

    /// Options with `-P`: words and lines as GNU grep 3.8 wraps them (ASCII `\w`), one
    /// pattern only, `-z`, conflicting matchers; and UTF-8 text in both locales.
    static let perlOptionCases: [Case] = [
        #"grep -P -w 'a' in"#, #"grep -P -wo 'a\w*' in"#, #"grep -P -wc 'ab|aab' in"#, #"grep -P -x 'abc|aaa' in"#,
        #"grep -P -xc 'a+' in"#, #"grep -P -i 'HELLO' in"#, #"grep -P -v -c '\d' in"#, #"grep -P -n '' in"#,
        #"grep -P -e a -e b in"#, #"grep -P "$(printf 'a\nb')" in"#, #"grep -P -E a in"#, #"grep -P -F a in"#,
        #"printf 'ab\n' > p; grep -P -f p in"#, #"printf 'ab\nc\n' > p; grep -P -f p in"#, #"grep -P -l foo in"#,
        #"printf 'a\nb\0' | grep -zcP '^b'"#, #"printf 'a\nb\0' | grep -zcP 'a.b'"#, #"printf 'a\nb\0' | grep -zcP '(?s)a.b'"#,
        #"printf 'caf\303\251\nCAF\303\211\n' | grep -P -io 'caf.'"#,
        #"printf 'caf\303\251\nCAF\303\211\n' | grep -P -c '^.{4}$'"#,
        #"printf 'caf\303\251\nCAF\303\211\n' | grep -P -c '\x{e9}'"#,
        #"printf 'caf\303\251\nCAF\303\211\n' | grep -P -o '[^a-z]'"#,
        #"printf '\303\251a \303\251b a\n' | grep -P -wo '[ab]'"#,
    ].map { Case("printf '%b' '\(perlInput.shellQuotedBody)' > in; " + $0) }

    static let perlCases: [Case] = perlPatterns.flatMap { p in
        ["-onP", "-cP"].map { Case("printf '%b' '\(perlInput.shellQuotedBody)' | grep \($0) -- '\(p.shellQuotedBody)'") }
    } + perlOptionCases

    @Test("-P runs every regular pattern in PCRE2's syntax as GNU grep -P does", arguments: perlCases)
    func perlRegexp(_ c: Case) throws { try Self.compare(c) }

    @Test("back-references and what else -P cannot run in an automaton are refused with one sentence and status 2",
          arguments: [["grep", #"\(a\)\1"#], ["grep", "-E", "(a)\\1"]]
              + ["(?<=a)b", "(?<!a)b", "a(?=b)", "a(?!b)", #"(a)\1"#, #"(?<n>a)\k<n>"#, "(?P=n)", "a++", "a*+",
                 "(?>a+)", "(?(1)a|b)", "(?R)", "(?1)", #"a\Kb"#, "(*FAIL)", "(*ACCEPT)"].flatMap { [["grep", "-P", $0], ["match", "-P", $0]] })
    func refused(_ args: [String]) throws {
        let r = try CLI.run(args, stdin: Array("aab\n".utf8))
        #expect(r.status == 2 && r.stdout.isEmpty, "\(args): \(r.status)")
        let lines = r.err.split(separator: "\n")
        #expect(lines.count == 1 && r.err.contains("finite automaton"), "\(args): \(r.err)")
    }
}

extension String {
    /// The text inside single quotes for sh: each `'` closed, escaped and reopened.
    var shellQuotedBody: String { replacingOccurrences(of: "'", with: #"'\''"#) }
}

import Foundation
import Testing
import TestSupport

/// The idioms of issue 29, each run by the built binary and by `/usr/bin/grep` (GNU
/// grep 3.8) with the same flags on the same input: standard output and exit status
/// must be equal. ASCII cases run with `LC_ALL=C`, UTF-8 cases with `LC_ALL=C.UTF-8`.
@Suite("match's idioms equal GNU grep's", .enabled(if: GNUGrep.path != nil,
                                                   "GNU grep not found at /usr/bin/grep: the comparison with grep is skipped"))
struct GrepIdiomTests {
    /// One comparison: grep's arguments (without `-E`, which is added unless `-F` is
    /// given) and turnstile's (`match` + the same unless `ours` is set).
    struct Case: CustomStringConvertible, Sendable {
        var input: String
        var args: [String]
        var ours: [String]? = nil
        var utf8 = false
        /// Files written in the scratch folder before the run (name → bytes).
        var files: [String: [UInt8]] = [:]
        var description: String { "\(args) on \(input.debugDescription)" + (utf8 ? " (C.UTF-8)" : "") }
    }

    /// Runs `executable args` in `dir` with `stdin`, returning the exit status and stdout.
    static func run(_ executable: URL, _ args: [String], stdin: [UInt8], locale: String, in dir: URL) throws
        -> (status: Int32, stdout: [UInt8], stderr: String) {
        try run(executable, args, stdin: stdin, environment: ["LC_ALL": locale, "PATH": "/usr/bin:/bin"], in: dir)
    }

    static func run(_ executable: URL, _ args: [String], stdin: [UInt8], environment: [String: String], in dir: URL) throws
        -> (status: Int32, stdout: [UInt8], stderr: String) {
        let r = try ChildProcess.run(executable, args, stdin: stdin, environment: environment, directory: dir)
        return (r.status, r.stdout, r.err)
    }

    static func compare(_ c: Case) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, bytes) in c.files { try CLI.write(bytes, to: name, in: dir) }
        let locale = c.utf8 ? "C.UTF-8" : "C"
        let grepArgs = (c.args.contains("-F") ? [] : ["-E"]) + c.args
        let ours = ["match"] + (c.ours ?? c.args)
        let stdin = Array(c.input.utf8)
        let g = try run(URL(fileURLWithPath: GNUGrep.path!), grepArgs, stdin: stdin, locale: locale, in: dir)
        let t = try run(CLI.binary, ours, stdin: stdin, locale: locale, in: dir)
        #expect(g.status == t.status && g.stdout == t.stdout, """
            grep \(grepArgs) (status \(g.status)): \(String(decoding: g.stdout, as: UTF8.self).debugDescription) \(g.stderr)
            turnstile \(ours) (status \(t.status)): \(String(decoding: t.stdout, as: UTF8.self).debugDescription) \(t.stderr)
            """)
    }

    /// grep's `-w`: no word character on either side of the match; a failing match
    /// gives way to a shorter one at the same start, then to later starts.
    static let wholeWords: [Case] = [
        Case(input: "x = 1\na=b\n", args: ["-w", "="]),
        Case(input: "x = 1\na=b\n", args: ["-F", "-w", "="]),
        Case(input: "ab cd\n", args: ["-w", " "]),
        Case(input: "ab cd\n", args: ["-F", "-w", " "]),
        Case(input: "a -foo b\nx-foo\n", args: ["-w", "-e", "-foo"]),
        Case(input: "a -foo b\nx-foo\n", args: ["-F", "-w", "-e", "-foo"]),
        Case(input: "@x@\na@x@\n", args: ["-w", "@x@"]),
        Case(input: "@x@\na@x@\n", args: ["-F", "-w", "@x@"]),
        Case(input: "a\n\n b\nb \nab\n", args: ["-n", "-w", ""]),
        Case(input: "a\n\n b\nb \nab\n", args: ["-n", "-F", "-w", "-e", ""]),
        Case(input: "a\n\n b\nb \nab\n", args: ["-c", "-v", "-w", ""]),
        Case(input: "foobar foo\nfoobar\n", args: ["-o", "-w", "foo|foobar"]),
        Case(input: "foobarx foo\nfoobar\n", args: ["-o", "-w", "-F", "-e", "foo", "-e", "foobar"]),
        Case(input: "a b\na bc\n", args: ["-o", "-F", "-w", "-e", "a", "-e", "a b"]),
        Case(input: "foo_bar foo\nfoo_bar\nxfoo foox\n", args: ["-c", "-w", "foo"]),
        Case(input: "xfoo foox foo\n", args: ["-b", "-o", "-w", "foo"]),
        Case(input: "winner winners\n", args: ["-o", "-w", "win+ers?"]),
        Case(input: "café au lait\nun cafés\n", args: ["-w", "café"], utf8: true),
        Case(input: "café au lait\nun cafés\n", args: ["-F", "-w", "café"], utf8: true),
        Case(input: "réfooé\nfoo\n«foo»\nfooé foo\n", args: ["-n", "-w", "foo"], utf8: true),
        Case(input: "réfooé\nfoo\n«foo»\nfooé foo\n", args: ["-n", "-o", "-F", "-w", "foo"], utf8: true),
        Case(input: "réfooé\nfoo\n«foo»\nfooé foo\n", args: ["-n", "-o", "-F", "-w", "-e", "foo", "-e", "bar"], utf8: true),
        Case(input: "ab cé ab c\n", args: ["-o", "-w", "ab c|ab"], utf8: true),
        Case(input: "ab cé ab c\n", args: ["-o", "-F", "-w", "-e", "ab c", "-e", "ab"], utf8: true),
    ]

    /// `\<` and `\>`: grep's word-start and word-end anchors.
    static let wordAnchors: [Case] = [
        Case(input: "the cat\nconcat\ncats\n", args: ["\\<cat\\>"]),
        Case(input: "the cat\nconcat\ncats\n", args: ["-n", "cat\\>"]),
        Case(input: "the cat\nconcat\ncats\n", args: ["-n", "\\<cat"]),
        Case(input: "the cat\nconcat\ncats a<b\n", args: ["-o", "\\<[a-z]"]),
        Case(input: "the cat\nconcat\ncats a<b\n", args: ["-o", "[a-z]\\>"]),
        Case(input: "a<b a>b\n", args: ["-c", "<|>"]),
    ]

    /// Every long option's `--name=value` with values that contain or end with `=`.
    static let longValues: [Case] = [
        Case(input: "x=1\ny=2\n", args: ["-o", "--regexp=x="]),
        Case(input: "x=1\ny=2\n", args: ["-o", "--regexp==1"]),
        Case(input: "a==b\n", args: ["-o", "--regexp=a=="]),
        Case(input: "x=1\ny=2\n", args: ["--regexp=x=", "--regexp=y="]),
        Case(input: "x=1\ny=2\n", args: ["-F", "--regexp=x="]),
        Case(input: "x=1\ny=2\n", args: ["--file=p=", "-n"], files: ["p=": Array("y=\n".utf8)]),
        Case(input: "x=1\ny=2\n", args: ["--max-count=1", "--regexp=."]),
        Case(input: "a\nx=\nb\n", args: ["--context=1", "--regexp=x="]),
        Case(input: "a\nx=\nb\n", args: ["--after-context=1", "--before-context=0", "--regexp=x="]),
    ]

    static let files: [String: [UInt8]] = [
        "a.txt": Array("foo\nbar\nfoo bar\n".utf8), "b.c": Array("foo\n".utf8),
        "bin.dat": Array("abc\nfoo\u{0}bar\nfoo\n".utf8), "late.dat": Array(String(repeating: "foo\n", count: 9000).utf8) + [0] + Array("foo\n".utf8),
    ]

    /// grep's flags that match lacked: -x -z -Z -a -I -h -E -y --binary-files --label
    /// --line-buffered --color/--colour with GREP_COLORS, --include/--exclude.
    static let flags: [Case] = [
        Case(input: "abc\nab\nabcd\n", args: ["-x", "abc|ab"]),
        Case(input: "abc\nab\nabcd\n", args: ["-n", "-x", "-F", "-e", "abc", "-e", "ab"]),
        Case(input: "abc\n\nabcd\n", args: ["-c", "-x", ""]),
        Case(input: "abc\n\nabcd\n", args: ["-v", "-x", "-e", ""]),
        Case(input: "abc\nab\nabcd\n", args: ["-o", "-x", "a.*"]),
        Case(input: "ab c\nab\n", args: ["-x", "-w", "ab"]),
        Case(input: "a\u{0}b\u{0}ab\u{0}", args: ["-z", "a"]),
        Case(input: "a\nb\u{0}ab\u{0}", args: ["-z", "^b"]),
        Case(input: "a\nb\u{0}ab\u{0}", args: ["-z", "-c", "b$"]),
        Case(input: "", args: ["-Z", "-l", "foo", "a.txt", "b.c"], files: files),
        Case(input: "", args: ["-Z", "-c", "foo", "a.txt", "b.c"], files: files),
        Case(input: "", args: ["-Z", "-n", "foo", "a.txt", "b.c"], files: files),
        Case(input: "", args: ["-h", "foo", "a.txt", "b.c"], files: files),
        Case(input: "", args: ["-hn", "foo", "a.txt", "b.c"], files: files),
        Case(input: "", args: ["foo", "bin.dat", "a.txt"], files: files),
        Case(input: "", args: ["-c", "foo", "bin.dat"], files: files),
        Case(input: "", args: ["-n", "-A1", "abc", "bin.dat"], files: files),
        Case(input: "", args: ["-o", "foo", "bin.dat", "a.txt"], files: files),
        Case(input: "", args: ["-l", "foo", "bin.dat", "a.txt"], files: files),
        Case(input: "", args: ["-I", "-c", "foo", "bin.dat", "a.txt"], files: files),
        Case(input: "", args: ["-I", "-L", "foo", "bin.dat", "a.txt"], files: files),
        Case(input: "", args: ["-I", "foo", "bin.dat", "a.txt"], files: files),
        Case(input: "", args: ["-a", "foo", "bin.dat"], files: files),
        Case(input: "", args: ["--binary-files=text", "-n", "foo", "bin.dat"], files: files),
        Case(input: "", args: ["--binary-files=without-match", "foo", "bin.dat", "a.txt"], files: files),
        Case(input: "", args: ["--binary-files=binary", "-v", "xyz", "bin.dat"], files: files),
        Case(input: "abc\nfoo\u{0}bar\n", args: ["foo"]),
        Case(input: "", args: ["--include=*.c", "foo", "a.txt", "b.c"], files: files),
        Case(input: "", args: ["--exclude=*.c", "foo", "a.txt", "b.c"], files: files),
        Case(input: "", args: ["--exclude=*.txt", "-c", "foo", "./a.txt", "b.c"], files: files),
        Case(input: "foo\n", args: ["--label=XX", "-H", "foo"]),
        Case(input: "foo\n", args: ["--label=XX", "-c", "foo", "-", "a.txt"], files: files),
        Case(input: "FOO\n", args: ["-y", "foo"]),
        Case(input: "FOO\n", args: ["-E", "-i", "foo"]),
        Case(input: "foo\nbar\n", args: ["--line-buffered", "foo"]),
        Case(input: "foo bar foo\n", args: ["--color=always", "foo"]),
        Case(input: "foo bar\nx\nfoo\n", args: ["--colour=always", "-n", "-b", "-A1", "foo", "-", "a.txt"], files: files),
        Case(input: "foo bar\nx\ny\nfoo\n", args: ["--color=always", "-n", "-C0", "foo"]),
        Case(input: "foo bar foo\n", args: ["--color=always", "-o", "-b", "-H", "foo"]),
        Case(input: "foo\n", args: ["--color", "foo"]),
    ]

    /// `--count-matches -m N` counts the matches of the first N selected records (the
    /// lines `grep -o -m N` prints); `--delimiter none -o` prints each match on a line.
    @Test("--count-matches stops at -m records; --delimiter none -o ends each match with a newline")
    func countMatchesAndWholeInput() throws {
        let input = "a a a\nb\na a\na\n"
        for limit in [1, 2, 3] {
            let g = try Self.run(URL(fileURLWithPath: GNUGrep.path!), ["-o", "-m", "\(limit)", "a"], stdin: Array(input.utf8),
                                 locale: "C", in: URL(fileURLWithPath: "/"))
            let lines = g.stdout.filter { $0 == 0x0A }.count
            let ours = try CLI.run(["match", "--count-matches", "-m", "\(limit)", "a"], stdin: Array(input.utf8))
            #expect(ours.out == "\(lines)\n" && ours.status == 0, "-m \(limit): \(ours.out) \(ours.err)")
        }
        let g = try Self.run(URL(fileURLWithPath: GNUGrep.path!), ["-o", "-b", "ab"], stdin: Array("ab ab\nab\n".utf8),
                             locale: "C", in: URL(fileURLWithPath: "/"))
        let ours = try CLI.run(["match", "--delimiter", "none", "-o", "-b", "ab"], stdin: Array("ab ab\nab\n".utf8))
        #expect(ours.stdout == g.stdout && ours.status == g.status, "\(ours.out)")
    }

    @Test("grep's flags, with grep's meanings", arguments: flags)
    func grepFlags(_ c: Case) throws { try Self.compare(c) }

    @Test("GREP_COLORS sets the colours of matches, names, numbers and separators")
    func grepColors() throws {
        for colors in ["mt=01;32:fn=34:ln=33:se=35", "ms=4:ne", "fn=:bn=31"] {
            let dir = try CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            try CLI.write(Array("foo bar foo\n".utf8), to: "a.txt", in: dir)
            let args = ["--color=always", "-n", "-b", "-H", "foo", "a.txt"]
            let environment = ["LC_ALL": "C", "PATH": "/usr/bin:/bin", "GREP_COLORS": colors]
            let g = try Self.run(URL(fileURLWithPath: GNUGrep.path!), args, stdin: [], environment: environment, in: dir)
            let t = try Self.run(CLI.binary, ["match"] + args, stdin: [], environment: environment, in: dir)
            #expect(g.stdout == t.stdout && g.status == t.status, "GREP_COLORS=\(colors): \(t.stdout) \(t.stderr)")
        }
    }

    @Test("-P and --perl-regexp read PCRE2's syntax; look-ahead is refused with one sentence and status 2")
    func perlSyntaxSpellings() throws {
        for flag in ["-P", "--perl-regexp"] {
            let found = try CLI.run(["match", flag, #"\d\t"#], stdin: Array("a1\tb\nc\n".utf8))
            #expect(found.status == 0 && found.out == "a1\tb\n", "\(flag): \(found.status) \(found.err)")
            let r = try CLI.run(["match", flag, "a(?=b)"], stdin: Array("ab\n".utf8))
            #expect(r.status == 2 && r.stdout.isEmpty, "\(flag): \(r.status)")
            #expect(r.err.hasPrefix("turnstile: ") && r.err.contains("not supported"), "\(flag): \(r.err)")
        }
    }

    @Test("-w is grep's rule, for regexes and -F, ASCII and UTF-8", arguments: wholeWords)
    func wholeWord(_ c: Case) throws { try Self.compare(c) }

    @Test("\\< and \\> are word anchors", arguments: wordAnchors)
    func anchors(_ c: Case) throws { try Self.compare(c) }

    @Test("--name=value keeps every = of the value", arguments: longValues)
    func longOptionValues(_ c: Case) throws { try Self.compare(c) }
}

// Runs every workload on every engine, times repeated runs after a warm-up, cuts the
// haystack to a prefix for engines too slow to scan all of it within the run budget,
// and checks that every engine counts what Turnstile counts on the same bytes.

import Foundation
import Turnstile

/// Engine names, in the order of the table's columns.
enum EngineName {
    static let turnstile = "turnstile"
    static let pcre2JIT = "pcre2-jit"
    static let pcre2Interp = "pcre2-interp"
    static let turnstileCLI = "turnstile-cli"
    static let rg = "rg"
    static let grep = "grep"
    static let pcre2grep = "pcre2grep"
    static let hyperscan = "hyperscan"
    static let all = [turnstile, hyperscan, pcre2JIT, pcre2Interp, turnstileCLI, rg, grep, pcre2grep]
    static let inProcess: Set<String> = [turnstile, hyperscan, pcre2JIT, pcre2Interp]
    /// Engines whose counts follow other semantics: a difference is a note, not an error.
    static let otherSemantics: Set<String> = [hyperscan]
}

enum Status: Equatable {
    case ok
    case skipped(String)
    case failed(label: String, message: String)

    var label: String {
        switch self {
        case .ok: return "ok"
        case .skipped: return "skipped"
        case .failed(let label, _): return label
        }
    }
    var message: String {
        switch self {
        case .ok: return ""
        case .skipped(let why): return why
        case .failed(_, let message): return message
        }
    }
}

/// One workload on one engine.
struct Measurement {
    var workload: String
    var kind: String
    var haystack: String
    var engine: String
    var status: Status = .ok
    /// Bytes searched per run (a prefix when the engine was too slow for all of it).
    var bytes = 0
    var haystackBytes = 0
    var seconds: [Double] = []
    var buildSeconds: [Double] = []
    var count: Int?
    var countKind: CountKind = .matches
    /// Table bytes (in-process Turnstile) or peak RSS (child processes).
    var memoryBytes: Int?
    var memoryKind = ""
    /// Whole-process tools: median time on an empty file with the same arguments.
    var startupSeconds: Double?
    var command = ""
    var detail = ""

    var isPrefix: Bool { bytes < haystackBytes }
    var mbps: [Double] { seconds.map { Double(bytes) / $0 / 1e6 } }
    var medianMBps: Double? { status == .ok && !seconds.isEmpty && bytes > 0 ? median(mbps) : nil }
    var medianSeconds: Double? { seconds.isEmpty ? nil : median(seconds) }
    /// Whole-process tools: MB/s once the start-up time (on an empty file) is taken off.
    var netMBps: Double? {
        guard status == .ok, let t = medianSeconds, let s = startupSeconds, t > s, bytes > 0 else { return nil }
        return Double(bytes) / (t - s) / 1e6
    }
    var medianBuild: Double? { buildSeconds.isEmpty ? nil : median(buildSeconds) }
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

final class Runner {
    let options: CompareOptions
    let corpus: Corpus
    let file: WorkloadFile
    let scratch: String
    let turnstileBinary: String?
    let tools: [String: String]
    var results: [Measurement] = []
    var errors: [String] = []
    var skippedWorkloads: [(String, String)] = []
    /// Called after each workload (main writes the CSV so far, so an interrupted run
    /// keeps what it measured).
    var afterWorkload: ((Runner) -> Void)?
    private var fileCache: [String: String] = [:]
    private var scratchFiles: [String] = []

    init(options: CompareOptions, corpus: Corpus, file: WorkloadFile, scratch: String, turnstileBinary: String?) {
        self.options = options
        self.corpus = corpus
        self.file = file
        self.scratch = scratch
        self.turnstileBinary = turnstileBinary
        var tools: [String: String] = [:]
        if !options.noExternal {
            for name in [EngineName.rg, EngineName.grep, EngineName.pcre2grep] {
                if let path = findExecutable(name) { tools[name] = path }
            }
        }
        self.tools = tools
    }

    // MARK: - Scratch files

    /// Writes `bytes` to a scratch file named `name` (once per name) and returns its path.
    func scratchFile(_ name: String, _ bytes: @autoclosure () -> [UInt8]) -> String {
        if let path = fileCache[name] { return path }
        let path = scratch + "/" + name
        let data = bytes()
        let ok = data.withUnsafeBytes { FileManager.default.createFile(atPath: path, contents: Data($0)) }
        if !ok { fail("cannot write \(path)") }
        fileCache[name] = path
        scratchFiles.append(path)
        return path
    }

    func removeScratch(matching prefix: String) {
        for (name, path) in fileCache where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: path)
            fileCache[name] = nil
        }
    }

    func removeAllScratch() {
        for path in fileCache.values { try? FileManager.default.removeItem(atPath: path) }
        fileCache = [:]
    }

    // MARK: - Timing

    /// Runs `body` `warmups` times untimed and `reps` times timed; returns the times
    /// and the count (every run must give the same count).
    func timed(_ body: () -> Result<Int, EngineFailure>) -> Result<(seconds: [Double], count: Int), EngineFailure> {
        var count: Int? = nil
        var seconds: [Double] = []
        for i in 0..<(options.warmups + options.reps) {
            let t0 = now()
            let r = body()
            let t = now() - t0
            switch r {
            case .failure(let f): return .failure(f)
            case .success(let c):
                if let count, count != c {
                    return .failure(EngineFailure(label: "error", message: "run \(i) counted \(c), an earlier run \(count)"))
                }
                count = c
            }
            if i >= options.warmups { seconds.append(t) }
        }
        return .success((seconds, count ?? 0))
    }

    /// The number of leading bytes an engine that scans `probeBytes` in `probeSeconds`
    /// (of which `fixedSeconds` is start-up) can scan within the run budget: the whole
    /// haystack when it is fast enough, else a line-aligned prefix of at least the probe.
    func choosePrefix(_ haystack: [UInt8], probeBytes: Int, probeSeconds: Double, fixedSeconds: Double = 0) -> Int {
        let speed = Double(probeBytes) / max(probeSeconds - fixedSeconds, 1e-6)
        // A child may take its start-up time plus the budget: start-up (building the
        // automaton, say) is paid once whatever the length, and reported apart.
        let affordable = Int(speed * options.runBudget)
        if affordable >= haystack.count { return haystack.count }
        return lineBoundary(haystack, atMost: max(minimumPrefix, affordable))
    }

    /// The probe run's length, and the shortest prefix an engine is measured on.
    var probeLength: Int { options.quick ? 16 << 10 : 64 << 10 }
    var minimumPrefix: Int { options.quick ? 8 << 10 : 16 << 10 }

    // MARK: - In-process engines

    func measureInProcess(_ m: inout Measurement, haystack: [UInt8], cut: Bool, build: () throws -> BuiltSearcher) -> BuiltSearcher? {
        var searcher: BuiltSearcher? = nil
        var builds: [Double] = []
        // The build is timed as often as the search (at least once, at most 3 times).
        for _ in 0..<max(1, min(3, options.reps)) {
            let t0 = now()
            do {
                searcher = try build()
            } catch let f as EngineFailure {
                m.status = .failed(label: f.label, message: f.message)
                return nil
            } catch {
                m.status = .failed(label: "refused", message: "\(error)")
                return nil
            }
            builds.append(now() - t0)
        }
        guard let s = searcher else { return nil }
        m.buildSeconds = builds
        m.memoryBytes = s.memoryBytes
        m.memoryKind = s.memoryBytes == nil ? "" : "table"
        m.detail = s.detail
        m.haystackBytes = haystack.count
        var length = haystack.count
        if cut && haystack.count > probeLength {
            let probeLength = lineBoundary(haystack, atMost: probeLength)
            let probe = Array(haystack[..<probeLength])
            let t0 = now()
            if case .failure(let f) = s.count(probe) {
                m.status = .failed(label: f.label, message: f.message)
                return s
            }
            length = choosePrefix(haystack, probeBytes: probeLength, probeSeconds: now() - t0)
        }
        let input = length == haystack.count ? haystack : Array(haystack[..<length])
        m.bytes = length
        switch timed({ s.count(input) }) {
        case .failure(let f): m.status = .failed(label: f.label, message: f.message)
        case .success(let r):
            m.seconds = r.seconds
            m.count = r.count
        }
        return s
    }

    // MARK: - Whole-process engines

    struct Command {
        var executable: String
        var arguments: [String]
        var environment: [String: String] = [:]
        var countKind: CountKind
        /// Turns the child's stdout into a count.
        var parse: (String) -> Int? = { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        var display: String { ([executable.split(separator: "/").last.map(String.init) ?? executable] + arguments).joined(separator: " ") }
    }

    func runCommand(_ c: Command, file path: String) -> ChildResult {
        runChild(c.executable, c.arguments + [path], environment: c.environment,
                 stderrPath: scratch + "/stderr.txt", timeout: options.timeout)
    }

    /// The count a child printed, or the failure it reported.
    func outcome(_ r: ChildResult, _ c: Command) -> Result<Int, EngineFailure> {
        if r.timedOut { return .failure(EngineFailure(label: "timeout", message: "killed after \(options.timeout) s")) }
        if r.signal != 0 { return .failure(EngineFailure(label: "error", message: "killed by signal \(r.signal)")) }
        let text = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if r.exitCode >= 2 || (r.exitCode == 1 && !text.isEmpty && c.parse(text) == nil) {
            let first = r.stderr.split(separator: "\n").first.map(String.init) ?? "exit status \(r.exitCode)"
            let label = first.lowercased().contains("limit") ? "match limit" : "error"
            return .failure(EngineFailure(label: label, message: first))
        }
        if text.isEmpty && r.exitCode == 1 { return .success(0) }
        guard let n = c.parse(text) else {
            return .failure(EngineFailure(label: "error", message: "unexpected output '\(text.prefix(80))'"))
        }
        return .success(n)
    }

    func measureChild(_ m: inout Measurement, _ c: Command, haystack: [UInt8], haystackKey: String, cut: Bool) {
        m.command = c.display
        m.countKind = c.countKind
        m.haystackBytes = haystack.count
        let empty = scratchFile("empty.txt", [])
        var startups: [Double] = []
        for _ in 0..<max(1, min(3, options.reps)) {
            let r = runCommand(c, file: empty)
            if case .failure(let f) = outcome(r, c) {
                m.status = .failed(label: f.label, message: "on an empty file: " + f.message)
                return
            }
            startups.append(r.seconds)
        }
        let startup = median(startups)
        m.startupSeconds = startup
        var length = haystack.count
        if cut && haystack.count > probeLength {
            let probeLength = lineBoundary(haystack, atMost: probeLength)
            let probePath = scratchFile("\(haystackKey)-\(probeLength).txt", Array(haystack[..<probeLength]))
            let r = runCommand(c, file: probePath)
            if case .failure(let f) = outcome(r, c) {
                m.status = .failed(label: f.label, message: f.message)
                m.bytes = probeLength
                return
            }
            length = choosePrefix(haystack, probeBytes: probeLength, probeSeconds: r.seconds, fixedSeconds: startup)
            // A 64 KiB probe of a fast tool is mostly start-up noise: while the last
            // probe's time beyond start-up is short and the haystack not yet affordable
            // whole, probe again on a longer prefix (at most twice).
            var probeBytes = probeLength, probeSeconds = r.seconds
            for _ in 0..<2 {
                guard length < haystack.count, probeSeconds - startup < options.runBudget / 10 else { break }
                let next = lineBoundary(haystack, atMost: min(haystack.count, max(probeBytes * 16, length / 4)))
                guard next > probeBytes else { break }
                let nextPath = scratchFile("\(haystackKey)-probe-\(next).txt", Array(haystack[..<next]))
                let r2 = runCommand(c, file: nextPath)
                removeScratch(matching: "\(haystackKey)-probe-\(next).txt")
                guard case .success = outcome(r2, c) else { break }
                probeBytes = next
                probeSeconds = r2.seconds
                length = choosePrefix(haystack, probeBytes: probeBytes, probeSeconds: probeSeconds, fixedSeconds: startup)
            }
        }
        let path = scratchFile("\(haystackKey)-\(length).txt", length == haystack.count ? haystack : Array(haystack[..<length]))
        m.bytes = length
        let result = timed { outcome(runCommand(c, file: path), c) }
        switch result {
        case .failure(let f): m.status = .failed(label: f.label, message: f.message)
        case .success(let r):
            m.seconds = r.seconds
            m.count = r.count
            // One more, untimed run under GNU time for the peak RSS.
            let (_, rss) = runChildMeasuringRSS(c.executable, c.arguments + [path], environment: c.environment,
                                                stderrPath: scratch + "/stderr.txt", rssPath: scratch + "/rss.txt",
                                                timeout: options.timeout)
            m.memoryBytes = rss
            m.memoryKind = rss == nil ? "" : "maxrss"
        }
    }

    /// The whole-process commands for a search workload, by engine.
    func commands(for w: Workload, words: [String]?, patterns: [String]?) -> [String: Command] {
        var out: [String: Command] = [:]
        let ci = w.isCaseInsensitive, ww = w.isWholeWord
        var wordsFile: String? = nil
        if let words {
            wordsFile = scratchFile("words-\(w.name.filter { $0.isLetter || $0.isNumber }).txt",
                                    Array((words.joined(separator: "\n") + "\n").utf8))
        }
        var flags: [String] = []
        if ci { flags.append("-i") }
        if ww { flags.append("-w") }
        var patternArgs: [String] = []
        if let wordsFile { patternArgs = ["-F"] + ["-f", wordsFile] }
        else { for p in patterns ?? [] { patternArgs += ["-e", p] } }

        if let bin = turnstileBinary {
            if ww {
                // The filter's mode: lines with a match (threshold 1, every rule weight 1).
                out[EngineName.turnstileCLI] = Command(
                    executable: bin, arguments: ["filter", "--count"] + flags + patternArgs, countKind: .lines,
                    parse: { text in
                        let parts = text.split(separator: " ")
                        return parts.count == 4 && parts[2] == "spam" ? Int(parts[3]) : nil
                    })
            } else {
                out[EngineName.turnstileCLI] = Command(executable: bin, arguments: ["match", "--count-matches"] + flags + patternArgs, countKind: .matches)
            }
        }
        if let rg = tools[EngineName.rg] {
            // ASCII semantics (--no-unicode), as the other engines: Unicode word
            // boundaries and case folding give other counts on text like "Kapitän".
            // rg 13 refuses --no-unicode with non-ASCII words under -F, so the words go
            // in as one escaped regex per line (non-ASCII bytes as \xHH), which rg
            // turns into the same literal alternation. Matches, or lines for whole words
            // (rg -w is not \b…\b).
            var rgPatterns = patternArgs
            if let words {
                let escaped = words.map(rustRegexEscape).joined(separator: "\n") + "\n"
                rgPatterns = ["-f", scratchFile("words-rx-\(w.name.filter { $0.isLetter || $0.isNumber }).txt", Array(escaped.utf8))]
            }
            let count = ww ? ["-c"] : ["--count-matches"]
            out[EngineName.rg] = Command(executable: rg, arguments: ["--no-config", "--no-unicode"] + count + flags + rgPatterns,
                                         countKind: ww ? .lines : .matches)
        }
        if let grep = tools[EngineName.grep] {
            let syntax = wordsFile == nil ? ["-E"] : []
            out[EngineName.grep] = Command(executable: grep, arguments: ["-c"] + syntax + flags + patternArgs,
                                           environment: ["LC_ALL": "C"], countKind: .lines)
        }
        if let p = tools[EngineName.pcre2grep] {
            out[EngineName.pcre2grep] = Command(executable: p, arguments: ["-c"] + flags + patternArgs, countKind: .lines)
        }
        return out
    }

    // MARK: - Workloads

    func run() {
        for w in file.workloads where options.selects(w.name) {
            if options.quick && w.quick == false {
                skippedWorkloads.append((w.name, "left out of --quick (full run only)"))
                continue
            }
            note("== \(w.name)")
            do {
                switch w.kind {
                case .memchr: try runMemchr(w)
                case .literal, .regex: try runSearch(w)
                case .pathological: try runPathological(w)
                case .buildLiteral, .buildRegex: try runBuild(w)
                case .filter: try runFilter(w)
                }
            } catch {
                skippedWorkloads.append((w.name, "\(error)"))
                note("   skipped: \(error)")
            }
            afterWorkload?(self)
        }
        removeAllScratch()
    }

    func record(_ m: Measurement) {
        let rate = m.medianMBps.map { String(format: "%.1f MB/s", $0) } ?? m.status.label
        let build = m.medianBuild.map { String(format: ", build %.3f s", $0) } ?? ""
        let prefix = m.isPrefix ? " on \(m.bytes) of \(m.haystackBytes) bytes" : ""
        let count = m.count.map { ", \($0) \(m.countKind.rawValue)" } ?? ""
        note("   \(m.engine.padding(toLength: 14, withPad: " ", startingAt: 0)) \(rate)\(prefix)\(count)\(build)\(m.status == .ok ? "" : " — " + m.status.message)")
        results.append(m)
    }

    /// Checks the counts of one row against Turnstile's count on the same bytes.
    /// With `wholeWord`, the turnstile CLI follows grep's -w rule (letters beyond ASCII are
    /// word characters in UTF-8 text) while the in-process reference uses ASCII word
    /// boundaries, so their counts may differ on non-ASCII text: a note, not an error.
    func check(_ row: String, _ ms: [Measurement], wholeWord: Bool = false, reference: (Int, CountKind) -> Int?) {
        for m in ms where m.status == .ok {
            guard let c = m.count, let expected = reference(m.bytes, m.countKind) else { continue }
            if c != expected && EngineName.otherSemantics.contains(m.engine) {
                print("note: \(row): \(m.engine) counted \(c) \(m.countKind.rawValue) in \(m.bytes) bytes, Turnstile \(expected) (other match semantics)")
            } else if c != expected && wholeWord && m.engine == EngineName.turnstileCLI {
                print("note: \(row): \(m.engine) counted \(c) \(m.countKind.rawValue) in \(m.bytes) bytes, Turnstile \(expected) (grep's -w: Unicode word characters in UTF-8 text; the in-process reference uses ASCII boundaries)")
            } else if c != expected {
                let line = "ERROR: \(row): \(m.engine) counted \(c) \(m.countKind.rawValue) in \(m.bytes) bytes, Turnstile \(expected)"
                errors.append(line)
                print(line)
            }
        }
    }

    func spec(_ w: Workload) -> (String, HaystackSpec) {
        guard let name = w.haystack, let s = file.haystacks[name] else { fail("workload '\(w.name)' names no known haystack") }
        return (name, s)
    }

    func runSearch(_ w: Workload) throws {
        let (hname, hspec) = spec(w)
        let haystack = try corpus.haystack(hname, spec: hspec, bytes: options.haystackBytes)
        let words = try w.words.map { try corpus.words($0) }
        let patterns = w.patterns
        let kind = w.kind.rawValue
        var ms: [Measurement] = []
        func base(_ engine: String) -> Measurement {
            Measurement(workload: w.name, kind: kind, haystack: hname, engine: engine)
        }
        // Turnstile first: its counts are the reference.
        var t = base(EngineName.turnstile)
        let turnstile = measureInProcess(&t, haystack: haystack, cut: true) {
            if let words { return try Engines.turnstileLiteral(words: words, caseInsensitive: w.isCaseInsensitive, wholeWord: w.isWholeWord) }
            return try Engines.turnstileRegex(patterns: patterns ?? [], caseInsensitive: w.isCaseInsensitive)
        }
        record(t); ms.append(t)
        var refs: [Int: (matches: Int, lines: Int)] = [:]
        func reference(_ bytes: Int, _ kind: CountKind) -> Int? {
            guard let f = turnstile?.matchesAndLines else { return nil }
            if refs[bytes] == nil { refs[bytes] = f(bytes == haystack.count ? haystack : Array(haystack[..<bytes])) }
            return kind == .matches ? refs[bytes]!.matches : refs[bytes]!.lines
        }

        var hs = base(EngineName.hyperscan)
        if let why = w.skip?[EngineName.hyperscan] { hs.status = .skipped(why) }
        else if Hyperscan.shared == nil { hs.status = .skipped("libhs.so.5 (libhyperscan5) is not installed") }
        else {
            _ = measureInProcess(&hs, haystack: haystack, cut: true) {
                try Engines.hyperscan(words: words, patterns: patterns, caseInsensitive: w.isCaseInsensitive,
                                      wholeWord: w.isWholeWord)
            }
        }
        record(hs); ms.append(hs)

        let (pattern, encoding) = Engines.pcre2Pattern(words: words, patterns: patterns, wholeWord: w.isWholeWord)
        for (engine, jit) in [(EngineName.pcre2JIT, true), (EngineName.pcre2Interp, false)] {
            var m = base(engine)
            if let why = w.skip?[engine] { m.status = .skipped(why) }
            else if !jit && options.noInterpreter { m.status = .skipped("--no-interpreter") }
            else {
                _ = measureInProcess(&m, haystack: haystack, cut: true) {
                    try Engines.pcre2(pattern: pattern, encoding: encoding, caseInsensitive: w.isCaseInsensitive, jit: jit)
                }
            }
            record(m); ms.append(m)
        }
        let cmds = commands(for: w, words: words, patterns: patterns)
        for engine in [EngineName.turnstileCLI, EngineName.rg, EngineName.grep, EngineName.pcre2grep] {
            var m = base(engine)
            if let why = w.skip?[engine] { m.status = .skipped(why) }
            else if let c = cmds[engine] {
                measureChild(&m, c, haystack: haystack, haystackKey: "\(hname)-\(haystack.count)", cut: true)
            } else {
                m.status = .skipped(engine == EngineName.turnstileCLI
                    ? "turnstile executable not found (build it: swift build -c release --product turnstile)"
                    : options.noExternal ? "--no-external" : "\(engine) is not installed")
            }
            record(m); ms.append(m)
        }
        check(w.name, ms, wholeWord: w.isWholeWord, reference: reference)
        // Prefix files are per workload; the full haystack file is kept for the next one.
        for (name, _) in fileCache where name.hasPrefix("\(hname)-") && !name.hasSuffix("-\(haystack.count).txt") {
            removeScratch(matching: name)
        }
    }

    /// The memory-bandwidth baseline: glibc memchr for a byte, counting occurrences.
    func runMemchr(_ w: Workload) throws {
        let (hname, hspec) = spec(w)
        let haystack = try corpus.haystack(hname, spec: hspec, bytes: options.haystackBytes)
        let byte = Int32(w.byte ?? 0)
        var m = Measurement(workload: w.name, kind: "baseline", haystack: hname, engine: "memchr")
        _ = measureInProcess(&m, haystack: haystack, cut: false) {
            BuiltSearcher(count: { h in
                var n = 0
                h.withUnsafeBufferPointer { b in
                    guard var p = UnsafeRawPointer(b.baseAddress) else { return }
                    let end = p + b.count
                    // SAFETY: p stays within [base, end); memchr reads end - p bytes.
                    while p < end, let hit = memchr(p, byte, end - p) {
                        n += 1
                        p = UnsafeRawPointer(hit) + 1
                    }
                }
                return .success(n)
            }, matchesAndLines: nil, memoryBytes: nil, detail: "glibc memchr for byte \(byte)")
        }
        m.buildSeconds = []
        record(m)
    }

    func runPathological(_ w: Workload) throws {
        let unit = Array((w.unit ?? "a").utf8)
        let sizes = (options.quick ? w.quickSizes : nil) ?? w.sizes ?? [1024]
        let patterns = w.patterns ?? []
        for n in sizes {
            let row = "\(w.name) n=\(n)"
            var haystack: [UInt8] = []
            haystack.reserveCapacity(n)
            while haystack.count < n { haystack += unit }
            haystack = Array(haystack.prefix(n)) + Array((w.tail ?? "").utf8)
            var ms: [Measurement] = []
            func base(_ engine: String) -> Measurement {
                Measurement(workload: row, kind: "pathological", haystack: "\(String(decoding: unit, as: UTF8.self))×\(n)", engine: engine)
            }
            var t = base(EngineName.turnstile)
            _ = measureInProcess(&t, haystack: haystack, cut: false) { try Engines.turnstileRegex(patterns: patterns, caseInsensitive: false) }
            record(t); ms.append(t)
            let (pattern, encoding) = Engines.pcre2Pattern(words: nil, patterns: patterns, wholeWord: false)
            for (engine, jit) in [(EngineName.pcre2JIT, true), (EngineName.pcre2Interp, false)] {
                var m = base(engine)
                if !jit && options.noInterpreter { m.status = .skipped("--no-interpreter") }
                else {
                    _ = measureInProcess(&m, haystack: haystack, cut: false) {
                        try Engines.pcre2(pattern: pattern, encoding: encoding, caseInsensitive: false, jit: jit)
                    }
                }
                record(m); ms.append(m)
            }
            let cmds = commands(for: w, words: nil, patterns: patterns)
            for engine in [EngineName.turnstileCLI, EngineName.rg, EngineName.grep, EngineName.pcre2grep] {
                var m = base(engine)
                if let c = cmds[engine] {
                    measureChild(&m, c, haystack: haystack, haystackKey: "path-\(w.name.filter { $0.isLetter })-\(n)", cut: false)
                } else {
                    m.status = .skipped(engine == EngineName.turnstileCLI ? "turnstile executable not found" : "\(engine) is not installed")
                }
                record(m); ms.append(m)
            }
            // Every match is on the tail line: at most one line has a match.
            let expected = t.status == .ok ? t.count : nil
            check(row, ms) { _, kind in kind == .matches ? expected : expected.map { min($0, 1) } }
        }
    }

    func runBuild(_ w: Workload) throws {
        let words = try w.words.map { try corpus.words($0) }
        var ms: [Measurement] = []
        func base(_ engine: String) -> Measurement { Measurement(workload: w.name, kind: w.kind.rawValue, haystack: "", engine: engine) }
        let regexPatterns: [String]? = w.kind == .buildRegex
            ? (w.patterns ?? words.map { [PCRE2Regex_alternation($0)] })
            : nil
        var t = base(EngineName.turnstile)
        _ = measureInProcess(&t, haystack: [], cut: false) {
            if let regexPatterns { return try Engines.turnstileRegex(patterns: regexPatterns, caseInsensitive: false, roomy: true) }
            return try Engines.turnstileLiteral(words: words ?? [], caseInsensitive: false, wholeWord: false)
        }
        t.seconds = []; t.count = nil
        record(t); ms.append(t)
        let (pattern, encoding) = regexPatterns != nil
            ? Engines.pcre2Pattern(words: nil, patterns: regexPatterns, wholeWord: false)
            : Engines.pcre2Pattern(words: words, patterns: nil, wholeWord: false)
        for (engine, jit) in [(EngineName.pcre2JIT, true), (EngineName.pcre2Interp, false)] {
            var m = base(engine)
            _ = measureInProcess(&m, haystack: [], cut: false) {
                try Engines.pcre2(pattern: pattern, encoding: encoding, caseInsensitive: false, jit: jit)
            }
            m.seconds = []; m.count = nil
            record(m); ms.append(m)
        }
        var cli = base(EngineName.turnstileCLI)
        if let bin = turnstileBinary {
            var args = ["compile", "--stats"]
            if let regexPatterns { for p in regexPatterns { args += ["-e", p] } }
            else if let words {
                let path = scratchFile("build-words-\(words.count).txt", Array((words.joined(separator: "\n") + "\n").utf8))
                args += ["-F", "-f", path]
            }
            cli.command = "turnstile " + args.map { $0.count > 60 ? String($0.prefix(57)) + "..." : $0 }.joined(separator: " ")
            var times: [Double] = []
            var rss = 0
            for _ in 0..<max(1, min(3, options.reps)) {
                let (r, peak) = runChildMeasuringRSS(bin, args, stderrPath: scratch + "/stderr.txt",
                                                     rssPath: scratch + "/rss.txt", timeout: options.timeout)
                if r.exitCode != 0 || r.timedOut {
                    cli.status = .failed(label: r.timedOut ? "timeout" : "error",
                                         message: r.stderr.split(separator: "\n").first.map(String.init) ?? "exit \(r.exitCode)")
                    break
                }
                times.append(r.seconds)
                rss = max(rss, peak ?? 0)
                cli.detail = r.stdout.split(separator: "\n").joined(separator: "; ")
            }
            cli.buildSeconds = times
            cli.memoryBytes = rss
            cli.memoryKind = "maxrss"
        } else {
            cli.status = .skipped("turnstile executable not found")
        }
        record(cli)
    }

    func runFilter(_ w: Workload) throws {
        let (hname, hspec) = spec(w)
        let total = options.quick ? 1 << 20 : Int((w.sizeMiB ?? 1024) * 1_048_576)
        // One generated block (at most 16 MiB), written as many times as it takes.
        let block = try corpus.haystack(hname, spec: hspec, bytes: min(total, 16 << 20))
        let copies = max(1, total / block.count)
        var m = Measurement(workload: w.name, kind: "filter", haystack: "\(hname) (\(copies) × \(block.count) bytes)", engine: EngineName.turnstileCLI)
        guard let bin = turnstileBinary else {
            m.status = .skipped("turnstile executable not found")
            record(m)
            return
        }
        // The expected count: the library's SpamFilter, record by record, on one block.
        let filter = try SpamFilter.standard()
        var spamPerBlock = 0
        for line in block.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
            if filter.verdict(for: Array(line)).isSpam { spamPerBlock += 1 }
        }
        let path = scratch + "/filter-stream.txt"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot write \(path)") }
        let data = block.withUnsafeBytes { Data($0) }
        for _ in 0..<copies { handle.write(data) }
        try handle.close()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let c = Command(executable: bin, arguments: ["filter", "--count"], countKind: .lines, parse: { text in
            let parts = text.split(separator: " ")
            return parts.count == 4 && parts[2] == "spam" ? Int(parts[3]) : nil
        })
        m.command = c.display + " FILE"
        m.bytes = block.count * copies
        m.haystackBytes = m.bytes
        m.countKind = .lines
        var rss = 0
        var times: [Double] = []
        var count: Int? = nil
        for _ in 0..<max(1, min(3, options.reps)) {
            // Under GNU time (about 1 ms more per run, nothing next to a 1 GiB stream).
            let (r, peak) = runChildMeasuringRSS(c.executable, c.arguments + [path], stderrPath: scratch + "/stderr.txt",
                                                 rssPath: scratch + "/rss.txt", timeout: max(options.timeout, 600))
            switch outcome(r, c) {
            case .failure(let f):
                m.status = .failed(label: f.label, message: f.message)
            case .success(let n):
                times.append(r.seconds); count = n; rss = max(rss, peak ?? 0)
            }
            if m.status != .ok { break }
        }
        m.seconds = times
        m.count = count
        m.memoryBytes = rss
        m.memoryKind = "maxrss"
        m.detail = "built-in spam list; expected \(spamPerBlock * copies) spam lines (SpamFilter in-process)"
        record(m)
        check(w.name, [m]) { _, _ in spamPerBlock * copies }
    }
}

/// The words as one regex alternation, escaped (for the build-regex workloads).
func PCRE2Regex_alternation(_ words: [String]) -> String {
    Engines.pcre2Pattern(words: words, patterns: nil, wholeWord: false).0
}

/// `word` as a Rust regex (rg's syntax) matching its bytes: meta characters escaped
/// with a backslash, non-ASCII bytes as `\xHH` (for `--no-unicode`).
func rustRegexEscape(_ word: String) -> String {
    var out = ""
    for byte in word.utf8 {
        if byte >= 0x80 || byte < 0x20 {
            out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        } else {
            let c = Character(Unicode.Scalar(byte))
            if "\\.+*?()|[]{}^$#&-~".contains(c) { out.append("\\") }
            out.append(c)
        }
    }
    return out
}

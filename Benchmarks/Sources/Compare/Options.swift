// Command-line options of `compare` (plain parsing: the benchmark package adds no
// dependency beyond the library it measures).

import Foundation

struct CompareOptions {
    /// CI smoke run: tiny haystacks, one repetition, no warm-up, small pathological sizes.
    var quick = false
    /// Haystack size in MiB (full run); file haystacks are repeated in memory to this size.
    var sizeMiB: Double = 128
    /// Only workloads whose name contains one of these (case-insensitive).
    var filters: [String] = []
    /// Where table.md, results.csv and chart.svg go (nil: print the table only).
    var outDir: String?
    /// Timed repetitions after the warm-up.
    var reps = 5
    /// Warm-up runs (not timed).
    var warmups = 1
    /// Seconds one timed run may take before the haystack is cut to a prefix (see
    /// `Runner.choosePrefix`); slow engines are then measured on fewer bytes.
    var runBudget: Double = 1.0
    /// Seconds after which a child process is killed and reported as a timeout.
    var timeout: Double = 60
    /// Shared corpora folder (default: $TURNSTILE_SHARED_CORPORA or ../shared/corpora
    /// beside the repository).
    var corpora: String?
    /// The workload file (default: Corpora/bench/workloads.json in the repository).
    var workloads: String?
    /// The `turnstile` executable for the whole-process rows.
    var turnstileBinary: String?
    /// Leave out grep, rg and pcre2grep.
    var noExternal = false
    /// Leave out the PCRE2 interpreter (it is the slowest engine by far).
    var noInterpreter = false
    /// Scratch folder for haystack files and word lists (default: <out>/../tmp or $TMPDIR).
    var scratch: String?

    static let usage = """
        usage: compare [--quick] [--size MiB] [--filter NAME]... [--out DIR] [--reps N]
                       [--warmups N] [--budget SECONDS] [--timeout SECONDS]
                       [--corpora DIR] [--workloads FILE] [--turnstile PATH]
                       [--scratch DIR] [--no-external] [--no-interpreter]

        Measures every workload of Corpora/bench/workloads.json on Turnstile (in-process
        and the turnstile CLI), PCRE2 (JIT and interpreter, in-process), Hyperscan (in-process,
        the anchor, when libhs.so.5 is installed) and, when they are installed, grep, rg and
        pcre2grep (whole process). Prints a Markdown table; with
        --out also writes table.md, results.csv and chart.svg there. Exits 1 when two
        engines disagree on a count (printed as ERROR lines), 2 on a usage error.

          --quick          CI smoke run: 256 KiB haystacks, one repetition, small inputs,
                           run budget 0.1 s (16 KiB probe), child timeout 2 s
          --size MiB       haystack size for the full run (default 128)
          --filter NAME    only workloads whose name contains NAME (repeatable)
          --out DIR        write table.md, results.csv, chart.svg into DIR
          --reps N         timed repetitions after warm-up (default 5; quick: 1)
          --warmups N      untimed warm-up runs (default 1; quick: 0)
          --budget S       seconds a timed run may take before the haystack is cut to a
                           prefix for that engine (default 1.0)
          --timeout S      kill a child process after S seconds (default 60)
          --corpora DIR    the shared corpora (default $TURNSTILE_SHARED_CORPORA, else
                           ../shared/corpora beside the repository)
          --turnstile PATH the turnstile executable (default $TURNSTILE_BIN, else
                           .build/release/turnstile here or in the repository)
        """

    static func parse(_ arguments: [String]) -> CompareOptions {
        var o = CompareOptions()
        var repsGiven = false, warmupsGiven = false, budgetGiven = false
        var i = 1
        func value(_ flag: String) -> String {
            i += 1
            guard i < arguments.count else { fail("\(flag) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--quick": o.quick = true
            case "--size":
                guard let v = Double(value(a)), v > 0 else { fail("--size needs a positive number of MiB") }
                o.sizeMiB = v
            case "--filter": o.filters.append(value(a).lowercased())
            case "--out": o.outDir = value(a)
            case "--reps":
                guard let v = Int(value(a)), v >= 1 else { fail("--reps needs a positive integer") }
                o.reps = v; repsGiven = true
            case "--warmups":
                guard let v = Int(value(a)), v >= 0 else { fail("--warmups needs a non-negative integer") }
                o.warmups = v; warmupsGiven = true
            case "--budget":
                guard let v = Double(value(a)), v > 0 else { fail("--budget needs a positive number of seconds") }
                o.runBudget = v; budgetGiven = true
            case "--timeout":
                guard let v = Double(value(a)), v > 0 else { fail("--timeout needs a positive number of seconds") }
                o.timeout = v
            case "--corpora": o.corpora = value(a)
            case "--workloads": o.workloads = value(a)
            case "--turnstile": o.turnstileBinary = value(a)
            case "--scratch": o.scratch = value(a)
            case "--no-external": o.noExternal = true
            case "--no-interpreter": o.noInterpreter = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default: fail("unknown argument '\(a)'")
            }
            i += 1
        }
        if o.quick {
            if !repsGiven { o.reps = 1 }
            if !warmupsGiven { o.warmups = 0 }
            if !budgetGiven { o.runBudget = 0.1 }
            o.timeout = min(o.timeout, 2)
        }
        return o
    }

    /// Bytes of a file haystack in this run.
    var haystackBytes: Int { quick ? 256 << 10 : Int(sizeMiB * 1_048_576) }

    func selects(_ name: String) -> Bool {
        filters.isEmpty || filters.contains { name.lowercased().contains($0) }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("compare: \(message)\n\(CompareOptions.usage)\n".utf8))
    exit(2)
}

func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

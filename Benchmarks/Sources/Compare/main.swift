// compare: every workload of Corpora/bench/workloads.json on Turnstile, PCRE2 (JIT and
// interpreter, in-process) and grep / rg / pcre2grep (whole process), in one run and
// one process. Prints a Markdown table; --out DIR also writes table.md, results.csv
// and chart.svg. Exit status: 0 when every count agrees, 1 on any disagreement, 2 on
// a usage or setup error.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

let options = CompareOptions.parse(CommandLine.arguments)
guard let root = repositoryRoot() else {
    fail("cannot find Corpora/bench/workloads.json above \(FileManager.default.currentDirectoryPath); run from the repository or Benchmarks/")
}
let workloadPath = options.workloads ?? root.appendingPathComponent("Corpora/bench/workloads.json").path
guard let workloadData = FileManager.default.contents(atPath: workloadPath) else { fail("cannot read \(workloadPath)") }
let workloadFile: WorkloadFile
do {
    workloadFile = try JSONDecoder().decode(WorkloadFile.self, from: workloadData)
} catch {
    fail("\(workloadPath): \(error)")
}

let env = ProcessInfo.processInfo.environment
let besideRoot: String = root.deletingLastPathComponent().path + "/shared/corpora"
let corporaCandidates: [String] = [options.corpora, env["TURNSTILE_SHARED_CORPORA"], besideRoot].compactMap { $0 }
let corporaDir = corporaCandidates.first { FileManager.default.fileExists(atPath: $0 + "/SOURCES.md") || FileManager.default.fileExists(atPath: $0 + "/rebar") }
if corporaDir == nil {
    note("compare: shared corpora not found (tried \(corporaCandidates.joined(separator: ", "))); workloads that need them are skipped. Set TURNSTILE_SHARED_CORPORA or --corpora.")
}

let rootPath: String = root.path
let turnstileCandidates: [String] = [options.turnstileBinary, env["TURNSTILE_BIN"],
                                     rootPath + "/Benchmarks/.build/release/turnstile",
                                     rootPath + "/.build/release/turnstile"].compactMap { $0 }
let turnstileBinary = turnstileCandidates.first { FileManager.default.isExecutableFile(atPath: $0) }
if turnstileBinary == nil {
    note("compare: no turnstile executable (tried \(turnstileCandidates.joined(separator: ", "))); its rows are skipped. Build it with: swift build -c release --product turnstile")
}

@MainActor func defaultScratch() -> String {
    if let out = options.outDir {
        let parent: URL = URL(fileURLWithPath: out).deletingLastPathComponent()
        return parent.appendingPathComponent("tmp").path
    }
    let tmp: String = env["TMPDIR"] ?? "/tmp"
    return tmp + "/turnstile-compare-" + String(getpid())
}
let scratch: String = options.scratch ?? defaultScratch()
try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)

@MainActor func shell(_ command: String) -> String {
    let r = runChild("/bin/sh", ["-c", command], stderrPath: scratch + "/stderr.txt", timeout: 10)
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

let started = Date()
let load0 = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
let corpus = Corpus(corporaDir: corporaDir, options: options)
let runner = Runner(options: options, corpus: corpus, file: workloadFile, scratch: scratch, turnstileBinary: turnstileBinary)
let partialPath: String? = options.outDir.map { $0 + "/results.partial.csv" }
if let out = options.outDir, let partialPath {
    try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    runner.afterWorkload = { r in
        let partial = Report(results: r.results, errors: r.errors, skippedWorkloads: r.skippedWorkloads, header: [])
        try? partial.csv().write(toFile: partialPath, atomically: true, encoding: .utf8)
    }
}
runner.run()
if let partialPath { try? FileManager.default.removeItem(atPath: partialPath) }
let elapsed = Date().timeIntervalSince(started)
let load1 = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"

let dateFormatter = ISO8601DateFormatter()
let cpu = shell("lscpu | sed -n 's/^Model name: *//p' | head -1")
let cores = shell("nproc")
let memory = shell("free -g | awk '/^Mem:/ {print $2 \" GiB\"}'")
let kernel = shell("uname -srm")
@MainActor func toolVersion(_ name: String, _ command: String) -> String {
    let version: String = runner.tools[name] == nil ? "not installed" : shell(command)
    return name + ": " + version
}
var versions: [String] = []
versions.append(toolVersion("rg", "rg --version | head -1"))
versions.append(toolVersion("grep", "grep --version | head -1"))
versions.append(toolVersion("pcre2grep", "pcre2grep --version 2>&1 | head -1"))
versions.append("swift: " + shell("swift --version 2>&1 | head -1"))
let loadNote: String = (Double(load0.split(separator: " ").first ?? "0") ?? 0) > 0.5
    ? " — other processes were running (shared machine); expect ±15 % noise" : ""
let sizeText: String = options.quick ? "256 KiB" : formatRate(options.sizeMiB) + " MiB"
let commandText: String = "compare " + CommandLine.arguments.dropFirst().joined(separator: " ")
let header: [String] = [
    "# Turnstile benchmarks: \(options.quick ? "quick smoke run" : "full run")",
    "",
    "- Date: \(dateFormatter.string(from: started)) (took \(Int(elapsed)) s)",
    "- Machine: \(cpu), \(cores) cores, \(memory); \(kernel)",
    "- Load average at start / end: \(load0) / \(load1)\(loadNote)",
    "- Tools: " + versions.joined(separator: "; "),
    "- Haystacks: \(sizeText) per file haystack, repeated in memory from the shared corpora; runs: \(options.warmups) warm-up + \(options.reps) timed; run budget \(options.runBudget) s (slower engines measured on a prefix, marked ¹)",
    "- Command: `\(commandText)` (release build of Benchmarks/Sources/Compare)",
]
let report = Report(results: runner.results, errors: runner.errors, skippedWorkloads: runner.skippedWorkloads, header: header)
let markdown = report.markdown()
print(markdown)
if let out = options.outDir {
    try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    func write(_ name: String, _ text: String) {
        let path = out + "/" + name
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch { fail("cannot write \(path): \(error)") }
        note("compare: wrote \(path)")
    }
    write("table.md", markdown)
    write("results.csv", report.csv())
    let day: String = String(dateFormatter.string(from: started).prefix(10))
    let chartTitle: String = "Turnstile vs PCRE2, ripgrep, grep — " + (options.quick ? "quick run" : sizeText + " haystacks") + ", " + day
    write("chart.svg", report.svg(title: chartTitle))
}
if options.scratch == nil && options.outDir == nil { try? FileManager.default.removeItem(atPath: scratch) }
if !runner.errors.isEmpty {
    note("compare: \(runner.errors.count) disagreement(s); see the ERROR lines above")
    exit(1)
}

// The outputs: a Markdown table (summary with the Turnstile / PCRE2-JIT ratio, then
// pathological inputs, builds, start-up costs and per-engine details), a CSV file with
// one row per workload and engine, and an SVG chart (grouped bars, log scale).

import Foundation

let engineTitles: [String: String] = [
    EngineName.turnstile: "Turnstile", EngineName.hyperscan: "Hyperscan", EngineName.pcre2JIT: "PCRE2-JIT", EngineName.pcre2Interp: "PCRE2-interp",
    EngineName.turnstileCLI: "turnstile CLI", EngineName.rg: "rg", EngineName.grep: "grep", EngineName.pcre2grep: "pcre2grep",
]

func formatRate(_ v: Double) -> String {
    if v >= 100 { return String(format: "%.0f", v) }
    if v >= 10 { return String(format: "%.1f", v) }
    if v >= 0.1 { return String(format: "%.2f", v) }
    return String(format: "%.4f", v)
}

func formatSeconds(_ s: Double) -> String {
    if s >= 1 { return String(format: "%.2f s", s) }
    if s >= 1e-3 { return String(format: "%.1f ms", s * 1e3) }
    return String(format: "%.1f µs", s * 1e6)
}

func formatBytes(_ b: Int) -> String {
    if b >= 1 << 20 { return String(format: "%.1f MiB", Double(b) / 1_048_576) }
    if b >= 1 << 10 { return String(format: "%.1f KiB", Double(b) / 1024) }
    return "\(b) B"
}

/// Text for a Markdown table cell (a `|` would end the cell).
func md(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }

func grouped(_ n: Int) -> String {
    let s = String(n)
    var out = ""
    for (i, ch) in s.reversed().enumerated() {
        if i > 0 && i % 3 == 0 { out.append(",") }
        out.append(ch)
    }
    return String(out.reversed())
}

struct Report {
    let results: [Measurement]
    let errors: [String]
    let skippedWorkloads: [(String, String)]
    let header: [String]

    /// Rows in first-seen order.
    func rows(where predicate: (Measurement) -> Bool) -> [(String, [String: Measurement])] {
        var order: [String] = []
        var map: [String: [String: Measurement]] = [:]
        for m in results where predicate(m) {
            if map[m.workload] == nil { order.append(m.workload); map[m.workload] = [:] }
            map[m.workload]![m.engine] = m
        }
        return order.map { ($0, map[$0]!) }
    }

    func cell(_ m: Measurement?) -> String {
        guard let m else { return "" }
        switch m.status {
        case .ok:
            guard let v = m.medianMBps else { return "" }
            let rates = m.mbps
            var s = formatRate(v)
            if rates.count > 1 { s += " <sub>\(formatRate(rates.min()!))–\(formatRate(rates.max()!))</sub>" }
            if m.isPrefix { s += " ¹" }
            return s
        case .skipped: return "skipped"
        case .failed(let label, _): return "**\(label)**"
        }
    }

    func markdown() -> String {
        var out = header.joined(separator: "\n") + "\n\n"
        let searchRows = rows { $0.kind == "literal" || $0.kind == "regex" }
        let engines = EngineName.all.filter { e in results.contains { $0.engine == e && ($0.kind == "literal" || $0.kind == "regex") } }
        if !searchRows.isEmpty {
            out += "## Search throughput (MB/s = 10⁶ bytes/s; median, <sub>min–max</sub> of the timed runs)\n\n"
            out += "| workload | haystack | matches (Turnstile) | " + engines.map { engineTitles[$0] ?? $0 }.joined(separator: " | ") + " | Turnstile / PCRE2-JIT | Turnstile / Hyperscan |\n"
            out += "|---|---|--:|" + engines.map { _ in "--:|" }.joined() + "--:|--:|\n"
            for (name, byEngine) in searchRows {
                let t = byEngine[EngineName.turnstile]
                let j = byEngine[EngineName.pcre2JIT]
                var ratio = ""
                if let a = t?.medianMBps, let b = j?.medianMBps { ratio = String(format: "%.2f×", a / b) }
                else if t?.medianMBps != nil, let j, case .failed(let label, _) = j.status { ratio = "PCRE2 \(label)" }
                var anchor = ""
                if let a = t?.medianMBps, let h = byEngine[EngineName.hyperscan]?.medianMBps { anchor = String(format: "%.2f×", a / h) }
                let any = byEngine.values.max { $0.haystackBytes < $1.haystackBytes }!
                let count = t?.count.map(grouped) ?? ""
                out += "| \(md(name)) | \(any.haystack) \(formatBytes(any.haystackBytes)) | \(count) | "
                    + engines.map { cell(byEngine[$0]) }.joined(separator: " | ") + " | \(ratio) | \(anchor) |\n"
            }
            out += "\n¹ measured on a line-aligned prefix of the haystack, because a run over all of it would exceed the run budget (bytes in the CSV and in the details below). "
            out += "In-process engines (Turnstile, Hyperscan, PCRE2) count matches in memory (Hyperscan, the anchor, reports every match end: its count is the greedy non-overlapping one and may differ where matches overlap); whole-process tools include process start-up (building the automaton too) and reading the file: see the start-up table, and MB/s net of start-up in the details. "
            out += "turnstile CLI runs `match --count-matches` (matches), or `filter --count` for whole-word rows (lines with a match); rg runs `--count-matches`, or `-c` for whole-word rows; grep and pcre2grep run `-c` (lines with a match). Every other count is checked against Turnstile's on the same bytes.\n\n"
        }

        let baselines = results.filter { $0.kind == "baseline" }
        if !baselines.isEmpty {
            out += "## Baseline\n\n| workload | haystack | MB/s (median, min–max) |\n|---|---|--:|\n"
            for m in baselines { out += "| \(md(m.workload)) | \(m.haystack) \(formatBytes(m.haystackBytes)) | \(cell(m)) |\n" }
            out += "\n"
        }

        let pathRows = rows { $0.kind == "pathological" }
        if !pathRows.isEmpty {
            let pe = EngineName.all.filter { e in results.contains { $0.engine == e && $0.kind == "pathological" } }
            out += "## Pathological patterns (time per search: the unit repeated n times, then a line holding the one match)\n\n"
            out += "| pattern, input length | " + pe.map { engineTitles[$0] ?? $0 }.joined(separator: " | ") + " |\n"
            out += "|---|" + pe.map { _ in "--:|" }.joined() + "\n"
            for (name, byEngine) in pathRows {
                out += "| \(md(name)) | " + pe.map { e -> String in
                    guard let m = byEngine[e] else { return "" }
                    switch m.status {
                    case .ok: return m.medianSeconds.map(formatSeconds) ?? ""
                    case .skipped: return "skipped"
                    case .failed(let label, _): return "**\(label)**"
                    }
                }.joined(separator: " | ") + " |\n"
            }
            out += "\nWhole-process times include start-up (a few ms). **match limit**: PCRE2 gave up with its match-limit error (PCRE2_ERROR_MATCHLIMIT, reported as an error, not a crash).\n\n"
        }

        let buildRows = rows { $0.kind.hasPrefix("build") }
        if !buildRows.isEmpty {
            out += "## Build (median time; memory: table bytes in-process, peak RSS of `turnstile compile --stats` as a child)\n\n"
            out += "| workload | Turnstile | Turnstile table | PCRE2-JIT compile | PCRE2-interp compile | turnstile compile (process) | peak RSS |\n"
            out += "|---|--:|--:|--:|--:|--:|--:|\n"
            for (name, e) in buildRows {
                func b(_ m: Measurement?) -> String {
                    guard let m else { return "" }
                    if case .failed(let label, _) = m.status { return "**\(label)**" }
                    if case .skipped = m.status { return "skipped" }
                    return m.medianBuild.map(formatSeconds) ?? ""
                }
                let t = e[EngineName.turnstile], c = e[EngineName.turnstileCLI]
                out += "| \(md(name)) | \(b(t)) | \(t?.memoryBytes.map(formatBytes) ?? "") | \(b(e[EngineName.pcre2JIT])) | \(b(e[EngineName.pcre2Interp])) | \(b(c)) | \(c?.memoryBytes.map(formatBytes) ?? "") |\n"
            }
            out += "\n"
        }

        let filterRows = results.filter { $0.kind == "filter" }
        if !filterRows.isEmpty {
            out += "## turnstile filter on a generated stream\n\n| workload | bytes | MB/s (median) | spam lines | peak RSS | runs |\n|---|--:|--:|--:|--:|--:|\n"
            for m in filterRows {
                out += "| \(md(m.workload)) | \(grouped(m.bytes)) | \(m.medianMBps.map(formatRate) ?? "**\(m.status.label)**") | \(m.count.map(grouped) ?? "") | \(m.memoryBytes.map(formatBytes) ?? "") | \(m.seconds.count) |\n"
            }
            out += "\n"
        }

        let startupRows = results.filter { $0.startupSeconds != nil }
        if !startupRows.isEmpty {
            out += "## Start-up cost of the whole-process tools (median time on an empty file, same arguments)\n\n"
            let tools = [EngineName.turnstileCLI, EngineName.rg, EngineName.grep, EngineName.pcre2grep].filter { e in startupRows.contains { $0.engine == e } }
            out += "| workload | " + tools.map { engineTitles[$0]! }.joined(separator: " | ") + " |\n|---|" + tools.map { _ in "--:|" }.joined() + "\n"
            for (name, e) in rows(where: { $0.startupSeconds != nil && $0.kind != "pathological" }) {
                out += "| \(md(name)) | " + tools.map { e[$0]?.startupSeconds.map(formatSeconds) ?? "" }.joined(separator: " | ") + " |\n"
            }
            out += "\n"
        }

        out += "## Details\n\nMB/s net: whole-process MB/s with the start-up time (median on an empty file) taken off.\n\n"
        out += "| workload | engine | bytes searched | runs | count | MB/s net | start-up | build | memory | command / automaton |\n|---|---|--:|--:|--:|--:|--:|--:|--:|---|\n"
        for m in results {
            let count = m.count.map { "\(grouped($0)) \(m.countKind.rawValue)" } ?? ""
            let mem = m.memoryBytes.map { "\(formatBytes($0)) \(m.memoryKind)" } ?? ""
            var what = m.command.isEmpty ? m.detail : "`\(m.command.count > 140 ? String(m.command.prefix(137)) + "..." : m.command)`"
            if m.status != .ok { what = "\(m.status.label): \(m.status.message) " + what }
            what = what.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
            out += "| \(md(m.workload)) | \(engineTitles[m.engine] ?? m.engine) | \(m.bytes > 0 ? grouped(m.bytes) : "") | \(m.seconds.count) | \(count) | \(m.netMBps.map(formatRate) ?? "") | \(m.startupSeconds.map(formatSeconds) ?? "") | \(m.medianBuild.map(formatSeconds) ?? "") | \(mem) | \(what) |\n"
        }
        out += "\n"
        if !skippedWorkloads.isEmpty {
            out += "## Workloads not run\n\n" + skippedWorkloads.map { "- \($0.0): \($0.1)" }.joined(separator: "\n") + "\n\n"
        }
        out += errors.isEmpty ? "All counts agree.\n" : "## Disagreements\n\n" + errors.map { "- " + $0 }.joined(separator: "\n") + "\n"
        return out
    }

    func csv() -> String {
        func q(_ s: String) -> String { s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s }
        var out = "workload,kind,haystack,engine,status,message,bytes,haystack_bytes,runs,mbps_median,mbps_min,mbps_max,mbps_net_of_startup,seconds_median,startup_seconds,build_seconds_median,count,count_kind,memory_bytes,memory_kind,command,detail\n"
        for m in results {
            let r = m.mbps
            let fields: [String] = [
                m.workload, m.kind, m.haystack, m.engine, m.status.label, m.status.message,
                String(m.bytes), String(m.haystackBytes), String(m.seconds.count),
                m.medianMBps.map { String(format: "%.3f", $0) } ?? "",
                r.isEmpty || m.status != .ok ? "" : String(format: "%.3f", r.min()!),
                r.isEmpty || m.status != .ok ? "" : String(format: "%.3f", r.max()!),
                m.netMBps.map { String(format: "%.3f", $0) } ?? "",
                m.medianSeconds.map { String(format: "%.6f", $0) } ?? "",
                m.startupSeconds.map { String(format: "%.6f", $0) } ?? "",
                m.medianBuild.map { String(format: "%.6f", $0) } ?? "",
                m.count.map(String.init) ?? "", m.count == nil ? "" : m.countKind.rawValue,
                m.memoryBytes.map(String.init) ?? "", m.memoryKind, m.command, m.detail,
            ]
            out += fields.map(q).joined(separator: ",") + "\n"
        }
        return out
    }

    /// Horizontal grouped bars: one group per search workload, one bar per engine,
    /// MB/s on a log scale; failures are marked with their label instead of a bar.
    func svg(title: String) -> String {
        let data = rows { $0.kind == "literal" || $0.kind == "regex" }
        let engines = EngineName.all.filter { e in results.contains { $0.engine == e && ($0.kind == "literal" || $0.kind == "regex") } }
        let colors: [String: String] = [
            EngineName.turnstile: "#d62728", EngineName.hyperscan: "#17becf", EngineName.pcre2JIT: "#1f77b4", EngineName.pcre2Interp: "#9ecae1",
            EngineName.turnstileCLI: "#ff9896", EngineName.rg: "#2ca02c", EngineName.grep: "#9467bd", EngineName.pcre2grep: "#8c564b",
        ]
        let barH = 9.0, groupGap = 14.0
        let left = 250.0, right = 40.0, top = 92.0, plotW = 720.0
        let groupH = Double(engines.count) * barH + groupGap
        let height = top + Double(data.count) * groupH + 50
        let width = left + plotW + right
        let values = results.compactMap { $0.medianMBps }.filter { $0 > 0 }
        let lo = pow(10, floor(log10(max(values.min() ?? 0.1, 1e-3))))
        let hi = pow(10, ceil(log10(max(values.max() ?? 1000, lo * 10))))
        func x(_ v: Double) -> Double { left + (log10(max(v, lo)) - log10(lo)) / (log10(hi) - log10(lo)) * plotW }
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        var s = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(Int(width / 2))" y="22" text-anchor="middle" font-size="16" font-weight="bold">\(esc(title))</text>
        <text x="\(Int(width / 2))" y="40" text-anchor="middle" font-size="11" fill="#444">MB/s (10⁶ bytes/s), median of timed runs, log scale; longer is faster</text>

        """
        // Legend.
        var lx = left
        for e in engines {
            s += "<rect x=\"\(Int(lx))\" y=\"52\" width=\"12\" height=\"12\" fill=\"\(colors[e]!)\"/><text x=\"\(Int(lx + 16))\" y=\"62\">\(esc(engineTitles[e]!))</text>\n"
            lx += 16 + Double(engineTitles[e]!.count) * 7 + 18
        }
        // Grid and axis labels.
        var decade = lo
        while decade <= hi * 1.001 {
            let gx = x(decade)
            s += "<line x1=\"\(gx)\" y1=\"\(top - 6)\" x2=\"\(gx)\" y2=\"\(height - 40)\" stroke=\"#ccc\"/>\n"
            let label = decade >= 1 ? grouped(Int(decade)) : String(decade)
            s += "<text x=\"\(gx)\" y=\"\(top - 10)\" text-anchor=\"middle\" fill=\"#444\">\(label)</text>\n"
            s += "<text x=\"\(gx)\" y=\"\(height - 26)\" text-anchor=\"middle\" fill=\"#444\">\(label)</text>\n"
            decade *= 10
        }
        s += "<text x=\"\(left + plotW / 2)\" y=\"\(height - 8)\" text-anchor=\"middle\">MB/s</text>\n"
        for (g, (name, byEngine)) in data.enumerated() {
            let gy = top + Double(g) * groupH
            if g % 2 == 1 {
                s += "<rect x=\"0\" y=\"\(gy - groupGap / 2)\" width=\"\(Int(width))\" height=\"\(groupH)\" fill=\"#f4f4f4\" opacity=\"0.6\"/>\n"
            }
            s += "<text x=\"\(left - 8)\" y=\"\(gy + Double(engines.count) * barH / 2 + 4)\" text-anchor=\"end\" font-size=\"12\">\(esc(name))</text>\n"
            for (i, e) in engines.enumerated() {
                let by = gy + Double(i) * barH
                guard let m = byEngine[e] else { continue }
                if let v = m.medianMBps {
                    let w = max(x(v) - left, 1)
                    s += "<rect x=\"\(left)\" y=\"\(by)\" width=\"\(String(format: "%.1f", w))\" height=\"\(barH - 1.5)\" fill=\"\(colors[e]!)\"><title>\(esc(engineTitles[e]!)): \(formatRate(v)) MB/s\(m.isPrefix ? " (prefix)" : "")</title></rect>\n"
                    s += "<text x=\"\(String(format: "%.1f", left + w + 3))\" y=\"\(by + barH - 2)\" font-size=\"8\" fill=\"#333\">\(formatRate(v))</text>\n"
                } else {
                    let label = m.status == .ok ? "" : m.status.label
                    s += "<text x=\"\(left + 3)\" y=\"\(by + barH - 2)\" font-size=\"8\" fill=\"\(colors[e]!)\">\(esc(engineTitles[e]!)): \(esc(label))</text>\n"
                }
            }
        }
        s += "<line x1=\"\(left)\" y1=\"\(top - 6)\" x2=\"\(left)\" y2=\"\(height - 40)\" stroke=\"#333\"/>\n</svg>\n"
        return s
    }
}

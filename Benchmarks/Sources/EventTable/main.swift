// event-table: nanoseconds per event of the gate workloads (EventWorkloads), the table in
// the README's "Typed event machines" section (issue 36). Release build, one process:
//
//   swift run -c release event-table [--events N] [--runs R] [--only TEXT]
//
// Each variant fires N alternating coin/push events (default 1,000,000), R times (default
// 7) after one warm-up run; the table gives the median and the min–max in ns per event
// of the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so that time the thread spends
// descheduled on a busy machine is not counted; caches shared with other processes still
// are (the header prints the load average).
import EventMachine
import EventWorkloads
#if canImport(Glibc)
import Glibc
#endif

var events = 1_000_000
var runs = 7
var only: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--events": events = Int(arguments.next() ?? "") ?? events
    case "--runs": runs = Int(arguments.next() ?? "") ?? runs
    case "--only": only = arguments.next()   // one variant whose name contains this (for profiling)
    default: print("usage: event-table [--events N] [--runs R] [--only TEXT]"); exit(2)
    }
}

@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }

/// ns per event of `body(n)` (which fires n events): median, min, max over `runs`.
typealias Row = (String, (median: Double, min: Double, max: Double))
var rows: [Row] = []

/// Runs `body` and adds its row, or — with `--only` — runs it once if its name matches.
@MainActor func measure(_ name: String, _ body: (Int) -> Void) {
    if let only {
        if name.contains(only) { body(events) }
        return
    }
    rows.append((name, measureTimes(body)))
}

@MainActor func measureAsync(_ name: String, _ body: (Int) async -> Void) async {
    if let only {
        if name.contains(only) { await body(events) }
        return
    }
    rows.append((name, await measureAsyncTimes(body)))
}

/// The calling thread's CPU time in ns.
func threadCPUTime() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec)
}

@MainActor func measureTimes(_ body: (Int) -> Void) -> (median: Double, min: Double, max: Double) {
    body(events / 10)
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = threadCPUTime()
        body(events)
        samples.append((threadCPUTime() - start) / Double(events))
    }
    samples.sort()
    return (samples[samples.count / 2], samples.first!, samples.last!)
}

@MainActor func measureAsyncTimes(_ body: (Int) async -> Void) async -> (median: Double, min: Double, max: Double) {
    await body(events / 10)
    var samples: [Double] = []
    for _ in 0..<runs {
        // An idle machine's `send` never suspends, so the main actor's thread runs it all.
        let start = threadCPUTime()
        await body(events)
        samples.append((threadCPUTime() - start) / Double(events))
    }
    samples.sort()
    return (samples[samples.count / 2], samples.first!, samples.last!)
}


measure("hand-written `switch`") { n in
    var gate = SwitchGate()
    let ev = gateEvents   // a local copy: reading the global costs a once-check per event
    for i in 0..<n { gate.fire(ev[i & 1]) }
    keep(gate.passengers)
}
measure("class per state (GKStateMachine's design)") { n in
    let gate = ClassPerStateGate()
    let ev = gateEvents   // a local copy: reading the global costs a once-check per event
    for i in 0..<n { gate.fire(ev[i & 1]) }
    keep(gate.current)
}
let plain = plainGate()
measure("`StateMachine.fire`, no hooks") { n in
    let ev = gateEvents   // a local copy: reading the global costs a once-check per event
    for i in 0..<n { keep(try! plain.fire(ev[i & 1])) }
}
let counter = HookCounter()
let hooked = hookedGate(counter)
measure("`fire` with 2 hooks + an observer") { n in
    let ev = gateEvents   // a local copy: reading the global costs a once-check per event
    for i in 0..<n { keep(try! hooked.fire(ev[i & 1])) }
}
let refusing = refusingGate()
measure("a refused event (throws)") { n in
    for _ in 0..<n {
        // `throws(...)`: an untyped catch boxes the typed error into `any Error` (a malloc).
        do throws(StateMachine<Gate, GateEvent>.TransitionError) { try refusing.fire(.push) } catch { keep(error) }
    }
}
let mainActor = plainMainActorGate()
measure("`MainActorStateMachine.fire`, no hooks") { n in
    let ev = gateEvents   // a local copy: reading the global costs a once-check per event
    for i in 0..<n { keep(try! mainActor.fire(ev[i & 1])) }
}
let sender = plainGate()
await measureAsync("`await send` on an idle machine") { n in
    let ev = gateEvents   // a local copy: reading the global costs a once-check per event
    for i in 0..<n { keep(try! await sender.send(ev[i & 1])) }
}

if only != nil { exit(0) }
var load = [Double](repeating: 0, count: 3)
_ = getloadavg(&load, 3)
print("events per run: \(events), runs: \(runs), load average before the run: \(load.map { String(Int($0 * 100)) }.joined(separator: " ")) (÷100)")
print("")
print("| variant | ns per event, CPU time (median) | min–max |")
print("|---|--:|--:|")
func format(_ x: Double) -> String {
    let scaled = Int((x * 10).rounded())
    return "\(scaled / 10).\(scaled % 10)"
}
for (name, r) in rows {
    print("| \(name) | \(format(r.median)) | \(format(r.min))–\(format(r.max)) |")
}

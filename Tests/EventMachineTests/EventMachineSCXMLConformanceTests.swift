// Cases of the W3C SCXML 1.0 Implementation Report test suite (https://www.w3.org/Voice/2013/scxml-irp/),
// translated into Statecharts: each test's states, ids and document order as in its
// .txml file; `<raise>` becomes `.raise`, `<log>` `.log`, `event="*"` `.onAny`, a
// counter of the ecmascript datamodel a `Vars` entry changed by `.run`, a condition a
// guard. Each machine ends in `pass` or `fail` as the test does; a timeout `<send>`
// that only guards against a hang is left out (a machine here never waits).
//
// The README's conformance table lists these numbers; a case the machine cannot yet
// express (executable content in `<initial>` or in a history's default transition:
// tests 412, 579) is listed there as not translated, not written here to fail.

import EventMachine
import Synchronization
import Testing

typealias SC = Statechart<String, String>

/// The datamodel's counters (`var1`, `Var4`), shared by a test's actions and guards.
final class Vars: Sendable {
    private let values = Mutex<[String: Int]>([:])
    func add(_ name: String, _ amount: Int = 1) { values.withLock { $0[name, default: 0] += amount } }
    func set(_ name: String, _ value: Int) { values.withLock { $0[name] = value } }
    func get(_ name: String) -> Int { values.withLock { $0[name, default: 0] } }
    func `is`(_ name: String, _ value: Int) -> SC.Guard { { _ in self.get(name) == value } }
    func increment(_ name: String) -> SC.Action { .run { _ in self.add(name) } }
}

/// Starts `chart` and returns the final state it reached (`pass` or `fail`), or its
/// configuration when it reached neither.
func outcome(_ chart: SC.Definition, then events: [String] = []) -> [String] {
    let machine = SC(chart)
    machine.start()
    for e in events { machine.fire(e) }
    if machine.isIn("pass") { return ["pass"] }
    if machine.isIn("fail") { return ["fail"] }
    return machine.configuration
}

@Suite("SCXML conformance (W3C IRP cases)")
struct EventMachineSCXMLConformanceTests {
    @Test("test144: raised events are queued in the order raised")
    func test144() throws {
        let chart = try SC.Definition(states: [
            .state("s0", entry: [.raise("foo"), .raise("bar")], on: [.on("foo", to: "s1"), .onAny(to: "fail")]),
            .state("s1", on: [.on("bar", to: "pass"), .onAny(to: "fail")]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test355: the default initial state is the first child in document order")
    func test355() throws {
        let chart = try SC.Definition(states: [
            .state("s0", on: [.always(to: "pass")]),
            .state("s1", on: [.always(to: "fail")]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test388: shallow and deep history restore the states exited")
    func test388() throws {
        let vars = Vars()
        let entering: @Sendable (String) -> SC.Guard = { prefix in
            { s in if case .event(let e)? = s.trigger { e.hasPrefix(prefix) } else { false } }
        }
        let chart = try SC.Definition(initial: "s012", states: [
            .state("s0", initial: "s01", entry: [vars.increment("var1")], on: [
                .on("entering.s012", to: "s1", when: vars.is("var1", 1)),
                .on("entering.s012", to: "s2", when: vars.is("var1", 2)),
                .onAny(to: "fail", when: { s in vars.get("var1") == 2 && entering("entering")(s) }),
                .on("entering.s011", to: "pass", when: vars.is("var1", 3)),
                .onAny(to: "fail", when: { s in vars.get("var1") == 3 && entering("entering")(s) }),
            ], [
                .history("s0HistShallow", default: "s02"),
                .history("s0HistDeep", deep: true, default: "s022"),
                .state("s01", initial: "s011", [
                    .state("s011", entry: [.raise("entering.s011")]),
                    .state("s012", entry: [.raise("entering.s012")]),
                ]),
                .state("s02", initial: "s021", [
                    .state("s021", entry: [.raise("entering.s021")]),
                    .state("s022", entry: [.raise("entering.s022")]),
                ]),
            ]),
            .state("s1", on: [.always(to: "s0HistDeep")]),
            .state("s2", on: [.always(to: "s0HistShallow")]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
        #expect(vars.get("var1") == 3)
    }

    @Test("test404: states are exited children first, reverse document order, before the transition's content")
    func test404() throws {
        let chart = try SC.Definition(states: [
            .state("s0", initial: "s01p", [
                .parallel("s01p", exit: [.raise("event3")], on: [.always(to: "s02", actions: [.raise("event4")])], [
                    .state("s01p1", exit: [.raise("event2")]),
                    .state("s01p2", exit: [.raise("event1")]),
                ]),
                .state("s02", on: [.on("event1", to: "s03"), .onAny(to: "fail")]),
                .state("s03", on: [.on("event2", to: "s04"), .onAny(to: "fail")]),
                .state("s04", on: [.on("event3", to: "s05"), .onAny(to: "fail")]),
                .state("s05", on: [.on("event4", to: "pass"), .onAny(to: "fail")]),
            ]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test405: transitions' content runs in document order after every exit")
    func test405() throws {
        let chart = try SC.Definition(states: [
            .state("s0", initial: "s01p", [
                .parallel("s01p", on: [.on("event1", to: "s02")], [
                    .state("s01p1", initial: "s01p11", [
                        .state("s01p11", exit: [.raise("event2")], on: [.always(to: "s01p12", actions: [.raise("event3")])]),
                        .state("s01p12"),
                    ]),
                    .state("s01p2", initial: "s01p21", [
                        .state("s01p21", exit: [.raise("event1")], on: [.always(to: "s01p22", actions: [.raise("event4")])]),
                        .state("s01p22"),
                    ]),
                ]),
                .state("s02", on: [.on("event2", to: "s03"), .onAny(to: "fail")]),
                .state("s03", on: [.on("event3", to: "s04"), .onAny(to: "fail")]),
                .state("s04", on: [.on("event4", to: "pass"), .onAny(to: "fail")]),
            ]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test406: states are entered parents first, document order, after the transition's content")
    func test406() throws {
        let chart = try SC.Definition(states: [
            .state("s0", initial: "s01", [
                .state("s01", on: [.always(to: "s0p2", actions: [.raise("event1")])]),
                .parallel("s0p2", entry: [.raise("event2")], on: [.on("event1", to: "s03")], [
                    .state("s01p21", entry: [.raise("event3")]),
                    .state("s01p22", entry: [.raise("event4")]),
                ]),
                .state("s03", on: [.on("event2", to: "s04"), .onAny(to: "fail")]),
                .state("s04", on: [.on("event3", to: "s05"), .onAny(to: "fail")]),
                .state("s05", on: [.on("event4", to: "pass"), .onAny(to: "fail")]),
            ]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test413: the initial attribute sets the configuration, one state per region")
    func test413() throws {
        let chart = try SC.Definition(initial: "s2p112", "s2p122", states: [
            .state("s1", on: [.always(to: "fail")]),
            .state("s2", initial: "s2p1", [
                .parallel("s2p1", on: [.always(to: "fail")], [
                    .state("s2p11", initial: "s2p111", [
                        .state("s2p111", on: [.always(to: "fail")]),
                        .state("s2p112", on: [.always(to: "pass", when: { $0.isIn("s2p122") })]),
                    ]),
                    .state("s2p12", initial: "s2p121", [
                        .state("s2p121", on: [.always(to: "fail")]),
                        .state("s2p122", on: [.always(to: "pass", when: { $0.isIn("s2p112") })]),
                    ]),
                ]),
            ]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test419: eventless transitions come before internal and external events")
    func test419() throws {
        let chart = try SC.Definition(states: [
            .state("s1", entry: [.raise("internalEvent")], on: [.onAny(to: "fail"), .always(to: "pass")]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart, then: ["externalEvent"]) == ["pass"])
    }

    @Test("test503: a targetless transition does not exit its source")
    func test503() throws {
        let vars = Vars()
        let chart = try SC.Definition(states: [
            .state("s1", entry: [.raise("foo"), .raise("bar")], on: [.always(to: "s2")]),
            .state("s2", exit: [vars.increment("var1")], on: [
                .on("foo", actions: [vars.increment("var2")]),
                .on("bar", to: "s3", when: vars.is("var2", 1)),
                .on("bar", to: "fail"),
            ]),
            .state("s3", on: [.always(to: "pass", when: vars.is("var1", 1)), .always(to: "fail")]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test504: an external transition exits every state up to the LCCA")
    func test504() throws {
        let vars = Vars()
        let chart = try SC.Definition(states: [
            .state("s1", entry: [.raise("foo"), .raise("bar")], on: [.always(to: "p")]),
            .state("s2", exit: [vars.increment("var5")], [
                .parallel("p", exit: [vars.increment("var1")], on: [
                    .on("foo", to: "ps1", actions: [vars.increment("var4")]),
                    .on("bar", to: "s3", when: vars.is("var4", 1)),
                    .on("bar", to: "fail"),
                ], [
                    .state("ps1", exit: [vars.increment("var2")]),
                    .state("ps2", exit: [vars.increment("var3")]),
                ]),
            ]),
            .state("s3", on: [.always(to: "s4", when: vars.is("var1", 2)), .always(to: "fail")]),
            .state("s4", on: [.always(to: "s5", when: vars.is("var2", 2)), .always(to: "fail")]),
            .state("s5", on: [.always(to: "s6", when: vars.is("var3", 2)), .always(to: "fail")]),
            .state("s6", on: [.always(to: "pass", when: vars.is("var5", 1)), .always(to: "fail")]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test533: an internal transition from a parallel state exits it like an external one")
    func test533() throws {
        let vars = Vars()
        let chart = try SC.Definition(states: [
            .state("s1", entry: [.raise("foo"), .raise("bar")], on: [.always(to: "p")]),
            .parallel("p", exit: [vars.increment("Var1")], on: [
                .on("foo", to: "ps1", internal: true, actions: [vars.increment("Var4")]),
                .on("bar", to: "s2", when: vars.is("Var4", 1)),
                .on("bar", to: "fail"),
            ], [
                .state("ps1", exit: [vars.increment("Var2")]),
                .state("ps2", exit: [vars.increment("Var3")]),
            ]),
            .state("s2", on: [.always(to: "s3", when: vars.is("Var1", 2)), .always(to: "fail")]),
            .state("s3", on: [.always(to: "s4", when: vars.is("Var2", 2)), .always(to: "fail")]),
            .state("s4", on: [.always(to: "pass", when: vars.is("Var3", 2)), .always(to: "fail")]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }

    @Test("test570: done.state of a parallel state follows its regions' done events")
    func test570() throws {
        let vars = Vars()
        let chart = try SC.Definition(states: [
            .parallel("p0", entry: [.raise("e1"), .raise("e2")], on: [
                .onDone("p0s1", actions: [.run { _ in vars.set("Var1", 1) }]),
                .onDone("p0s2", to: "s1"),
            ], [
                .state("p0s1", initial: "p0s11", [.state("p0s11", on: [.on("e1", to: "p0s1final")]), .final("p0s1final")]),
                .state("p0s2", initial: "p0s21", [.state("p0s21", on: [.on("e2", to: "p0s2final")]), .final("p0s2final")]),
            ]),
            .state("s1", on: [.onDone("p0", to: "pass", when: vars.is("Var1", 1)), .onAny(to: "fail")]),
            .final("pass"), .final("fail"),
        ])
        #expect(outcome(chart) == ["pass"])
    }
}

// DOT export of the state graph, and the README example compiled and run as a test.

import TestSupport
import Testing
import AutomatonCore
import EventMachine

@Suite("EventMachine DOT and README")
struct EventMachineDOTTests {
    typealias Keyboard = EventMachineFixtures.Keyboard
    typealias KeyboardEvent = EventMachineFixtures.KeyboardEvent

    @Test("EventMachine DOT: initial state marked, one edge per table entry labelled by its event")
    func turnstileDOT() throws {
        let gate = try EventMachineFixtures.makeGate()
        #expect(gate.definition.dot(name: "turnstile") == """
            digraph "turnstile" {
              rankdir=LR;
              node [shape=ellipse];
              "__start" [shape=point, label=""];
              "__start" -> "locked";
              "locked";
              "unlocked";
              "locked" -> "unlocked" [label="coin"];
              "locked" -> "locked" [label="push"];
              "unlocked" -> "unlocked" [label="coin"];
              "unlocked" -> "locked" [label="push"];
            }

            """)
        // The machine's export fills the current state.
        try gate.fire(.coin)
        let dot = gate.dot(name: "turnstile")
        #expect(dot.contains("  \"unlocked\" [style=filled, fillcolor=lightgrey];\n"))
        #expect(dot.contains("  \"locked\";\n"))
        #expect(dot.contains("  \"__start\" -> \"locked\";\n"))   // still the initial state
    }

    @Test("EventMachine DOT of the keyboard: 12 labelled edges, none for the 4 invalid cells")
    func keyboardDOT() throws {
        let definition = try StateMachine<Keyboard, KeyboardEvent>.Definition(
            initial: .prepareToEditText, rules: EventMachineFixtures.keyboardRules)
        let dot = definition.dot()
        let lines = dot.split(separator: "\n").map(String.init)
        let edges = lines.filter { $0.contains(" -> ") && !$0.contains("__start") }
        #expect(edges.count == 12)
        #expect(lines.contains("  \"__start\" -> \"prepareToEditText\";"))
        #expect(edges.contains("  \"showingPanel\" -> \"prepareToEditText\" [label=\"clickMoreButton\"];"))
        #expect(edges.contains("  \"prepareToRecord\" -> \"editingText\" [label=\"clickSwitchButton\"];"))
        #expect(edges.contains("  \"editingText\" -> \"prepareToEditText\" [label=\"vcDidTapped\"];"))
        #expect(!edges.contains { $0.hasPrefix("  \"prepareToRecord\" ->") && $0.contains("tapTextField") })
        #expect(!edges.contains { $0.hasPrefix("  \"prepareToEditText\" ->") && $0.contains("vcDidTapped") })
        #expect(dot.hasPrefix("digraph \"StateMachine\" {\n"))
        #expect(dot.hasSuffix("}\n"))
    }

    @Test("EventMachine DOT quotes names")
    func quoting() throws {
        enum Odd: Discriminated, CaseIterable, Hashable, CustomStringConvertible {
            case plain, quoted
            var description: String { self == .plain ? "plain" : "say \"hi\"\\" }
        }
        let definition = try StateMachine<Odd, Odd>.Definition(initial: .quoted, rules: [.on(.quoted, from: .plain, to: .quoted)])
        let dot = definition.dot(name: "a \"b\"")
        #expect(dot.hasPrefix("digraph \"a \\\"b\\\"\" {\n"))
        #expect(dot.contains("  \"__start\" -> \"say \\\"hi\\\"\\\\\";\n"))
        #expect(dot.contains("  \"plain\" -> \"say \\\"hi\\\"\\\\\" [label=\"say \\\"hi\\\"\\\\\"];\n"))
    }

    @Test("EventMachine README example compiles and runs")
    func readmeExample() throws {
        // --- README example (keep in sync with the README section) ---
        enum Gate: Discriminated, CaseIterable, Hashable { case locked, unlocked }
        enum GateEvent: Discriminated, Hashable {
            case coin(cents: Int), push

            // The cases rules name; the data stays with the event.
            enum Case: CaseIterable, Hashable, Sendable { case coin, push }
            var `case`: Case {
                switch self {
                case .coin: .coin
                case .push: .push
                }
            }
            var cents: Int { if case .coin(let cents) = self { cents } else { 0 } }
        }

        // The table, defined once, apart from any machine; compiled to a DenseDFA.
        let turnstile = try StateMachine<Gate, GateEvent>.Definition(initial: .locked, rules: [
            .on(.coin, from: [.locked, .unlocked], to: .unlocked),
            .on(.push, from: [.locked, .unlocked], to: .locked),
        ])

        let gate = StateMachine(turnstile)
        gate.addGuard(for: .coin) { t in (t.event?.cents ?? 0) >= 25 }
        gate.onDidEnter(.unlocked) { t in print("paid \(t.event?.cents ?? 0) cents") }
        gate.observe { t in print(t) }                       // "locked --coin(cents: 25)--> unlocked"

        try gate.fire(.coin(cents: 25))                      // start, guard, hooks, observers
        assert(gate.state == .unlocked)
        do {
            try gate.fire(.coin(cents: 10))
        } catch {
            print(error)   // event coin in state unlocked was refused by a guard (it would lead to unlocked)
        }
        try gate.fire(.push)
        do {
            try gate.fire(.coin(cents: 5))
        } catch {
            assert(error.kind == .refusedByGuard(event: .coin, state: .locked, destination: .unlocked))
        }
        print(turnstile.dot(name: "turnstile"))              // Graphviz source
        // --- end of README example ---

        #expect(gate.state == .locked)
        #expect(turnstile.dot(name: "turnstile").contains("\"locked\" -> \"unlocked\" [label=\"coin\"];"))
    }
    @Test("EventMachine README section shows exactly the tested code")
    func readmeShowsExactlyTheTestedCode() throws {
        let readme = try #require(ReadmeSnippet.swiftBlockBody(under: "### Typed event machines"),
                                  "README.md has no ```swift block under '### Typed event machines'")
        #expect(readme.imports == ["import EventMachine"])
        let region = ReadmeSnippet.markedRegion(
            inFile: #filePath, begin: "// --- README example (keep in sync with the README section) ---",
            end: "// --- end of README example ---")
        #expect(readme.body == region, "README.md's event machine example differs from EventMachineDOTTests.swift")
    }
}

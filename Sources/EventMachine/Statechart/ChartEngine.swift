// The W3C SCXML interpretation algorithm (SCXML 1.0, Appendix D, "Algorithm for SCXML
// Interpretation"), over integer state ids: compound and parallel states, final states
// and done events, shallow and deep history, eventless transitions, internal events
// (`raise`) processed before the next external one, conflicts between transitions of
// parallel regions resolved in document order, exit in reverse document order and
// entry in document order.
//
// Why a core of its own over integers: the typed front end (Statechart.swift) maps its
// states and events to ids once, so this file is not generic at all — nothing here is
// specialized per app or looked up through generic metadata, in a debug build as much
// as in a release one (issue 56, "debug cost"). State ids are pre-order positions, so
// "document order" is `<` on ids; the root (SCXML's <scxml> element) is id 0.
//
// Known limits: no datamodel (guards and actions are the front end's closures), no
// <invoke>, no <send> with delays; a transition's executable content is a list of the
// front end's action indices.

/// What kind of node a state id is.
@usableFromInline
enum ChartKind: UInt8, Sendable {
    case atomic, compound, parallel, final, history, deepHistory
}

/// A transition of the integer chart.
@usableFromInline
struct ChartTransition: Sendable {
    /// The state the transition belongs to.
    var source: Int
    /// What triggers it: an event id, a done event of a state (`isDone`), nothing
    /// (-1: eventless, SCXML's transition without `event`), or any event (-3: `*`).
    var trigger: Int
    var isDone: Bool
    /// Target ids in document order of declaration; empty for a targetless transition.
    var targets: [Int]
    /// SCXML's type="internal": a transition to descendants does not exit its source.
    var isInternal: Bool
    /// Index of the guard in the front end's guard list; -1 when there is none.
    var guardIndex: Int
    /// Indices of the transition's actions in the front end's action list.
    var actions: [Int]
}

/// The compiled, immutable chart: every state's kind, parent, children, initial
/// targets, transitions and entry/exit actions, by id.
@usableFromInline
final class ChartTable: Sendable {
    let kind: [ChartKind]
    let parent: [Int]
    let children: [[Int]]
    /// For compound states: the initial targets (default: the first child state).
    /// For history states: the default targets.
    let initial: [[Int]]
    /// Transitions owned by each state, in document order.
    let transitions: [[Int]]
    let allTransitions: [ChartTransition]
    let entryActions: [[Int]]
    let exitActions: [[Int]]

    init(kind: [ChartKind], parent: [Int], children: [[Int]], initial: [[Int]], transitions: [[Int]],
         allTransitions: [ChartTransition], entryActions: [[Int]], exitActions: [[Int]]) {
        self.kind = kind
        self.parent = parent
        self.children = children
        self.initial = initial
        self.transitions = transitions
        self.allTransitions = allTransitions
        self.entryActions = entryActions
        self.exitActions = exitActions
    }

    var count: Int { kind.count }

    func isAtomic(_ s: Int) -> Bool { kind[s] == .atomic || kind[s] == .final }
    func isCompound(_ s: Int) -> Bool { kind[s] == .compound }
    func isHistory(_ s: Int) -> Bool { kind[s] == .history || kind[s] == .deepHistory }

    /// `true` when `s` is a proper descendant of `ancestor`.
    func isDescendant(_ s: Int, of ancestor: Int) -> Bool {
        var x = parent[s]
        while x != -1 { if x == ancestor { return true }; x = parent[x] }
        return false
    }

    /// The proper ancestors of `s`, innermost first, up to (not including) `upTo`.
    func properAncestors(_ s: Int, upTo: Int = -1) -> [Int] {
        var result: [Int] = []
        var x = parent[s]
        while x != -1, x != upTo { result.append(x); x = parent[x] }
        return result
    }
}

/// One thing the interpreter did, in order: what the log records.
@usableFromInline
enum ChartStep: Sendable, Equatable {
    case exit(Int)
    case transition(Int)   // index into allTransitions
    case enter(Int)
    case log(String)
}

/// A signal in the internal or external queue: an event id or a done event of a state.
@usableFromInline
struct ChartSignal: Sendable, Equatable {
    var id: Int
    var isDone: Bool
}

/// The running interpreter: configuration, history, the internal queue.
///
/// Not thread-safe by itself: the front end serializes calls (one processor at a time)
/// and `mutate` is called around every change of the configuration, so readers on
/// other threads see whole states only.
@usableFromInline
final class ChartEngine {
    let table: ChartTable
    /// By id: whether the state is active.
    private(set) var active: [Bool]
    /// By history id: the states it recorded.
    var historyValue: [[Int]?]
    var internalQueue: [ChartSignal] = []
    /// `false` once a top-level final state was entered.
    private(set) var running = true
    /// Steps, when logging; the front end drains it.
    var log: [ChartStep] = []
    var logging: Bool

    /// Called around every change of `active` (the front end takes its lock there).
    let mutate: (() -> Void) -> Void

    init(table: ChartTable, logging: Bool, mutate: @escaping (() -> Void) -> Void) {
        self.table = table
        self.active = Array(repeating: false, count: table.count)
        self.historyValue = Array(repeating: nil, count: table.count)
        self.logging = logging
        self.mutate = mutate
    }

    /// Active states in document order.
    var configuration: [Int] { active.indices.filter { active[$0] } }

    /// The guard and action callbacks of one run.
    struct Callbacks {
        var check: (Int, ChartSignal?) -> Bool
        var perform: (Int, ChartSignal?) -> Void
    }

    // MARK: Starting and events

    /// Enters the initial configuration (the root's initial transition), then runs
    /// eventless transitions and internal events to a stable configuration.
    func start(_ callbacks: Callbacks) {
        var entry = Set<Int>(), defaultEntry = Set<Int>()
        addDescendantStatesToEnter(0, &entry, &defaultEntry)
        enter(entry.sorted(), callbacks, event: nil)
        macrostep(callbacks)
    }

    /// Processes one external event: its enabled transitions as one microstep, then
    /// everything it caused (SCXML's macrostep).
    func process(_ signal: ChartSignal, _ callbacks: Callbacks) {
        guard running else { return }
        let enabled = selectTransitions(signal, callbacks)
        if !enabled.isEmpty { microstep(enabled, callbacks, event: signal) }
        macrostep(callbacks)
    }

    func raise(_ signal: ChartSignal) { internalQueue.append(signal) }

    private func macrostep(_ callbacks: Callbacks) {
        while running {
            var enabled = selectTransitions(nil, callbacks)
            var event: ChartSignal?
            if enabled.isEmpty {
                guard !internalQueue.isEmpty else { break }
                let signal = internalQueue.removeFirst()
                event = signal
                enabled = selectTransitions(signal, callbacks)
            }
            if !enabled.isEmpty { microstep(enabled, callbacks, event: event) }
        }
    }

    // MARK: Selecting transitions

    /// For each active atomic state in document order, the first transition (of it,
    /// then of its ancestors) that matches and whose guard holds; conflicts removed.
    /// `signal == nil` selects eventless transitions.
    private func selectTransitions(_ signal: ChartSignal?, _ callbacks: Callbacks) -> [Int] {
        var enabled: [Int] = []
        for s in active.indices where active[s] && table.isAtomic(s) {
            search: for state in [s] + table.properAncestors(s) {
                for t in table.transitions[state] {
                    let tr = table.allTransitions[t]
                    if let signal {
                        guard tr.trigger == -3 || (tr.trigger == signal.id && tr.isDone == signal.isDone && tr.trigger >= 0) else {
                            continue
                        }
                    } else {
                        guard tr.trigger == -1 else { continue }
                    }
                    if tr.guardIndex >= 0, !callbacks.check(tr.guardIndex, signal) { continue }
                    if !enabled.contains(t) { enabled.append(t) }
                    break search
                }
            }
        }
        return removeConflicting(enabled)
    }

    /// Two transitions conflict when their exit sets intersect; the one whose source
    /// is a descendant of the other's wins, else the earlier in document order.
    private func removeConflicting(_ enabled: [Int]) -> [Int] {
        guard enabled.count > 1 else { return enabled }
        var filtered: [Int] = []
        for t1 in enabled {
            var preempted = false
            var toRemove: [Int] = []
            let exit1 = Set(exitSet([t1]))
            for t2 in filtered where !exit1.isDisjoint(with: exitSet([t2])) {
                if table.isDescendant(table.allTransitions[t1].source, of: table.allTransitions[t2].source) {
                    toRemove.append(t2)
                } else {
                    preempted = true
                    break
                }
            }
            if !preempted {
                filtered.removeAll { toRemove.contains($0) }
                filtered.append(t1)
            }
        }
        return filtered
    }

    // MARK: A microstep

    private func microstep(_ transitions: [Int], _ callbacks: Callbacks, event: ChartSignal?) {
        exitStates(transitions, callbacks, event: event)
        for t in transitions {
            if logging { log.append(.transition(t)) }
            for a in table.allTransitions[t].actions { callbacks.perform(a, event) }
        }
        var entry = Set<Int>(), defaultEntry = Set<Int>()
        computeEntrySet(transitions, &entry, &defaultEntry)
        enter(entry.sorted(), callbacks, event: event)
    }

    private func exitSet(_ transitions: [Int]) -> [Int] {
        var result = Set<Int>()
        for t in transitions where !table.allTransitions[t].targets.isEmpty {
            let domain = transitionDomain(t)
            for s in active.indices where active[s] && table.isDescendant(s, of: domain) { result.insert(s) }
        }
        return Array(result)
    }

    /// Exits in reverse document order, recording history first.
    private func exitStates(_ transitions: [Int], _ callbacks: Callbacks, event: ChartSignal?) {
        let exits = exitSet(transitions).sorted(by: >)
        for s in exits {
            for h in table.children[s] where table.isHistory(h) {
                if table.kind[h] == .deepHistory {
                    historyValue[h] = active.indices.filter { active[$0] && table.isAtomic($0) && table.isDescendant($0, of: s) }
                } else {
                    historyValue[h] = table.children[s].filter { active[$0] }
                }
            }
        }
        for s in exits {
            if logging { log.append(.exit(s)) }
            for a in table.exitActions[s] { callbacks.perform(a, event) }
            mutate { active[s] = false }
        }
    }

    /// Enters in document order; a final state raises its parent's done event, and a
    /// parallel grandparent's once every region is final.
    private func enter(_ states: [Int], _ callbacks: Callbacks, event: ChartSignal?) {
        for s in states {
            mutate { active[s] = true }
            if logging { log.append(.enter(s)) }
            for a in table.entryActions[s] { callbacks.perform(a, event) }
            guard table.kind[s] == .final else { continue }
            let p = table.parent[s]
            if p == 0 {
                running = false
                continue
            }
            raise(ChartSignal(id: p, isDone: true))
            let g = table.parent[p]
            if g >= 0, table.kind[g] == .parallel, table.children[g].allSatisfy({ !isRegion($0) || isInFinalState($0) }) {
                raise(ChartSignal(id: g, isDone: true))
            }
        }
    }

    /// History pseudo-states are not regions of a parallel state.
    private func isRegion(_ s: Int) -> Bool { !table.isHistory(s) }

    /// `true` when `s` is in a final configuration: a compound state whose active child
    /// is final, or a parallel state all of whose regions are.
    func isInFinalState(_ s: Int) -> Bool {
        switch table.kind[s] {
        case .compound:
            return table.children[s].contains { active[$0] && table.kind[$0] == .final }
        case .parallel:
            return table.children[s].filter(isRegion).allSatisfy(isInFinalState)
        default:
            return false
        }
    }

    // MARK: Entry sets (SCXML's computeEntrySet and its helpers)

    private func computeEntrySet(_ transitions: [Int], _ entry: inout Set<Int>, _ defaultEntry: inout Set<Int>) {
        for t in transitions {
            let tr = table.allTransitions[t]
            for s in tr.targets { addDescendantStatesToEnter(s, &entry, &defaultEntry) }
            guard !tr.targets.isEmpty else { continue }
            let ancestor = transitionDomain(t)
            for s in effectiveTargets(tr.targets) { addAncestorStatesToEnter(s, upTo: ancestor, &entry, &defaultEntry) }
        }
    }

    private func addDescendantStatesToEnter(_ state: Int, _ entry: inout Set<Int>, _ defaultEntry: inout Set<Int>) {
        if table.isHistory(state) {
            let targets = historyValue[state] ?? table.initial[state]
            for s in targets { addDescendantStatesToEnter(s, &entry, &defaultEntry) }
            for s in targets { addAncestorStatesToEnter(s, upTo: table.parent[state], &entry, &defaultEntry) }
            return
        }
        entry.insert(state)
        switch table.kind[state] {
        case .compound:
            defaultEntry.insert(state)
            for s in table.initial[state] { addDescendantStatesToEnter(s, &entry, &defaultEntry) }
            for s in table.initial[state] { addAncestorStatesToEnter(s, upTo: state, &entry, &defaultEntry) }
        case .parallel:
            for child in table.children[state] where isRegion(child) {
                if !entry.contains(where: { $0 == child || table.isDescendant($0, of: child) }) {
                    addDescendantStatesToEnter(child, &entry, &defaultEntry)
                }
            }
        default:
            break
        }
    }

    private func addAncestorStatesToEnter(_ state: Int, upTo ancestor: Int, _ entry: inout Set<Int>, _ defaultEntry: inout Set<Int>) {
        for anc in table.properAncestors(state, upTo: ancestor) {
            entry.insert(anc)
            guard table.kind[anc] == .parallel else { continue }
            for child in table.children[anc] where isRegion(child) {
                if !entry.contains(where: { $0 == child || table.isDescendant($0, of: child) }) {
                    addDescendantStatesToEnter(child, &entry, &defaultEntry)
                }
            }
        }
    }

    /// Targets with history states replaced by what they stand for.
    private func effectiveTargets(_ targets: [Int]) -> [Int] {
        var result: [Int] = []
        for s in targets {
            if table.isHistory(s) {
                for x in historyValue[s] ?? effectiveTargets(table.initial[s]) where !result.contains(x) { result.append(x) }
            } else if !result.contains(s) {
                result.append(s)
            }
        }
        return result
    }

    /// The innermost compound state (or the root) containing source and targets; the
    /// source itself for an internal transition to its own descendants.
    private func transitionDomain(_ t: Int) -> Int {
        let tr = table.allTransitions[t]
        let targets = effectiveTargets(tr.targets)
        if tr.isInternal, table.isCompound(tr.source), targets.allSatisfy({ table.isDescendant($0, of: tr.source) }) {
            return tr.source
        }
        return lcca([tr.source] + targets)
    }

    /// The least common compound ancestor (SCXML's findLCCA); the root at worst.
    private func lcca(_ states: [Int]) -> Int {
        for anc in table.properAncestors(states[0]) where table.isCompound(anc) || anc == 0 {
            if states.dropFirst().allSatisfy({ table.isDescendant($0, of: anc) }) { return anc }
        }
        return 0
    }
}

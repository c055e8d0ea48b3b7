// What one event does to a machine, worked out from the definition alone before any
// hook runs: the destination value (fixed, computed within the rule's declared cases,
// or the same state for an internal rule), the leaf it resolves to (a parent's initial
// child or its history), the states left (innermost first) and entered (outermost
// first), and which parents save their history. Both machines (StateMachine and
// MainActorStateMachine) execute the same plans, so the semantics live in one place.
//
// Semantics (UML 2 / W3C SCXML): the transition's domain is the innermost state that
// properly contains both the state owning the rule and the target — or, when the target
// lies inside the rule's own state, that state itself (UML's *local* transition, SCXML's
// type="internal"): every active state below the domain is exited and every state from
// the domain down to the new leaf is entered. So a self-transition exits and re-enters
// its state, a child's rule to a sibling exits only the child, a parent's rule to a
// state outside exits the active child and the parent, and a parent's rule to one of
// its own children (a "home" button) leaves the parent entered.
import AutomatonCore

extension StateMachine.Definition {
    /// One event's effect, before any guard or hook has run.
    internal struct Plan: Sendable {
        /// What hooks, guards and observers are given.
        var transition: StateMachine.Transition
        /// State positions left, innermost first.
        var exits: [Int]
        /// State positions entered, outermost first.
        var entries: [Int]
        /// The leaf position the machine ends in.
        var leaf: Int
    }

    /// The plan for `event` in the leaf state `state` (at `leaf`), or the error that
    /// refuses it before any guard. `history` holds, by parent position, the leaf value
    /// the machine last left that parent in.
    internal func plan(
        _ event: Event, in state: State, leaf: Int, history: [State?]
    ) -> Result<Plan, StateMachine.TransitionError> {
        let invalid = StateMachine.TransitionError(.invalidEvent(event: event.case, state: state.case))
        guard let e = eventIndices[event.case] else { return .failure(invalid) }
        guard automaton.next(stateIDs[leaf], class: e) != DenseDFA.deadState else { return .failure(invalid) }
        let rule = rules[ruleAt[leaf * events.count + e]]
        let owner = ruleOwner[leaf * events.count + e]
        let target: State
        switch rule.target {
        case .internal(let update):
            let next = update?(state, event) ?? state
            guard next.case == state.case else {
                return .failure(.init(.undeclaredDestination(event: event.case, state: state.case, destination: next.case)))
            }
            return .success(Plan(
                transition: .init(from: state, event: event, to: next, isInternal: true),
                exits: [], entries: [], leaf: leaf))
        case .fixed(let value):
            target = value
        case .computed(let destination):
            guard let value = destination(state, event) else {
                return .failure(.init(.noDestination(event: event.case, state: state.case)))
            }
            guard rule.destinations.contains(value.case) else {
                return .failure(.init(.undeclaredDestination(event: event.case, state: state.case, destination: value.case)))
            }
            target = value
        }
        // Declared cases were checked against allCases when the definition was built.
        let t = stateIndices[target.case]!
        let (value, newLeaf) = resolved(target, at: t, history: history)
        let domain = self.domain(of: owner, t)
        return .success(Plan(
            transition: .init(from: state, event: event, to: value),
            exits: path(from: leaf, upTo: domain),
            entries: path(from: newLeaf, upTo: domain).reversed(),
            leaf: newLeaf))
    }

    /// The plan that starts a machine in the leaf `state` (at `leaf`): every state
    /// from the top down to the leaf is entered.
    internal func startPlan(in state: State, leaf: Int) -> Plan {
        Plan(transition: .init(from: nil, event: nil, to: state),
             exits: [], entries: path(from: leaf, upTo: -1).reversed(), leaf: leaf)
    }

    /// `target` (at position `t`) resolved to the leaf a machine enters: itself when it
    /// is a leaf, else the parent's history (when kept and set) or initial child, again.
    internal func resolved(_ target: State, at t: Int, history: [State?]) -> (State, Int) {
        var value = target, p = t
        // Each step goes one level down a finite forest (checked when built).
        while let initial = initialChild[p] {
            if keepsHistory[p], let last = history[p] {
                value = last
            } else {
                value = initial
            }
            p = stateIndices[value.case]!
        }
        return (value, p)
    }

    /// The innermost state properly containing both `a` and `b`, or `a` itself when `b`
    /// lies strictly inside it (a local transition); -1 for the top level.
    private func domain(of a: Int, _ b: Int) -> Int {
        if a != b, contains(a, b) { return a }
        var ancestorsOfA: [Int] = []
        var x = parentOf[a]
        while x != -1 { ancestorsOfA.append(x); x = parentOf[x] }
        var d = parentOf[b]
        while d != -1, !ancestorsOfA.contains(d) { d = parentOf[d] }
        return d
    }

    /// `from` and its ancestors below `domain`, innermost first.
    private func path(from: Int, upTo domain: Int) -> [Int] {
        var result: [Int] = []
        var x = from
        while x != domain, x != -1 { result.append(x); x = parentOf[x] }
        return result
    }

    /// `true` when the state at `ancestor` is `leaf` or contains it.
    internal func contains(_ ancestor: Int, _ leaf: Int) -> Bool {
        var x = leaf
        while x != -1 { if x == ancestor { return true }; x = parentOf[x] }
        return false
    }
}

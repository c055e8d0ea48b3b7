// What one event does to a machine, worked out from the definition alone before any
// hook runs: the destination value (fixed, computed within the rule's declared cases,
// the same state for an internal rule, or either for a stay-or-move rule), the leaf it
// resolves to (a parent's initial child or its history), and the transition's domain,
// from which the states left (innermost first) and entered (outermost first) follow.
// Both machines (StateMachine and MainActorStateMachine) execute the same plans, so the
// semantics live in one place.
//
// Semantics (UML 2 / W3C SCXML): the transition's domain is the innermost state that
// properly contains both the state owning the rule and the target — or, when the target
// lies inside the rule's own state, that state itself (UML's *local* transition, SCXML's
// type="internal"): every active state below the domain is exited and every state from
// the domain down to the new leaf is entered. So a self-transition exits and re-enters
// its state, a child's rule to a sibling exits only the child, a parent's rule to a
// state outside exits the active child and the parent, and a parent's rule to one of
// its own children (a "home" button) leaves the parent entered.
//
// A plan holds no array: the states left and entered are walks up `parentOf` and down
// `ancestry` (`forEachExit`, `forEachEntry`), so planning allocates nothing.
import AutomatonCore

extension EventTable {
    /// The compiled form of one (leaf state, event) entry of the table.
    @usableFromInline
    internal struct Cell: Sendable {
        @usableFromInline
        enum Kind: UInt8, Sendable {
            /// No rule: the event is not valid in this state.
            case invalid
            /// One destination value, known when the table was built.
            case fixed
            /// A destination computed from the state and the event.
            case computed
            /// An internal rule without an update: nothing but the hooks happens.
            case internalPlain
            /// An internal rule whose update may change the state's data.
            case internalUpdate
            /// A rule that stays (internally) or moves, as it decides per event.
            case stayOrMove
        }

        @usableFromInline var kind: Kind
        /// For `.fixed`: the destination's position before resolving it to a leaf.
        @usableFromInline var target: Int32
        /// For `.fixed`: the leaf it resolves to, or -1 when that depends on history.
        @usableFromInline var leaf: Int32
        /// For `.fixed`: the transition's domain (-1: the top level).
        @usableFromInline var domain: Int32

        init(kind: Kind, target: Int = -1, leaf: Int = -1, domain: Int = -1) {
            self.kind = kind
            self.target = Int32(target)
            self.leaf = Int32(leaf)
            self.domain = Int32(domain)
        }
    }

    /// One event's effect, before any guard or hook has run.
    @usableFromInline
    internal struct Plan {
        /// What hooks, guards and observers are given.
        @usableFromInline var transition: StateMachine<State, Event>.Transition
        /// The leaf the machine leaves from; -1 for the start.
        @usableFromInline var oldLeaf: Int
        /// The leaf the machine ends in.
        @usableFromInline var leaf: Int
        /// Every active state strictly below the domain is left, and every state from
        /// below the domain down to `leaf` is entered. For an internal transition the
        /// domain is the leaf itself: nothing is left or entered.
        @usableFromInline var domain: Int

        @inlinable
        init(transition: StateMachine<State, Event>.Transition, oldLeaf: Int, leaf: Int, domain: Int) {
            self.transition = transition
            self.oldLeaf = oldLeaf
            self.leaf = leaf
            self.domain = domain
        }
    }

    /// The plan for `event` in the leaf state `state` (at `leaf`), or the error that
    /// refuses it before any guard. `history` holds, by parent position, the leaf value
    /// the machine last left that parent in.
    ///
    /// - Complexity: O(1) for a fixed rule, plus the rule's function for a computed
    ///   one, plus the depth of nesting.
    @inlinable
    internal func plan(
        _ event: Event, in state: State, leaf: Int, history: [State?]
    ) -> Result<Plan, StateMachine<State, Event>.TransitionError> {
        let e = eventIndex.index(of: event.case)
        guard e >= 0 else { return .failure(.init(.invalidEvent(event: event.case, state: state.case))) }
        let i = leaf &* eventCount &+ e
        let cell = cells[i]
        switch cell.kind {
        case .invalid:
            return .failure(.init(.invalidEvent(event: event.case, state: state.case)))
        case .internalPlain:
            return .success(stay(in: state, at: leaf, event: event, value: state))
        case .fixed:
            if cell.leaf >= 0 {
                return .success(Plan(
                    transition: .init(from: state, event: event, to: cellTargets[i].unsafelyUnwrapped),
                    oldLeaf: leaf, leaf: Int(cell.leaf), domain: Int(cell.domain)))
            }
            return .success(move(from: state, at: leaf, event: event, to: cellTargets[i].unsafelyUnwrapped,
                                 position: Int(cell.target), owner: ruleOwner[i], history: history))
        case .internalUpdate, .computed, .stayOrMove:
            return computedPlan(event, in: state, leaf: leaf, index: i, history: history)
        }
    }

    /// The plan of a rule whose destination is computed by the app's closure.
    @inlinable
    internal func computedPlan(
        _ event: Event, in state: State, leaf: Int, index i: Int, history: [State?]
    ) -> Result<Plan, StateMachine<State, Event>.TransitionError> {
        let rule = rules[ruleAt[i]]
        let target: State
        switch rule.target {
        case .fixed(let value):
            target = value
        case .internal(let update):
            let next = update?(state, event) ?? state
            guard next.case == state.case else {
                return .failure(.init(.undeclaredDestination(event: event.case, state: state.case, destination: next.case)))
            }
            return .success(stay(in: state, at: leaf, event: event, value: next))
        case .computed(let destination):
            guard let value = destination(state, event) else {
                return .failure(.init(.noDestination(event: event.case, state: state.case)))
            }
            target = value
        case .stayOrMove(let decide):
            switch decide(state, event) {
            case nil:
                return .failure(.init(.noDestination(event: event.case, state: state.case)))
            case .stay(let value)?:
                guard value.case == state.case else {
                    return .failure(.init(.undeclaredDestination(event: event.case, state: state.case, destination: value.case)))
                }
                return .success(stay(in: state, at: leaf, event: event, value: value))
            case .move(let value)?:
                target = value
            }
        }
        guard rule.destinations.contains(target.case), let t = position(of: target.case) else {
            return .failure(.init(.undeclaredDestination(event: event.case, state: state.case, destination: target.case)))
        }
        return .success(move(from: state, at: leaf, event: event, to: target, position: t, owner: ruleOwner[i], history: history))
    }

    /// An internal transition: the machine stays at `leaf`, its value becomes `value`.
    @inlinable
    internal func stay(in state: State, at leaf: Int, event: Event, value: State) -> Plan {
        Plan(transition: .init(from: state, event: event, to: value, isInternal: true), oldLeaf: leaf, leaf: leaf, domain: leaf)
    }

    /// An external transition from `leaf` to `target` (at `t`) by a rule of `owner`.
    @inlinable
    internal func move(
        from state: State, at leaf: Int, event: Event, to target: State, position t: Int, owner: Int, history: [State?]
    ) -> Plan {
        let (value, newLeaf) = resolved(target, at: t, history: history)
        return Plan(transition: .init(from: state, event: event, to: value), oldLeaf: leaf, leaf: newLeaf,
                    domain: Self.domain(of: owner, t, parentOf: parentOf))
    }

    /// The plan that starts a machine in the leaf `state` (at `leaf`): every state
    /// from the top down to the leaf is entered.
    /// A move straight to `target` without an event (``StateMachine/enter(_:)``): an
    /// external transition from the current leaf, so entering the current state leaves
    /// and re-enters it; a parent resolves to its initial child or its history.
    @usableFromInline
    internal func enterPlan(from state: State, at leaf: Int, to target: State, position t: Int, history: [State?]) -> Plan {
        let (value, newLeaf) = resolved(target, at: t, history: history)
        return Plan(transition: .init(from: state, event: nil, to: value), oldLeaf: leaf, leaf: newLeaf,
                    domain: Self.domain(of: leaf, t, parentOf: parentOf))
    }

    @inlinable
    internal func startPlan(in state: State, leaf: Int) -> Plan {
        Plan(transition: .init(from: nil, event: nil, to: state), oldLeaf: -1, leaf: leaf, domain: -1)
    }

    /// `target` (at position `t`) resolved to the leaf a machine enters: itself when it
    /// is a leaf, else the parent's history (when kept and set) or initial child, again.
    @inlinable
    internal func resolved(_ target: State, at t: Int, history: [State?]) -> (State, Int) {
        var value = target, p = t
        // Each step goes one level down a finite forest (checked when built).
        while let initial = initialChild[p] {
            if keepsHistory[p], let last = history[p] {
                value = last
            } else {
                value = initial
            }
            p = stateIndex.index(of: value.case)
        }
        return (value, p)
    }

    /// The innermost state properly containing both `a` and `b`, or `a` itself when `b`
    /// lies strictly inside it (a local transition); -1 for the top level.
    @inlinable
    internal static func domain(of a: Int, _ b: Int, parentOf: [Int]) -> Int {
        if a != b {
            var x = parentOf[b]
            while x != -1 { if x == a { return a }; x = parentOf[x] }
        }
        var d = parentOf[b]
        while d != -1 {
            var x = parentOf[a]
            while x != -1, x != d { x = parentOf[x] }
            if x == d { return d }
            d = parentOf[d]
        }
        return -1
    }

    /// Calls `body` with each state a plan leaves, innermost first.
    @inlinable
    internal func forEachExit(of plan: Plan, _ body: (Int) -> Void) {
        var x = plan.oldLeaf
        while x != plan.domain, x != -1 { body(x); x = parentOf[x] }
    }

    /// Calls `body` with each state a plan enters, outermost first.
    @inlinable
    internal func forEachEntry(of plan: Plan, _ body: (Int) -> Void) {
        guard plan.leaf != plan.domain else { return }
        let chain = ancestry[plan.leaf]
        var k = 0
        while k < chain.count, chain[k] != plan.domain { k += 1 }
        while k > 0 { k -= 1; body(chain[k]) }
    }

    /// `true` when the state at `ancestor` is `leaf` or contains it.
    @inlinable
    internal func contains(_ ancestor: Int, _ leaf: Int) -> Bool {
        var x = leaf
        while x != -1 { if x == ancestor { return true }; x = parentOf[x] }
        return false
    }
}

// The compiled form of a Definition that machines run per event: for each (leaf state,
// event case) entry, what the rule there does (Cell), where a fixed rule leads, and the
// nesting (parents, ancestry, history). Built once by Definition.init; immutable.
//
// A final class of `let`s rather than fields of the Definition struct: a machine reaches
// it through one reference, so calling into it never copies a struct of twenty arrays
// (that copy — a memcpy and a retain per array — was most of an event's cost with
// hooks; event-table, "2 hooks + an observer"). TransitionPlan.swift holds its methods.

/// The per-event half of a ``StateMachine/Definition``.
@usableFromInline
internal final class EventTable<State: Discriminated, Event: Discriminated>: Sendable {
    @usableFromInline typealias Rule = StateMachine<State, Event>.Rule
    /// The state a new machine starts in (a leaf).
    @usableFromInline let initialState: State
    /// The rules as given, in order.
    @usableFromInline let rules: [Rule]
    /// Position of each state case in `states`.
    @usableFromInline internal let stateIndex: CaseIndex<State.Case>
    /// Position of each event case in `events` (= its byte class).
    @usableFromInline internal let eventIndex: CaseIndex<Event.Case>
    /// `events.count`: the row length of `cells`, `ruleAt` and `ruleOwner`.
    @usableFromInline internal let eventCount: Int
    /// What `fire` needs of the rule in force at `[leaf position * eventCount + event
    /// class]`, worked out once here so that an event costs one load: its kind and,
    /// for a fixed destination, where it leads (see ``Cell``).
    @usableFromInline internal let cells: [Cell]
    /// The destination value of a fixed rule at the same index as `cells`, resolved
    /// to its leaf when that does not depend on history; nil for other kinds.
    @usableFromInline internal let cellTargets: [State?]
    /// Each state position followed by its ancestors' positions, innermost first.
    @usableFromInline internal let ancestry: [[Int]]
    /// `true` when no state is nested: every transition leaves one state and enters one.
    @usableFromInline internal let isFlat: Bool
    /// A history with nothing in it, for planning in a machine without parents.
    @usableFromInline internal let noHistory: [State?]
    /// `rules` index of the rule in force at `[state position * events.count + event
    /// class]`, the state's own or its nearest ancestor's; -1 where none is.
    @usableFromInline internal let ruleAt: [Int]
    /// The state position owning the rule in `ruleAt` at the same index.
    @usableFromInline internal let ruleOwner: [Int]
    /// Parent position of each state position; -1 at the top level.
    @usableFromInline internal let parentOf: [Int]
    /// For each parent position, its initial child's value; nil for leaves.
    @usableFromInline internal let initialChild: [State?]
    /// For each parent position, whether it keeps history.
    @usableFromInline internal let keepsHistory: [Bool]


    init(
        initialState: State, rules: [Rule], stateIndex: CaseIndex<State.Case>, eventIndex: CaseIndex<Event.Case>,
        eventCount: Int, cells: [Cell], cellTargets: [State?], ancestry: [[Int]], ruleAt: [Int], ruleOwner: [Int],
        parentOf: [Int], initialChild: [State?], keepsHistory: [Bool]
    ) {
        self.initialState = initialState
        self.rules = rules
        self.stateIndex = stateIndex
        self.eventIndex = eventIndex
        self.eventCount = eventCount
        self.cells = cells
        self.cellTargets = cellTargets
        self.ancestry = ancestry
        self.isFlat = !parentOf.contains { $0 != -1 }
        self.noHistory = Array(repeating: nil, count: parentOf.count)
        self.ruleAt = ruleAt
        self.ruleOwner = ruleOwner
        self.parentOf = parentOf
        self.initialChild = initialChild
        self.keepsHistory = keepsHistory
    }

    /// The position of a state case; nil when it is not in `allCases`.
    @inlinable
    func position(of state: State.Case) -> Int? {
        let p = stateIndex.index(of: state)
        return p < 0 ? nil : p
    }
}

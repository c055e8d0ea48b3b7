// The transition table of a typed event machine, compiled to a DenseDFA.
//
// A finite-state machine over state and event *cases* is a DFA (Σ, Q, q0, F, δ) with
// Σ = the event cases and Q = the state cases; it needs no match states. Each event
// case k becomes byte class k (byte k → class k for k < event count, every other byte
// → one extra class no transition uses), each state case k becomes DFA state index
// k + 1 in the builder (index 0 is the dead state), and "the event is not valid in
// this state" is a transition to the dead state. A rule whose destination is computed
// among several cases leads to a *choice state* of its own (UML's choice pseudostate),
// numbered after the state cases; a rule with one destination case leads to it. The
// builder renumbers states when it builds; the definition keeps the mapping it reports
// (`stateIDs` one way, `positionOfIndex` the other) instead of assuming the numbering
// survives.
//
// Nesting (statecharts: Harel 1987; UML 2 and W3C SCXML semantics, a subset) is
// compiled away: a child's row holds its own rules and, for events it does not handle,
// its nearest ancestor's. The machine is always in a leaf state; `ruleOwner` keeps
// which state a row's rule belongs to, since that decides which states a transition
// leaves (see TransitionPlan.swift).
//
// Limits: at most 256 event cases (one byte class each); the number of state cases is
// bounded only by `Limits`.
import AutomatonCore

extension StateMachine {
    /// A transition table, defined apart from any machine it drives and compiled once
    /// into a ``DenseDFA``: an immutable `Sendable` value that any number of machines
    /// (in any number of tasks) can share.
    ///
    /// ```swift
    /// enum Gate: Discriminated, CaseIterable, Hashable { case locked, unlocked }
    /// enum GateEvent: Discriminated, CaseIterable, Hashable { case coin, push }
    ///
    /// let turnstile = try StateMachine<Gate, GateEvent>.Definition(initial: .locked, rules: [
    ///     .on(.coin, from: [.locked, .unlocked], to: .unlocked),
    ///     .on(.push, from: [.locked, .unlocked], to: .locked),
    /// ])
    /// turnstile.destination(from: .locked, on: .coin)   // .unlocked
    /// ```
    ///
    /// Defining the same (state, event) twice with the same fixed destination case is
    /// allowed; any other duplicate is a ``DefinitionError``, as is a case missing from
    /// `allCases`.
    ///
    /// - Complexity: building is O(|states| × |events| × depth + total sources and
    ///   destinations of all rules); a lookup (``destination(from:on:)``) is O(1): two
    ///   hash lookups and one table load.
    public struct Definition: Sendable {
        /// The state a new machine starts in (a leaf: a parent is resolved to its initial child).
        public let initialState: State
        /// The compiled table: state case k has the id `stateIDs[k]`, event case k is
        /// byte class k; invalid events lead to the dead state (0), computed rules with
        /// several destination cases to a choice state.
        public let automaton: DenseDFA
        /// State cases in `allCases` order.
        public let states: [State.Case]
        /// Event cases in `allCases` order.
        public let events: [Event.Case]
        /// The rules as given, in order.
        public let rules: [Rule]
        /// The nesting declarations as given.
        public let nesting: [Nesting]
        /// The delayed transitions as given: each machine fires their events after their
        /// durations in their states (XState's `after`), and DOT labels their edges.
        public let delays: [Delay]
        /// The compiled table that machines run (EventTable.swift): what each (leaf
        /// state, event) entry does, nesting, history. A class, so a machine reaches it
        /// through one reference and never copies this definition per event.
        @usableFromInline internal let table: EventTable<State, Event>
        /// The automaton's pre-multiplied id of each state case, by position in `states`.
        internal let stateIDs: [DenseDFA.StateID]
        /// The position in `states` of each automaton state index; -1 for the dead state
        /// and for choice states.
        internal let positionOfIndex: [Int]
        internal var ruleAt: [Int] { table.ruleAt }
        internal var ruleOwner: [Int] { table.ruleOwner }
        internal var parentOf: [Int] { table.parentOf }
        internal var initialChild: [State?] { table.initialChild }

        /// Compiles `rules` (and `nesting`) into a dense table.
        ///
        /// - Throws: ``DefinitionError`` when a case is not in `allCases`, two rules give
        ///   one (state, event) different destinations, the nesting is not a forest with
        ///   each parent's initial state among its children, `Event.Case` has more than
        ///   256 cases, or the table exceeds `limits`.
        public init(
            initial: State, rules: [Rule], nesting: [Nesting] = [], delays: [Delay] = [], limits: Limits = Limits()
        ) throws(DefinitionError) {
            let states = Array(State.Case.allCases)
            let events = Array(Event.Case.allCases)
            guard events.count <= 256 else { throw DefinitionError(.tooManyEvents(count: events.count)) }
            var stateIndices: [State.Case: Int] = [:]
            for (i, s) in states.enumerated() where stateIndices[s] == nil { stateIndices[s] = i }
            var eventIndices: [Event.Case: Int] = [:]
            for (i, e) in events.enumerated() where eventIndices[e] == nil { eventIndices[e] = i }
            func position(_ state: State.Case) throws(DefinitionError) -> Int {
                guard let p = stateIndices[state] else { throw DefinitionError(.unknownState(state)) }
                return p
            }

            // The forest of nested states.
            var parentOf = [Int](repeating: -1, count: states.count)
            var initialChild = [State?](repeating: nil, count: states.count)
            var keepsHistory = [Bool](repeating: false, count: states.count)
            for n in nesting {
                let p = try position(n.parent)
                guard initialChild[p] == nil else { throw DefinitionError(.parentDeclaredTwice(n.parent)) }
                let initialPosition = try position(n.initial.case)
                var childPositions: [Int] = []
                for child in n.children {
                    let c = try position(child)
                    guard parentOf[c] == -1, c != p else { throw DefinitionError(.childWithTwoParents(child)) }
                    parentOf[c] = p
                    childPositions.append(c)
                }
                guard childPositions.contains(initialPosition) else {
                    throw DefinitionError(.initialNotAChild(parent: n.parent, initial: n.initial.case))
                }
                initialChild[p] = n.initial
                keepsHistory[p] = n.history
            }
            for start in states.indices {
                var p = parentOf[start], depth = 0
                while p != -1 {
                    depth += 1
                    guard p != start, depth <= states.count else { throw DefinitionError(.nestingCycle(states[start])) }
                    p = parentOf[p]
                }
            }

            // Each state's own rules, checked for conflicts.
            var own = [Int](repeating: -1, count: states.count * max(events.count, 1))
            for (r, rule) in rules.enumerated() {
                guard let e = eventIndices[rule.event] else { throw DefinitionError(.unknownEvent(rule.event)) }
                guard !rule.destinations.isEmpty || rule.mayStay else { throw DefinitionError(.noDestinationCases(event: rule.event)) }
                for d in rule.destinations { _ = try position(d) }
                for source in rule.sources {
                    let s = try position(source)
                    let existing = own[s * events.count + e]
                    if existing == -1 {
                        own[s * events.count + e] = r
                        continue
                    }
                    let old = rules[existing]
                    if case .fixed = old.target, case .fixed = rule.target, old.destinations == rule.destinations { continue }
                    throw DefinitionError(.conflictingTransition(
                        event: rule.event, state: source, existing: old.destinations[0], new: rule.destinations[0]))
                }
            }
            // Rows inherit what an ancestor handles and they do not.
            var ruleAt = own, ruleOwner = [Int](repeating: -1, count: own.count)
            for s in states.indices {
                for e in events.indices {
                    var owner = s
                    while owner != -1, own[owner * events.count + e] == -1 { owner = parentOf[owner] }
                    if owner != -1 {
                        ruleAt[s * events.count + e] = own[owner * events.count + e]
                        ruleOwner[s * events.count + e] = owner
                    }
                }
            }

            // A delay fires an event its state handles (its own rule or a parent's).
            for delay in delays {
                let s = try position(delay.state)
                guard let e = eventIndices[delay.event.case] else { throw DefinitionError(.unknownEvent(delay.event.case)) }
                guard ruleAt[s * events.count + e] != -1 else {
                    throw DefinitionError(.delayedEventInvalid(event: delay.event.case, state: delay.state))
                }
            }

            // byte k → class k for each event, every other byte → one unused class.
            var map = [UInt8](repeating: UInt8(truncatingIfNeeded: events.count), count: 256)
            for k in 0..<events.count { map[k] = UInt8(k) }
            let classes = events.isEmpty ? ByteClasses.single : ByteClasses(map: map)!

            var builder = DenseDFABuilder(byteClasses: classes, patternCount: 0)
            for _ in states { builder.addState() }
            var choiceOfRule: [Int: Int] = [:]
            for s in states.indices {
                for e in events.indices {
                    let r = ruleAt[s * events.count + e]
                    guard r != -1 else { continue }
                    let rule = rules[r]
                    let to: Int
                    if rule.isInternal {
                        to = s + 1
                    } else if rule.destinations.count == 1, !rule.mayStay {
                        to = stateIndices[rule.destinations[0]]! + 1
                    } else if let choice = choiceOfRule[r] {
                        to = choice
                    } else {
                        to = builder.addState()
                        choiceOfRule[r] = to
                    }
                    builder.setTransition(from: s + 1, class: e, to: to)
                }
            }
            // The initial state, resolved to a leaf through initial children.
            var initialLeaf = initial
            var guardDepth = 0
            while let child = initialChild[try position(initialLeaf.case)], guardDepth <= states.count {
                initialLeaf = child
                guardDepth += 1
            }
            builder.setStart(stateIndices[initialLeaf.case]! + 1)
            let built: (automaton: DenseDFA, ids: [DenseDFA.StateID])
            do {
                built = try builder.buildReportingIDs(limits: limits)
            } catch {
                throw DefinitionError(.automaton(error))
            }
            let ancestry: [[Int]] = states.indices.map { s in
                var chain = [s], p = parentOf[s]
                while p != -1 { chain.append(p); p = parentOf[p] }
                return chain
            }
            var cells: [EventTable<State, Event>.Cell] = []
            var cellTargets: [State?] = []
            cells.reserveCapacity(ruleAt.count)
            cellTargets.reserveCapacity(ruleAt.count)
            for i in ruleAt.indices {
                let r = ruleAt[i]
                guard r != -1 else {
                    cells.append(EventTable<State, Event>.Cell(kind: .invalid))
                    cellTargets.append(nil)
                    continue
                }
                switch rules[r].target {
                case .fixed(let value):
                    // Resolved now unless a parent on the way keeps history.
                    let t = stateIndices[value.case]!
                    var leafValue = value, p = t, isStatic = true
                    while let child = initialChild[p] {
                        if keepsHistory[p] { isStatic = false; break }
                        leafValue = child
                        p = stateIndices[child.case]!
                    }
                    let domain = EventTable<State, Event>.domain(of: ruleOwner[i], t, parentOf: parentOf)
                    cells.append(EventTable<State, Event>.Cell(kind: .fixed, target: t, leaf: isStatic ? p : -1, domain: domain))
                    cellTargets.append(isStatic ? leafValue : value)
                case .computed:
                    cells.append(EventTable<State, Event>.Cell(kind: .computed))
                    cellTargets.append(nil)
                case .internal(let update):
                    cells.append(EventTable<State, Event>.Cell(kind: update == nil ? .internalPlain : .internalUpdate))
                    cellTargets.append(nil)
                case .stayOrMove:
                    cells.append(EventTable<State, Event>.Cell(kind: .stayOrMove))
                    cellTargets.append(nil)
                }
            }
            self.automaton = built.automaton
            // Builder state k + 1 is state case k.
            self.stateIDs = states.indices.map { built.ids[$0 + 1] }
            var positionOfIndex = [Int](repeating: -1, count: built.automaton.stateCount)
            for (position, id) in stateIDs.enumerated() { positionOfIndex[built.automaton.index(of: id)] = position }
            self.positionOfIndex = positionOfIndex
            self.initialState = initialLeaf
            self.states = states
            self.events = events
            self.rules = rules
            self.nesting = nesting
            self.delays = delays
            self.table = EventTable(
                initialState: initialLeaf, rules: rules, stateIndex: CaseIndex(states), eventIndex: CaseIndex(events),
                eventCount: events.count, cells: cells, cellTargets: cellTargets, ancestry: ancestry,
                ruleAt: ruleAt, ruleOwner: ruleOwner, parentOf: parentOf, initialChild: initialChild,
                keepsHistory: keepsHistory)
        }

        /// The case `event` leads to from `state` when its rule has exactly one
        /// destination case (fixed, internal, or computed within one case); `nil` when
        /// the event is not valid there or the rule computes one of several cases (see
        /// ``destinations(from:on:)``). A parent case stands for the child it resolves to.
        ///
        /// - Complexity: O(1).
        public func destination(from state: State.Case, on event: Event.Case) -> State.Case? {
            guard let s = position(of: state), let e = eventClass(event) else { return nil }
            let next = automaton.next(stateIDs[s], class: e)
            guard next != DenseDFA.deadState else { return nil }
            let p = positionOfIndex[automaton.index(of: next)]
            return p == -1 ? nil : states[p]
        }

        /// Every case `event` may lead to from `state`: the declared destination cases of
        /// its rule (own or inherited); empty when the event is not valid there.
        ///
        /// - Complexity: O(destinations).
        public func destinations(from state: State.Case, on event: Event.Case) -> [State.Case] {
            guard let s = position(of: state), let e = eventClass(event) else { return [] }
            let r = ruleAt[s * events.count + e]
            return r == -1 ? [] : rules[r].destinations
        }

        /// The event cases valid in `state`, in `Event.Case.allCases` order.
        ///
        /// - Complexity: O(|events|).
        public func validEvents(in state: State.Case) -> [Event.Case] {
            guard let s = position(of: state) else { return [] }
            return events.indices.filter { ruleAt[s * events.count + $0] != -1 }.map { events[$0] }
        }

        /// The parent of `state`, or `nil` at the top level (or for an unknown case).
        public func parent(of state: State.Case) -> State.Case? {
            guard let s = position(of: state), parentOf[s] != -1 else { return nil }
            return states[parentOf[s]]
        }

        /// Every edge of the table, each drawn from the state whose rule it is (a parent's
        /// rule once, from the parent), ordered by source state, then event (both in
        /// `allCases` order), then declared destination.
        ///
        /// - Complexity: O(|states| × |events| × destinations).
        public var edges: [Edge] {
            var result: [Edge] = []
            for s in states.indices {
                for e in events.indices where ruleOwner[s * events.count + e] == s {
                    let rule = rules[ruleAt[s * events.count + e]]
                    if rule.isInternal {
                        result.append(Edge(from: states[s], event: events[e], to: states[s], isInternal: true))
                    } else if rule.mayStay {
                        result.append(Edge(from: states[s], event: events[e], to: states[s], isInternal: true))
                        for d in rule.destinations { result.append(Edge(from: states[s], event: events[e], to: d)) }
                    } else {
                        for d in rule.destinations { result.append(Edge(from: states[s], event: events[e], to: d)) }
                    }
                }
            }
            return result
        }

        /// The position of a state case; nil when it is not in `allCases`.
        @inlinable
        internal func position(of state: State.Case) -> Int? {
            let p = table.stateIndex.index(of: state)
            return p < 0 ? nil : p
        }

        /// The byte class of an event case; nil when it is not in `allCases`.
        @inlinable
        internal func eventClass(_ event: Event.Case) -> Int? {
            let c = table.eventIndex.index(of: event)
            return c < 0 ? nil : c
        }
    }
}

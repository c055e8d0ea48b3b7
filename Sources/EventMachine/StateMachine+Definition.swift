// The transition table of a typed event machine, compiled to a DenseDFA.
//
// A finite-state machine over enum states and events is a DFA (Σ, Q, q0, F, δ) with
// Σ = the event cases and Q = the state cases; it needs no match states. Each event
// case k becomes byte class k (byte k → class k for k < event count, every other byte
// → one extra class no transition uses), each state case k becomes DFA state index
// k + 1 in the builder (index 0 is the dead state), and "the event is not valid in
// this state" is a transition to the dead state. The builder renumbers states when it
// builds; the definition keeps the mapping it reports (`stateIDs` one way,
// `positionOfIndex` the other) instead of assuming the numbering survives.
//
// Limits: at most 256 event cases (one byte class each); the number of state cases is
// bounded only by `Limits`.
import AutomatonCore

extension StateMachine {
    /// One row group of a transition table: `event` leads from each of `sources` to
    /// `destination` (several source states, one destination, as in TransitionKit).
    ///
    /// ```swift
    /// let rule = StateMachine<Gate, GateEvent>.Rule.on(.coin, from: [.locked, .unlocked], to: .unlocked)
    /// ```
    ///
    /// - Complexity: compiling a rule into a ``Definition`` is O(sources).
    public struct Rule: Sendable, Hashable {
        /// The event this rule handles.
        public var event: Event
        /// The states in which the event is valid.
        public var sources: [State]
        /// The state the event leads to from every source.
        public var destination: State

        public init(_ event: Event, from sources: [State], to destination: State) {
            self.event = event
            self.sources = sources
            self.destination = destination
        }

        /// `event` leads from each of `sources` to `destination`.
        public static func on(_ event: Event, from sources: [State], to destination: State) -> Rule {
            Rule(event, from: sources, to: destination)
        }

        /// `event` leads from `source` to `destination`.
        public static func on(_ event: Event, from source: State, to destination: State) -> Rule {
            Rule(event, from: [source], to: destination)
        }
    }

    /// One entry of the table, without a payload: from `from`, `event` leads to `to`.
    ///
    /// ```swift
    /// turnstile.edges.first   // locked --coin--> unlocked
    /// ```
    ///
    /// - Complexity: O(1) to create, compare and hash.
    public struct Edge: Sendable, Hashable, CustomStringConvertible {
        public var from: State
        public var event: Event
        public var to: State

        public init(from: State, event: Event, to: State) {
            self.from = from
            self.event = event
            self.to = to
        }

        public var description: String { "\(from) --\(event)--> \(to)" }
    }

    /// A transition table, defined apart from any machine it drives and compiled once
    /// into a ``DenseDFA``: an immutable `Sendable` value that any number of machines
    /// (in any number of tasks) can share.
    ///
    /// ```swift
    /// enum Gate: CaseIterable, Hashable, Sendable { case locked, unlocked }
    /// enum GateEvent: CaseIterable, Hashable, Sendable { case coin, push }
    ///
    /// let turnstile = try StateMachine<Gate, GateEvent>.Definition(initial: .locked, rules: [
    ///     .on(.coin, from: [.locked, .unlocked], to: .unlocked),
    ///     .on(.push, from: [.locked, .unlocked], to: .locked),
    /// ])
    /// turnstile.destination(from: .locked, on: .coin)   // .unlocked
    /// ```
    ///
    /// Defining the same (state, event) twice with the same destination is allowed;
    /// with different destinations it is a ``DefinitionError``.
    ///
    /// - Complexity: building is O(|states| × |events| + total sources of all rules);
    ///   a lookup (``destination(from:on:)``) is O(1): two hash lookups and one table load.
    public struct Definition: Sendable {
        /// The state a new machine starts in.
        public let initialState: State
        /// The compiled table: state case k has the id `stateIDs[k]`, event case k is
        /// byte class k; invalid events lead to the dead state (0).
        public let automaton: DenseDFA
        /// State cases in `allCases` order.
        public let states: [State]
        /// Event cases in `allCases` order.
        public let events: [Event]
        /// Position of each state in `states`.
        internal let stateIndices: [State: Int]
        /// Position of each event in `events` (= its byte class).
        internal let eventIndices: [Event: Int]
        /// The automaton's pre-multiplied id of each state, by position in `states`.
        internal let stateIDs: [DenseDFA.StateID]
        /// The position in `states` of each automaton state index; -1 for the dead state.
        internal let positionOfIndex: [Int]

        /// Compiles `rules` into a dense table.
        ///
        /// - Throws: ``DefinitionError`` when two rules give one (state, event) different
        ///   destinations, when `Event` has more than 256 cases, or when the table
        ///   exceeds `limits`.
        public init(initial: State, rules: [Rule], limits: Limits = Limits()) throws(DefinitionError) {
            let states = Array(State.allCases)
            let events = Array(Event.allCases)
            guard events.count <= 256 else { throw DefinitionError(.tooManyEvents(count: events.count)) }
            var stateIndices: [State: Int] = [:]
            for (i, s) in states.enumerated() { stateIndices[s] = i }
            var eventIndices: [Event: Int] = [:]
            for (i, e) in events.enumerated() { eventIndices[e] = i }

            // byte k → class k for each event, every other byte → one unused class.
            var map = [UInt8](repeating: UInt8(truncatingIfNeeded: events.count), count: 256)
            for k in 0..<events.count { map[k] = UInt8(k) }
            let classes = events.isEmpty ? ByteClasses.single : ByteClasses(map: map)!

            var builder = DenseDFABuilder(byteClasses: classes, patternCount: 0)
            for _ in states { builder.addState() }
            for rule in rules {
                let e = eventIndices[rule.event]!
                let to = stateIndices[rule.destination]! + 1
                for source in rule.sources {
                    let from = stateIndices[source]! + 1
                    let existing = builder.transition(from: from, class: e)
                    if existing != DenseDFABuilder.dead, existing != to {
                        throw DefinitionError(.conflictingTransition(
                            event: rule.event, state: source,
                            existing: states[existing - 1], new: rule.destination))
                    }
                    builder.setTransition(from: from, class: e, to: to)
                }
            }
            builder.setStart(stateIndices[initial]! + 1)
            let built: (automaton: DenseDFA, ids: [DenseDFA.StateID])
            do {
                built = try builder.buildReportingIDs(limits: limits)
            } catch {
                throw DefinitionError(.automaton(error))
            }
            self.automaton = built.automaton
            // Builder state k + 1 is state case k.
            self.stateIDs = states.indices.map { built.ids[$0 + 1] }
            var positionOfIndex = [Int](repeating: -1, count: built.automaton.stateCount)
            for (position, id) in stateIDs.enumerated() { positionOfIndex[built.automaton.index(of: id)] = position }
            self.positionOfIndex = positionOfIndex
            self.initialState = initial
            self.states = states
            self.events = events
            self.stateIndices = stateIndices
            self.eventIndices = eventIndices
        }

        /// The state `event` leads to from `state`, or `nil` when the event is not valid there.
        ///
        /// - Complexity: O(1).
        public func destination(from state: State, on event: Event) -> State? {
            let next = automaton.next(id(of: state), class: eventIndices[event]!)
            return next == DenseDFA.deadState ? nil : self.state(ofID: next)
        }

        /// The events valid in `state`, in `Event.allCases` order.
        ///
        /// - Complexity: O(|events|).
        public func validEvents(in state: State) -> [Event] {
            events.filter { destination(from: state, on: $0) != nil }
        }

        /// Every entry of the table, ordered by source state, then event (both in
        /// `allCases` order).
        ///
        /// - Complexity: O(|states| × |events|).
        public var edges: [Edge] {
            var result: [Edge] = []
            for from in states {
                for event in events {
                    if let to = destination(from: from, on: event) {
                        result.append(Edge(from: from, event: event, to: to))
                    }
                }
            }
            return result
        }

        /// The pre-multiplied DFA id of a state.
        internal func id(of state: State) -> DenseDFA.StateID {
            stateIDs[stateIndices[state]!]
        }

        /// The position in `states` of a (non-dead) pre-multiplied DFA id.
        internal func position(ofID id: DenseDFA.StateID) -> Int {
            positionOfIndex[automaton.index(of: id)]
        }

        /// The state of a (non-dead) pre-multiplied DFA id.
        internal func state(ofID id: DenseDFA.StateID) -> State {
            states[position(ofID: id)]
        }

        /// The byte class of an event.
        internal func eventClass(_ event: Event) -> Int { eventIndices[event]! }
    }
}

// What a transition table is written in: rules (an event case, the state cases it is
// valid in, and the destination: a fixed state, a state computed from the data within
// declared cases, or none for an internal transition), nesting declarations (a parent
// state case, its children, its initial child and whether it keeps history), and the
// edges a table reports and DOT draws.

extension StateMachine {
    /// One row group of a transition table: `event` is valid in each of `sources` and
    /// leads to a destination that is fixed, computed from the state and the event, or
    /// (for an internal transition) the same state.
    ///
    /// ```swift
    /// typealias News = StateMachine<Screen, ScreenEvent>
    /// let rules: [News.Rule] = [
    ///     .on(.load, from: [.empty, .failed], to: .loading),
    ///     // The response picks the next state, among the declared cases.
    ///     .on(.loaded, from: .loading, to: [.empty, .articles]) { _, event in
    ///         guard case .loaded(let items) = event else { return nil }
    ///         return items.isEmpty ? .empty : .articles(items)
    ///     },
    ///     // Handled without leaving the state: no exit or enter hook runs.
    ///     .internal(.refreshTick, in: [.articles]),
    /// ]
    /// ```
    ///
    /// A source may be a parent state (see ``Nesting``): the rule then applies in each of
    /// its descendants that has no rule of its own for the event.
    ///
    /// - Complexity: compiling a rule into a ``Definition`` is O(sources × destinations).
    public struct Rule: Sendable {
        /// The event case this rule handles.
        public let event: Event.Case
        /// The state cases in which the event is valid.
        public let sources: [State.Case]
        /// Every case the destination may have: the fixed destination's case, the
        /// declared cases of a computed one, or the sources for an internal rule. The
        /// table, ``Definition/edges`` and DOT show one edge per source and case.
        public let destinations: [State.Case]
        /// How the destination value is made.
        @usableFromInline internal let target: Target

        @usableFromInline
        internal enum Target: Sendable {
            case fixed(State)
            case computed(@Sendable (State, Event) -> State?)
            case `internal`((@Sendable (State, Event) -> State)?)
            /// Stay (an internal transition) or move within the declared cases.
            case stayOrMove(@Sendable (State, Event) -> Next?)
        }

        /// `true` for a rule made by ``on(_:from:stayOrMoveTo:_:)``: each event either
        /// stays (internally) or moves.
        public var mayStay: Bool {
            if case .stayOrMove = target { return true }
            return false
        }

        /// `true` for a rule made by ``internal(_:in:update:)``: the machine stays in its
        /// state and runs no exit or enter hook.
        public var isInternal: Bool {
            if case .internal = target { return true }
            return false
        }

        private init(event: Event.Case, sources: [State.Case], destinations: [State.Case], target: Target) {
            self.event = event
            self.sources = sources
            self.destinations = destinations
            self.target = target
        }

        /// `event` leads from each of `sources` to `destination`.
        public static func on(_ event: Event.Case, from sources: [State.Case], to destination: State) -> Rule {
            Rule(event: event, sources: sources, destinations: [destination.case], target: .fixed(destination))
        }

        /// `event` leads from `source` to `destination`.
        public static func on(_ event: Event.Case, from source: State.Case, to destination: State) -> Rule {
            on(event, from: [source], to: destination)
        }

        /// `event` leads from each of `sources` to the state `destination` computes from
        /// the current state and the event, which must have one of the `cases` (else
        /// the event fails with ``TransitionError/Kind/undeclaredDestination(event:state:destination:)``);
        /// `nil` fails it with ``TransitionError/Kind/noDestination(event:state:)``.
        /// `destination` should be quick and free of side effects: ``StateMachine/canFire(_:)`` calls it too.
        public static func on(
            _ event: Event.Case, from sources: [State.Case], to cases: [State.Case],
            _ destination: @escaping @Sendable (_ state: State, _ event: Event) -> State?
        ) -> Rule {
            Rule(event: event, sources: sources, destinations: cases, target: .computed(destination))
        }

        /// `event` leads from `source` to a state computed within `cases`; see
        /// ``on(_:from:to:_:)-(_,[State.Case],_,_)``.
        public static func on(
            _ event: Event.Case, from source: State.Case, to cases: [State.Case],
            _ destination: @escaping @Sendable (_ state: State, _ event: Event) -> State?
        ) -> Rule {
            on(event, from: [source], to: cases, destination)
        }

        /// `event` either keeps the machine in its state (``Next/stay(_:)``: an internal
        /// transition that may change the state's data; no exit or enter hook runs and
        /// the state's tasks and timeouts keep running) or moves it to a state with one
        /// of `cases` (``Next/move(_:)``), as `decide` says for each event; `nil` refuses
        /// the event with ``TransitionError/Kind/noDestination(event:state:)``.
        ///
        /// "Delete a row unless it is the last", "progress until 100 %", "the battery
        /// level changes": the common case stays, the last one moves.
        ///
        /// ```swift
        /// .on(.progress, from: .downloading, stayOrMoveTo: [.done]) { state, event in
        ///     guard case .progress(let percent) = event else { return nil }
        ///     return percent < 100 ? .stay(.downloading(percent: percent)) : .move(.done)
        /// }
        /// ```
        ///
        /// A parent's stay-or-move rule stays in the current child. `decide` should be
        /// quick and free of side effects: ``StateMachine/canFire(_:)`` calls it too.
        public static func on(
            _ event: Event.Case, from sources: [State.Case], stayOrMoveTo cases: [State.Case],
            _ decide: @escaping @Sendable (_ state: State, _ event: Event) -> Next?
        ) -> Rule {
            Rule(event: event, sources: sources, destinations: cases, target: .stayOrMove(decide))
        }

        /// ``on(_:from:stayOrMoveTo:_:)`` from one source.
        public static func on(
            _ event: Event.Case, from source: State.Case, stayOrMoveTo cases: [State.Case],
            _ decide: @escaping @Sendable (_ state: State, _ event: Event) -> Next?
        ) -> Rule {
            on(event, from: [source], stayOrMoveTo: cases, decide)
        }

        /// `event` is handled in each of `states` without leaving it: no exit or enter
        /// hook runs, no state-scoped task restarts. `update` may change the state's data
        /// (it must keep its case); without it the state stays as it is.
        public static func `internal`(
            _ event: Event.Case, in states: [State.Case],
            update: (@Sendable (_ state: State, _ event: Event) -> State)? = nil
        ) -> Rule {
            Rule(event: event, sources: states, destinations: states, target: .internal(update))
        }
    }

    /// A delayed transition (XState's `after`): while the machine stays in `state` for
    /// `duration` since entering it, it fires `event`, whose rule decides where to go;
    /// leaving `state` earlier cancels it. Part of the definition, so DOT labels the
    /// edge ("timedOut after 30 seconds"); each machine measures it on the clock it was
    /// made with (a `TestClock` in tests).
    ///
    /// ```swift
    /// let definition = try StateMachine<Screen, ScreenEvent>.Definition(initial: .empty, rules: [
    ///     .on(.load, from: .empty, to: .loading),
    ///     .on(.timedOut, from: .loading, to: .failed),
    /// ], delays: [.after(.seconds(30), in: .loading, fire: .timedOut)])
    /// ```
    public struct Delay: Sendable {
        /// The state whose stay is timed (entering a state nested in it counts as staying).
        public let state: State.Case
        /// How long the machine stays before the event fires.
        public let duration: Duration
        /// The event fired; it must be valid in `state`.
        public let event: Event

        /// Fires `event` after `duration` in `state`.
        public static func after(_ duration: Duration, in state: State.Case, fire event: Event) -> Delay {
            Delay(state: state, duration: duration, event: event)
        }
    }

    /// What a stay-or-move rule (``Rule/on(_:from:stayOrMoveTo:_:)``) decides for one event.
    ///
    /// ```swift
    /// .on(.delete, from: .list, stayOrMoveTo: [.empty]) { state, event in
    ///     guard case .list(let rows) = state, case .delete(let row) = event else { return nil }
    ///     let left = rows.filter { $0 != row }
    ///     return left.isEmpty ? .move(.empty) : .stay(.list(left))
    /// }
    /// ```
    public enum Next: Sendable {
        /// Stay in the current state with this value (same case, new data): an internal
        /// transition — no exit or enter hook runs, the state's tasks and timeouts keep running.
        case stay(State)
        /// Leave for this state (one of the rule's declared cases): exit and enter hooks
        /// run as for any rule, and a move to the current case is an external
        /// self-transition.
        case move(State)
    }

    /// A parent state: a state case that contains `children`. The machine is never in
    /// the parent alone: entering it enters its initial child (or, with history, the
    /// last state it was in below the parent), leaving a child for a state outside the
    /// parent leaves the parent too, and the parent's rules apply to every child that
    /// has no rule of its own for the event (UML/SCXML statecharts, a subset). A
    /// parent's rule whose destination is inside the parent does not leave the parent
    /// (a local transition): only the states below it change.
    ///
    /// ```swift
    /// let nesting: [StateMachine<Player, PlayerEvent>.Nesting] = [
    ///     .parent(.active, children: [.playing, .paused], initial: .playing, history: true),
    /// ]
    /// ```
    public struct Nesting: Sendable {
        /// The parent state case.
        public let parent: State.Case
        /// Its direct children.
        public let children: [State.Case]
        /// The state entered when a transition targets the parent (a child's value).
        public let initial: State
        /// When `true`, entering the parent again re-enters the state the machine was in
        /// when it last left the parent, data included (deep history).
        public let history: Bool

        /// `parent` contains `children`; see ``Nesting``.
        public static func parent(_ parent: State.Case, children: [State.Case], initial: State, history: Bool = false) -> Nesting {
            Nesting(parent: parent, children: children, initial: initial, history: history)
        }
    }

    /// One edge of the table, by cases: from `from`, `event` may lead to `to`.
    ///
    /// ```swift
    /// turnstile.edges.first   // locked --coin--> unlocked
    /// ```
    ///
    /// - Complexity: O(1) to create, compare and hash.
    public struct Edge: Sendable, Hashable, CustomStringConvertible {
        public var from: State.Case
        public var event: Event.Case
        public var to: State.Case
        /// `true` for an internal transition (no exit or enter hooks).
        public var isInternal: Bool

        public init(from: State.Case, event: Event.Case, to: State.Case, isInternal: Bool = false) {
            self.from = from
            self.event = event
            self.to = to
            self.isInternal = isInternal
        }

        public var description: String { "\(from) --\(event)--> \(to)\(isInternal ? " (internal)" : "")" }
    }
}

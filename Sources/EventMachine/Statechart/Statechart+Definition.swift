// The typed definition of a statechart: states as a tree of nodes (atomic, compound,
// parallel, final, history) in document order, each with its transitions and its
// entry and exit actions, compiled once into the integer ChartTable that ChartEngine
// runs. Document order is the order the nodes are written in, as in an SCXML file:
// it decides which region hears an event first, which of two conflicting
// transitions wins, and the order of entry (and, reversed, of exit).

extension Statechart {
    /// What a guard or an action is given: the event being processed and the active
    /// states at that moment.
    public struct Snapshot {
        /// The event being processed; `nil` for an eventless transition or the start.
        public let trigger: Trigger?
        let active: [Bool]
        let index: [State: Int]

        /// `true` when `state` is active (SCXML's `In(state)`).
        public func isIn(_ state: State) -> Bool {
            guard let i = index[state] else { return false }
            return active[i]
        }
    }

    /// A guard: the transition is enabled only when it returns `true`.
    public typealias Guard = @Sendable (Snapshot) -> Bool

    /// What an event that a transition listens to is: an event the app sends or
    /// raises, or the done event of a state (SCXML's `done.state.id`).
    public enum Trigger: Hashable, Sendable {
        case event(Event)
        /// Any event at all, done events included (SCXML's `event="*"`).
        case any
        /// Raised when a compound state's final child is entered, or when every
        /// region of a parallel state is in a final state.
        case done(State)
    }

    /// Executable content, run in order: on entry, on exit, or when a transition is taken.
    public enum Action: Sendable {
        /// Puts `event` on the internal queue: processed after the current step, before
        /// any event the app sends next (SCXML's `<raise>`).
        case raise(Event)
        /// Adds a line to the machine's log (SCXML's `<log>`).
        case log(String)
        /// Runs app code.
        case run(@Sendable (Snapshot) -> Void)
    }

    /// One transition of a state, listed in document order with its siblings.
    public struct Transition: Sendable {
        /// nil: eventless (taken as soon as its guard holds).
        public var trigger: Trigger?
        /// Empty: a targetless transition (runs its actions, exits and enters nothing).
        public var targets: [State]
        /// SCXML's type="internal": to its own descendants, the source is not exited.
        public var isInternal: Bool
        public var condition: Guard?
        public var actions: [Action]

        /// A transition on `event` to `targets` (one per region when several); no
        /// target makes it targetless.
        ///
        /// ```swift
        /// .on(.play, to: .playing)
        /// ```
        public static func on(
            _ event: Event, to targets: State..., internal isInternal: Bool = false, when condition: Guard? = nil,
            actions: [Action] = []
        ) -> Transition {
            Transition(trigger: .event(event), targets: targets, isInternal: isInternal, condition: condition, actions: actions)
        }

        /// A transition on the done event of `state` (its final child entered, or all
        /// of its regions final).
        public static func onDone(
            _ state: State, to targets: State..., when condition: Guard? = nil, actions: [Action] = []
        ) -> Transition {
            Transition(trigger: .done(state), targets: targets, isInternal: false, condition: condition, actions: actions)
        }

        /// A transition on any event, done events included (SCXML's `event="*"`):
        /// after the transitions listed before it, a catch-all.
        public static func onAny(
            to targets: State..., when condition: Guard? = nil, actions: [Action] = []
        ) -> Transition {
            Transition(trigger: .any, targets: targets, isInternal: false, condition: condition, actions: actions)
        }

        /// An eventless transition: taken in the first step in which its guard holds.
        public static func always(
            to targets: State..., internal isInternal: Bool = false, when condition: Guard? = nil, actions: [Action] = []
        ) -> Transition {
            Transition(trigger: nil, targets: targets, isInternal: isInternal, condition: condition, actions: actions)
        }
    }

    /// A state of the chart and, for a compound or parallel one, its children.
    public struct Node: Sendable {
        enum Kind: Sendable { case state, parallel, final, history(deep: Bool) }
        let kind: Kind
        let id: State
        let initial: [State]
        let entry: [Action]
        let exit: [Action]
        let transitions: [Transition]
        let children: [Node]

        /// An atomic state, or a compound one when it has `children`; `initial` names
        /// the child entered first (the first child when nil).
        public static func state(
            _ id: State, initial: State? = nil, entry: [Action] = [], exit: [Action] = [],
            on transitions: [Transition] = [], _ children: [Node] = []
        ) -> Node {
            Node(kind: .state, id: id, initial: initial.map { [$0] } ?? [], entry: entry, exit: exit,
                 transitions: transitions, children: children)
        }

        /// A parallel state: every child is a region, active at once; an event goes to
        /// every region, in document order, in one step.
        ///
        /// ```swift
        /// .parallel(.player, [
        ///     .state(.playback, [.state(.paused, on: [.on(.play, to: .playing)]), .state(.playing)]),
        ///     .state(.network, [.state(.online), .state(.offline)]),
        /// ])
        /// ```
        public static func parallel(
            _ id: State, entry: [Action] = [], exit: [Action] = [], on transitions: [Transition] = [], _ regions: [Node]
        ) -> Node {
            Node(kind: .parallel, id: id, initial: [], entry: entry, exit: exit, transitions: transitions, children: regions)
        }

        /// A final state: entering it raises its parent's done event.
        public static func final(_ id: State, entry: [Action] = [], exit: [Action] = []) -> Node {
            Node(kind: .final, id: id, initial: [], entry: entry, exit: exit, transitions: [], children: [])
        }

        /// A history pseudo-state of its parent: a transition to it enters the states
        /// the parent was in when last exited (its active children; with `deep`, its
        /// active leaves), or `default` the first time.
        public static func history(_ id: State, deep: Bool = false, default targets: State...) -> Node {
            Node(kind: .history(deep: deep), id: id, initial: targets, entry: [], exit: [], transitions: [], children: [])
        }
    }

    /// A chart definition that is not well formed.
    public struct DefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            case duplicateState(State)
            case unknownState(State)
            /// An initial or history default that is not a descendant of its state.
            case initialNotADescendant(parent: State, initial: State)
            case noStates
        }
        public let kind: Kind
        public init(kind: Kind) { self.kind = kind }
        public var description: String {
            switch kind {
            case .duplicateState(let s): "state \(s) is declared twice"
            case .unknownState(let s): "state \(s) is not declared"
            case .initialNotADescendant(let p, let i): "\(i) is not inside \(p)"
            case .noStates: "the chart has no states"
            }
        }
    }

    /// A compiled statechart, immutable and shareable across machines and threads.
    ///
    /// ```swift
    /// let chart = try Statechart<S, E>.Definition(initial: .player, states: [
    ///     .parallel(.player, [ … ]),
    /// ])
    /// ```
    ///
    /// - Complexity: building is O(states + transitions × targets); an event costs
    ///   the active atomic states × their depth × transitions looked at, plus the
    ///   states exited and entered.
    public struct Definition: Sendable {
        /// Each state in document order (id k + 1 in the table; 0 is the root).
        public let states: [State]
        let table: ChartTable
        let index: [State: Int]
        let eventIndex: [Event: Int]
        let guards: [Guard]
        let actions: [Action]

        /// Compiles `nodes` (the top level, in document order); `initial` names the
        /// states entered first (the first node when none; one per region for states
        /// inside a parallel state).
        ///
        /// - Throws: ``DefinitionError`` for a state declared twice, a target that is
        ///   not declared, or an initial state outside its parent.
        public init(initial: State..., states nodes: [Node]) throws(DefinitionError) {
            guard !nodes.isEmpty else { throw DefinitionError(kind: .noStates) }
            let rootStates = initial.isEmpty ? [nodes[0].id] : initial
            var states: [State] = []
            var kinds: [ChartKind] = [.compound]
            var parent: [Int] = [-1]
            var index: [State: Int] = [:]
            var flat: [Node?] = [nil]
            func add(_ node: Node, parent p: Int) throws(DefinitionError) {
                guard index[node.id] == nil else { throw DefinitionError(kind: .duplicateState(node.id)) }
                let id = kinds.count
                index[node.id] = id
                states.append(node.id)
                flat.append(node)
                parent.append(p)
                switch node.kind {
                case .state: kinds.append(node.children.isEmpty ? .atomic : .compound)
                case .parallel: kinds.append(.parallel)
                case .final: kinds.append(.final)
                case .history(let deep): kinds.append(deep ? .deepHistory : .history)
                }
                for child in node.children { try add(child, parent: id) }
            }
            for node in nodes { try add(node, parent: 0) }
            var children = [[Int]](repeating: [], count: kinds.count)
            for s in 1..<kinds.count { children[parent[s]].append(s) }

            func id(_ s: State) throws(DefinitionError) -> Int {
                guard let i = index[s] else { throw DefinitionError(kind: .unknownState(s)) }
                return i
            }
            var eventIndex: [Event: Int] = [:]
            var guards: [Guard] = []
            var actions: [Action] = []
            func actionIDs(_ list: [Action]) -> [Int] {
                list.map { a in actions.append(a); if case .raise(let e) = a, eventIndex[e] == nil { eventIndex[e] = eventIndex.count }; return actions.count - 1 }
            }
            func isDescendant(_ s: Int, of a: Int) -> Bool {
                var x = parent[s]
                while x != -1 { if x == a { return true }; x = parent[x] }
                return false
            }
            var initials = [[Int]](repeating: [], count: kinds.count)
            var owned = [[Int]](repeating: [], count: kinds.count)
            var all: [ChartTransition] = []
            var entry = [[Int]](repeating: [], count: kinds.count)
            var exit = [[Int]](repeating: [], count: kinds.count)
            initials[0] = try rootStates.map { x throws(DefinitionError) in try id(x) }
            for s in 1..<kinds.count {
                let node = flat[s]!
                switch kinds[s] {
                case .compound:
                    let first = children[s].first { kinds[$0] != .history && kinds[$0] != .deepHistory } ?? children[s][0]
                    initials[s] = node.initial.isEmpty ? [first] : try node.initial.map { x throws(DefinitionError) in try id(x) }
                case .history, .deepHistory:
                    initials[s] = try node.initial.map { x throws(DefinitionError) in try id(x) }
                default:
                    break
                }
                let scope = kinds[s] == .compound ? s : parent[s]
                for i in initials[s] where !isDescendant(i, of: scope) {
                    throw DefinitionError(kind: .initialNotADescendant(parent: node.id, initial: states[i - 1]))
                }
                entry[s] = actionIDs(node.entry)
                exit[s] = actionIDs(node.exit)
                for t in node.transitions {
                    var trigger = -1, isDone = false
                    switch t.trigger {
                    case .event(let e)?:
                        if eventIndex[e] == nil { eventIndex[e] = eventIndex.count }
                        trigger = eventIndex[e]!
                    case .done(let d)?:
                        trigger = try id(d)
                        isDone = true
                    case .any?:
                        trigger = -3
                    case nil:
                        break
                    }
                    var g = -1
                    if let c = t.condition { guards.append(c); g = guards.count - 1 }
                    owned[s].append(all.count)
                    all.append(ChartTransition(
                        source: s, trigger: trigger, isDone: isDone,
                        targets: try t.targets.map { x throws(DefinitionError) in try id(x) },
                        isInternal: t.isInternal, guardIndex: g, actions: actionIDs(t.actions)))
                }
            }
            self.states = states
            self.index = index
            self.eventIndex = eventIndex
            self.guards = guards
            self.actions = actions
            self.table = ChartTable(kind: kinds, parent: parent, children: children, initial: initials, transitions: owned,
                                    allTransitions: all, entryActions: entry, exitActions: exit)
        }

        /// The chart's id of `state`; nil when it is not declared.
        func id(of state: State) -> Int? { index[state] }

        /// The state of chart id `i` (not the root).
        func state(_ i: Int) -> State { states[i - 1] }
    }
}


// The per-event workloads of issue 36, shared by the package-benchmark suite
// (Benchmarks/EventMachineEvents: instructions, mallocs) and `event-table` (the README's
// ns-per-event table): the subway gate, driven by alternating coin/push events, written
// three ways — a hand-written `switch`, a class per state (GKStateMachine's design: a
// dictionary of state objects and virtual calls) and the typed event machine.
import EventMachine

public enum Gate: Discriminated, CaseIterable, Hashable, Sendable { case locked, unlocked }
public enum GateEvent: Discriminated, CaseIterable, Hashable, Sendable { case coin, push }

/// The events the workloads fire, alternating so every one changes the state.
public let gateEvents: [GateEvent] = [.coin, .push]

// MARK: - Hand-written switch

/// The gate as most people would write it first: one `switch`.
public struct SwitchGate {
    public var state = Gate.locked
    public var passengers = 0
    public init() {}

    @inline(never)
    public mutating func fire(_ event: GateEvent) {
        switch (state, event) {
        case (.locked, .coin): state = .unlocked
        case (.unlocked, .push): state = .locked; passengers &+= 1
        case (.locked, .push), (.unlocked, .coin): break
        }
    }
}

// MARK: - A class per state (GKStateMachine's design)

/// A state object: it says which states it may move to, and is entered and left.
open class GateStateNode {
    public init() {}
    open func isValidNextState(_ next: ObjectIdentifier) -> Bool { false }
    open func didEnter(from previous: GateStateNode?) {}
    open func willExit(to next: GateStateNode) {}
}

public final class LockedNode: GateStateNode {
    override public func isValidNextState(_ next: ObjectIdentifier) -> Bool { next == ObjectIdentifier(UnlockedNode.self) }
}

public final class UnlockedNode: GateStateNode {
    @exclusivity(unchecked) public var passengers = 0
    override public func isValidNextState(_ next: ObjectIdentifier) -> Bool { next == ObjectIdentifier(LockedNode.self) }
    override public func willExit(to next: GateStateNode) { passengers &+= 1 }
}

/// GKStateMachine's shape: state objects in a dictionary keyed by their class, `enter`
/// asks the current state, then calls willExit / didEnter.
public final class ClassPerStateGate {
    private var states: [ObjectIdentifier: GateStateNode] = [:]
    public private(set) var current: GateStateNode

    public init() {
        let locked = LockedNode(), unlocked = UnlockedNode()
        states[ObjectIdentifier(LockedNode.self)] = locked
        states[ObjectIdentifier(UnlockedNode.self)] = unlocked
        current = locked
    }

    @inline(never)
    @discardableResult
    public func enter(_ stateClass: AnyClass) -> Bool {
        let id = ObjectIdentifier(stateClass)
        guard current.isValidNextState(id), let next = states[id] else { return false }
        current.willExit(to: next)
        let previous = current
        current = next
        next.didEnter(from: previous)
        return true
    }

    /// The event, mapped to the state class it leads to (as GKStateMachine users do).
    @inline(__always)
    public func fire(_ event: GateEvent) {
        enter(event == .coin ? UnlockedNode.self : LockedNode.self)
    }
}

// MARK: - The typed event machine

/// The gate's table: coin unlocks, push locks, each only from the other state.
public func gateDefinition() -> StateMachine<Gate, GateEvent>.Definition {
    try! StateMachine<Gate, GateEvent>.Definition(initial: .locked, rules: [
        .on(.coin, from: .locked, to: .unlocked),
        .on(.push, from: .unlocked, to: .locked),
    ])
}

/// A machine with no hooks.
public func plainGate() -> StateMachine<Gate, GateEvent> {
    let machine = StateMachine(gateDefinition())
    machine.start()
    return machine
}

/// Counts what the hooks see, so the optimizer cannot drop them. Unchecked exclusivity:
/// the number is the machine's cost, not that of Swift's dynamic check on a class's `var`
/// (three calls per event, as much as the machine's own work).
public final class HookCounter: @unchecked Sendable {
    @exclusivity(unchecked) public var count = 0
    public init() {}
}

/// A machine where every event runs two hooks (the left state's will-exit, the entered
/// state's did-enter) and one observer.
public func hookedGate(_ counter: HookCounter) -> StateMachine<Gate, GateEvent> {
    let machine = StateMachine(gateDefinition())
    for state in Gate.allCases {
        machine.onWillExit(state) { _ in counter.count &+= 1 }
        machine.onDidEnter(state) { _ in counter.count &+= 1 }
    }
    machine.observe { _ in counter.count &+= 1 }
    machine.start()
    return machine
}

/// A machine whose table refuses `push` in `locked` (the state never changes).
public func refusingGate() -> StateMachine<Gate, GateEvent> {
    let machine = try! StateMachine<Gate, GateEvent>(initial: .locked, rules: [.on(.coin, from: .unlocked, to: .locked)])
    machine.start()
    return machine
}

/// The main-actor machine with no hooks.
@MainActor public func plainMainActorGate() -> MainActorStateMachine<Gate, GateEvent> {
    let machine = MainActorStateMachine(gateDefinition())
    machine.start()
    return machine
}

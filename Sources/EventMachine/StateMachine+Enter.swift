// What GameplayKit and XState offer beside events (issue 47): entering a state directly
// (GKStateMachine's `enter(_:)`), and reading, clearing and restoring the history of
// parent states (XState persists it with a snapshot). The move itself is planned by
// `EventTable.enterPlan` and run by the core like any transition, without an event:
// no guard and no fire hook, every exit and enter hook in the documented order.

extension StateMachine {
    /// Moves straight to `state`, as GameplayKit's `enter(_:)`, whatever the rules say:
    /// the exit hooks of the states left and the enter hooks of the states entered run
    /// in the documented order, then the observers, with a transition whose `event` is
    /// `nil`; no guard or fire hook runs. Entering the current state leaves and re-enters
    /// it; a parent resolves to its initial child (or its history). Queued behind the
    /// current transition when the machine is busy.
    ///
    /// ```swift
    /// machine.enter(.paused)          // from wherever the machine is
    /// ```
    ///
    /// - Returns: `false` when `state`'s case is not in `State.Case.allCases` (nothing
    ///   happens); `true` otherwise.
    @discardableResult
    public func enter(_ state: State) -> Bool {
        guard definition.position(of: state.case) != nil else { return false }
        submit(.enter(state))
        return true
    }

    /// The history of the parents that keep it: by parent case, the state (a leaf, with
    /// its data) the machine was in when it last left that parent. Save it with the
    /// state and give it back with ``restoreHistory(_:)``.
    public var history: [State.Case: State] { core.savedHistory() }

    /// Forgets the history of `parent`, or of every parent when `nil`: entering the
    /// parent enters its initial child again.
    public func clearHistory(of parent: State.Case? = nil) { core.clearHistory(of: parent) }

    /// Restores history saved from ``history``: each value must be a leaf inside a parent
    /// that keeps history; other entries are ignored.
    ///
    /// ```swift
    /// let saved = machine.history            // when the app goes to the background
    /// restored.restoreHistory(saved)         // in the new process
    /// ```
    public func restoreHistory(_ saved: [State.Case: State]) { core.restoreHistory(saved) }
}

extension MainActorStateMachine {
    /// Moves straight to `state`, whatever the rules say; see ``StateMachine/enter(_:)``.
    @discardableResult
    public func enter(_ state: State) -> Bool {
        guard definition.position(of: state.case) != nil else { return false }
        submit(.enter(state))
        return true
    }

    /// The history of the parents that keep it; see ``StateMachine/history``.
    public var history: [State.Case: State] { core.savedHistory() }

    /// Forgets the history of `parent`, or of every parent when `nil`.
    public func clearHistory(of parent: State.Case? = nil) { core.clearHistory(of: parent) }

    /// Restores history saved from ``history``.
    public func restoreHistory(_ saved: [State.Case: State]) { core.restoreHistory(saved) }
}

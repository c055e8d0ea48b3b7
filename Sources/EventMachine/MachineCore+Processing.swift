// What the processing caller does with one piece of work, in the documented order
// (StateMachine.swift, "Order of calls for one transition"): guards, will-fire, will-exit
// (innermost first), will-enter (outermost first), the state change, did-exit, did-enter
// and state-scoped work, did-fire, observers, streams. Only the caller that took the
// machine (`busy`) runs this, outside the lock, so hooks may call back into the machine;
// it locks only to read the hooks and state and to change the state.
//
// The owner passes `call`, `check`, `reject` and `update`, which invoke its closures in
// its own isolation, and `announce`, which tells Observation that `state` changed.

extension MachineCore {
    /// Processes `work` as the processor, entering the initial state first if the machine
    /// has not started; returns nil when no event was processed (an update, a start, a
    /// timeout whose state was left).
    @inlinable
    func process(
        _ work: Work,
        call: (Hook, Transition) -> Void,
        check: (Guard, Transition) -> Bool,
        reject: (Rejection, TransitionError) -> Void,
        update: (Update, inout State, Double) -> Void,
        announce: () -> Void
    ) -> Outcome? {
        switch work {
        case .event(let event, _):
            return processTaken(event, hooks: locked { self.hooks }, call: call, check: check, reject: reject, announce: announce)
        default:
            return processOther(work, call: call, check: check, reject: reject, update: update, announce: announce)
        }
    }

    /// Processes `event` for the caller that took the machine (starting it first if needed).
    @inlinable
    func processTaken(
        _ event: Event, hooks: Hooks,
        call: (Hook, Transition) -> Void,
        check: (Guard, Transition) -> Bool,
        reject: (Rejection, TransitionError) -> Void,
        announce: () -> Void
    ) -> Outcome {
        if !started {
            let (hooks, state, leaf) = locked { (self.hooks, self.state, self.leaf) }
            _ = run(table.startPlan(in: state, leaf: leaf), eventClass: -1, hooks: hooks,
                    call: call, check: check, reject: reject, announce: announce)
        }
        return processEvent(event, hooks: hooks, call: call, check: check, reject: reject, announce: announce)
    }

    /// Processes work other than an event.
    @inlinable
    func processOther(
        _ work: Work,
        call: (Hook, Transition) -> Void,
        check: (Guard, Transition) -> Bool,
        reject: (Rejection, TransitionError) -> Void,
        update: (Update, inout State, Double) -> Void,
        announce: () -> Void
    ) -> Outcome? {
        if !started {
            let (hooks, state, leaf) = locked { (self.hooks, self.state, self.leaf) }
            _ = run(table.startPlan(in: state, leaf: leaf), eventClass: -1, hooks: hooks,
                    call: call, check: check, reject: reject, announce: announce)
        }
        switch work {
        case .start:
            return nil
        case .update(let deltaTime):
            let (hooks, old, leaf) = locked { (self.hooks, self.state, self.leaf) }
            var value = old
            let chain = table.ancestry[leaf]
            var k = chain.count
            while k > 0 {
                k -= 1
                for handler in hooks.updates[chain[k]] { update(handler, &value, deltaTime) }
            }
            // An update changes the state's data, never its case (that takes an event).
            guard value.case == old.case else { return nil }
            let notify: Bool = locked {
                state = value
                defer { stateRead = false }
                return stateRead
            }
            if notify { announce() }
            return nil
        case .event(let event, _):
            return processEvent(event, hooks: locked { self.hooks }, call: call, check: check, reject: reject, announce: announce)
        case .timeout(let event, let position, let generation):
            guard entryCount[position] == generation, table.contains(position, leaf) else { return nil }
            return processEvent(event, hooks: locked { self.hooks }, call: call, check: check, reject: reject, announce: announce)
        case .enter(let target):
            let t = table.stateIndex.index(of: target.case)
            guard t >= 0 else { return nil }
            let (hooks, history) = locked { (self.hooks, self.history) }
            return run(table.enterPlan(from: state, at: leaf, to: target, position: t, history: history), eventClass: -1,
                       hooks: hooks, call: call, check: check, reject: reject, announce: announce)
        }
    }

    @inlinable
    func processEvent(
        _ event: Event, hooks: Hooks,
        call: (Hook, Transition) -> Void,
        check: (Guard, Transition) -> Bool,
        reject: (Rejection, TransitionError) -> Void,
        announce: () -> Void
    ) -> Outcome {
        // Only the processing caller writes state, leaf and history: it reads them unlocked.
        let c = table.eventIndex.index(of: event.case)
        if c >= 0 {
            // PERF: the entries whose hooks are listed need no planning beyond the cell.
            let i = leaf &* table.eventCount &+ c
            let cell = table.cells[i]
            if cell.kind == .fixed, cell.leaf >= 0 {
                let plan = Table.Plan(
                    transition: .init(from: state, event: event, to: table.cellTargets[i].unsafelyUnwrapped),
                    oldLeaf: leaf, leaf: Int(cell.leaf), domain: Int(cell.domain))
                return runListed(plan, eventClass: c, index: i, hooks: hooks,
                                 call: call, check: check, reject: reject, announce: announce)
            }
            if cell.kind == .internalPlain {
                let plan = Table.Plan(transition: .init(from: state, event: event, to: state, isInternal: true),
                                      oldLeaf: leaf, leaf: leaf, domain: leaf)
                return runListed(plan, eventClass: c, index: i, hooks: hooks,
                                 call: call, check: check, reject: reject, announce: announce)
            }
        }
        let planned = table.isFlat
            ? table.plan(event, in: state, leaf: leaf, history: table.noHistory)
            : table.plan(event, in: state, leaf: leaf, history: locked { self.history })
        switch planned {
        case .failure(let error):
            for observer in hooks.rejections { reject(observer.body, error) }
            return .failure(error)
        case .success(let plan):
            return run(plan, eventClass: c, hooks: hooks, call: call, check: check, reject: reject, announce: announce)
        }
    }

    /// Runs the plan of table entry `i`, whose hooks `MachineHooks` listed in order when
    /// they were registered: guards, the hooks before the change, the change, the hooks
    /// after it (observers included), streams.
    @inlinable
    func runListed(
        _ plan: Table.Plan, eventClass c: Int, index i: Int, hooks: Hooks,
        call: (Hook, Transition) -> Void,
        check: (Guard, Transition) -> Bool,
        reject: (Rejection, TransitionError) -> Void,
        announce: () -> Void
    ) -> Outcome {
        let t = plan.transition
        let present = hooks.present[i]
        if present & 1 != 0 {
            for g in hooks.guards[c] where !check(g, t) {
                let refusal = TransitionError(.refusedByGuard(
                    event: t.event.unsafelyUnwrapped.case, state: t.from.unsafelyUnwrapped.case, destination: t.to.case))
                for observer in hooks.rejections { reject(observer.body, refusal) }
                return .failure(refusal)
            }
        }
        // SAFETY: `hooks` is held for this call, so its `listed` buffer is alive and
        // unchanged (MachineHooks.recompute); the bounds were made with it.
        let bounds = 3 &* i
        if present & 2 != 0 {
            var k = Int(hooks.listedBounds[bounds])
            let end = Int(hooks.listedBounds[bounds &+ 1])
            while k < end { call(hooks.listed[k], t); k &+= 1 }
        }
        let (cancelled, notify): ([Task<Void, Never>]?, Bool) = locked {
            let cancelled = commitLocked(plan)
            defer { stateRead = false }
            return (cancelled, stateRead)
        }
        if let cancelled { for task in cancelled { task.cancel() } }
        if notify { announce() }
        if present & 4 != 0 {
            var k = Int(hooks.listedBounds[bounds &+ 1])
            let end = Int(hooks.listedBounds[bounds &+ 2])
            while k < end { call(hooks.listed[k], t); k &+= 1 }
        }
        if hooks.streaming { for subscriber in hooks.subscribers { subscriber.continuation.yield(t) } }
        return .success(t)
    }

    /// Runs a plan: guards (for an event), hooks, the state change, observers, streams.
    @inlinable
    func run(
        _ plan: Table.Plan, eventClass c: Int, hooks: Hooks,
        call: (Hook, Transition) -> Void,
        check: (Guard, Transition) -> Bool,
        reject: (Rejection, TransitionError) -> Void,
        announce: () -> Void
    ) -> Outcome {
        let t = plan.transition
        if c >= 0 {
            for g in hooks.guards[c] where !check(g, t) {
                let refusal = TransitionError(.refusedByGuard(
                    event: t.event.unsafelyUnwrapped.case, state: t.from.unsafelyUnwrapped.case, destination: t.to.case))
                for observer in hooks.rejections { reject(observer.body, refusal) }
                return .failure(refusal)
            }
            for hook in hooks.willFire[c] { call(hook, t) }
        }
        table.forEachExit(of: plan) { p in for hook in hooks.willExit[p] { call(hook, t) } }
        table.forEachEntry(of: plan) { p in for hook in hooks.willEnter[p] { call(hook, t) } }
        let (cancelled, notify): ([Task<Void, Never>]?, Bool) = locked {
            let cancelled = commitLocked(plan)
            defer { stateRead = false }
            return (cancelled, stateRead)
        }
        if let cancelled { for task in cancelled { task.cancel() } }
        if notify { announce() }
        table.forEachExit(of: plan) { p in for hook in hooks.didExit[p] { call(hook, t) } }
        table.forEachEntry(of: plan) { p in for hook in hooks.didEnter[p] { call(hook, t) } }
        table.forEachEntry(of: plan) { p in for hook in hooks.startWork[p] { call(hook, t) } }
        if c >= 0 { for hook in hooks.didFire[c] { call(hook, t) } }
        for observer in hooks.observers { call(observer.body, t) }
        for subscriber in hooks.subscribers { subscriber.continuation.yield(t) }
        return .success(t)
    }
}

extension StateMachine.Definition {
    /// `true` when some event valid in the leaf `state` leads into `target` (to it or to
    /// a state nested in it): for an event case without data (``Discriminated/valuesWithoutData``)
    /// exactly as `fire` would decide — its rule planned, its guards asked through
    /// `accepts`; for a case that carries data, when the table declares the edge (its
    /// rule and guards need the data).
    func canEnter(_ target: State.Case, from state: State, leaf: Int, history: [State?],
                  accepts: (Int, StateMachine.Transition) -> Bool) -> Bool {
        guard let t = position(of: target) else { return false }
        for e in validEvents(in: state.case) {
            guard let event = Event.value(of: e) else {
                if destinations(from: state.case, on: e).contains(where: { d in
                    position(of: d).map { table.contains(t, $0) || table.contains($0, t) } ?? false
                }) { return true }
                continue
            }
            guard case .success(let plan) = table.plan(event, in: state, leaf: leaf, history: history),
                  table.contains(t, plan.leaf),
                  let c = eventClass(e) else { continue }
            if accepts(c, plan.transition) { return true }
        }
        return false
    }
}

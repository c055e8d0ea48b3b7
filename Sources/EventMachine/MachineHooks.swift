// The closures a machine runs, by where they apply (state position, event class), in
// one immutable table. Registering a hook makes a new table (or changes the one table
// in place when nobody else holds it) and swaps it in under the machine's lock; the
// thread processing an event takes the current table with one retain and reads it
// without any lock, so an event copies no array of closures (issue 36: arrays built per
// event were most of its cost).
//
// `quiet[i]` says that the table entry `i` (leaf × event class) runs no closure of the
// app at all — no guard, no hook, no observer, no stream — so `fire` may do the whole
// transition in one critical section (MachineCore.quickly). It is recomputed on every
// registration, which is rare; reading it is one load per event.

/// Hooks, guards, observers and streams of one machine; `Hook`, `Guard`, `Update` and
/// `Rejection` are the closure types of the machine's isolation.
@usableFromInline
internal final class MachineHooks<State: Discriminated, Event: Discriminated, Hook, Guard, Update, Rejection> {
    @usableFromInline typealias Definition = StateMachine<State, Event>.Definition
    @usableFromInline typealias Transition = StateMachine<State, Event>.Transition

    /// By event class: the event's own guards, then the machine-wide ones, each in
    /// registration order (the order they are asked in).
    @exclusivity(unchecked) @usableFromInline var guards: [[Guard]]
    /// The guards as registered: with their id and event class, nil for machine-wide ones.
    var registeredGuards: [(id: Int, eventClass: Int?, body: Guard)] = []
    /// The ids of the hooks in each `[[Hook]]` list, parallel to it (for removal).
    var ids: [ReferenceWritableKeyPath<MachineHooks, [[Hook]]>: [[Int]]] = [:]
    /// The ids of `updates`, parallel to it.
    var updateIDs: [[Int]]
    /// By state position.
    @exclusivity(unchecked) @usableFromInline var willExit: [[Hook]], willEnter: [[Hook]], didExit: [[Hook]], didEnter: [[Hook]]
    /// By state position: starters of state-scoped work, run after the did-enter hooks.
    @exclusivity(unchecked) @usableFromInline var startWork: [[Hook]]
    /// By state position.
    @exclusivity(unchecked) @usableFromInline var updates: [[Update]]
    /// By event class.
    @exclusivity(unchecked) @usableFromInline var willFire: [[Hook]], didFire: [[Hook]]
    @exclusivity(unchecked) @usableFromInline var observers: [(id: Int, body: Hook)] = []
    @exclusivity(unchecked) @usableFromInline var rejections: [(id: Int, body: Rejection)] = []
    @exclusivity(unchecked) @usableFromInline var subscribers: [(id: Int, continuation: AsyncStream<Transition>.Continuation)] = []
    /// By table index, for entries whose states left and entered are known when the
    /// table is built (a fixed destination without history, an internal rule without
    /// update): every hook before the state changes, in the documented order (will-fire,
    /// will-exit innermost first, will-enter outermost first), and every one after it
    /// (did-exit, did-enter, state-scoped work, did-fire, observers). Empty elsewhere.
    ///
    var before: [[Hook]] = []
    var after: [[Hook]] = []
    /// `before` and `after` of every entry, one after the other in one buffer that this
    /// table owns: entry `i`'s hooks before the change are
    /// `listed[listedBounds[3i] ..< listedBounds[3i + 1]]`, those after it
    /// `listed[listedBounds[3i + 1] ..< listedBounds[3i + 2]]`.
    ///
    /// PERF: event-table, "2 hooks + an observer". Called from arrays, each list cost a
    /// retain and release of the array and each hook one of its closure (atomic
    /// operations, most of an event's cost); called in place from this buffer, which
    /// lives as long as the table the processing caller holds, they cost neither.
    @exclusivity(unchecked) @usableFromInline var listed: UnsafeMutablePointer<Hook>
    @exclusivity(unchecked) @usableFromInline var listedBounds: [Int32] = []
    /// How many hooks `listed` holds (initialized).
    var listedCount = 0
    /// By table index: which of the event's guards (1), `before` (2) and `after` (4)
    /// are non-empty, so that an empty list costs a byte read rather than an array's
    /// retain and release.
    @exclusivity(unchecked) @usableFromInline var present: [UInt8] = []
    /// `true` when a `transitions` stream is open.
    @exclusivity(unchecked) @usableFromInline var streaming = false
    /// By table index (leaf position × event count + event class): `true` when firing
    /// that entry calls nothing of the app's (see the file comment).
    @exclusivity(unchecked) @usableFromInline var quiet: [Bool]
    /// `true` when an event outside `Event.Case.allCases` calls nothing (no rejection observer).
    @exclusivity(unchecked) @usableFromInline var quietUnknown = true

    init(_ definition: Definition) {
        let n = definition.states.count, e = definition.events.count
        guards = Array(repeating: [], count: e)
        willExit = Array(repeating: [], count: n)
        willEnter = Array(repeating: [], count: n)
        didExit = Array(repeating: [], count: n)
        didEnter = Array(repeating: [], count: n)
        startWork = Array(repeating: [], count: n)
        updates = Array(repeating: [], count: n)
        updateIDs = Array(repeating: [], count: n)
        willFire = Array(repeating: [], count: e)
        didFire = Array(repeating: [], count: e)
        quiet = []
        listed = .allocate(capacity: 1)
        recompute(definition)
    }

    deinit {
        listed.deinitialize(count: listedCount)
        listed.deallocate()
    }

    /// A copy to change and swap in.
    func copy(_ definition: Definition) -> MachineHooks {
        let c = MachineHooks(definition)
        c.guards = guards
        c.registeredGuards = registeredGuards
        c.willExit = willExit
        c.willEnter = willEnter
        c.didExit = didExit
        c.didEnter = didEnter
        c.startWork = startWork
        c.updates = updates
        c.updateIDs = updateIDs
        c.ids = ids
        c.willFire = willFire
        c.didFire = didFire
        c.observers = observers
        c.rejections = rejections
        c.subscribers = subscribers
        c.quiet = quiet
        c.before = before
        c.after = after
        c.present = present
        c.streaming = streaming
        c.quietUnknown = quietUnknown
        return c
    }

    /// Adds `hook` with its `id` to `list` at `index` (a state position or event class).
    func add(_ hook: Hook, id: Int, to list: ReferenceWritableKeyPath<MachineHooks, [[Hook]]>, at index: Int) {
        self[keyPath: list][index].append(hook)
        ids[list, default: Array(repeating: [], count: self[keyPath: list].count)][index].append(id)
    }

    /// Removes the hook, guard or update registered with `id`, if any.
    func remove(id: Int) {
        for (list, rows) in ids {
            for (index, row) in rows.enumerated() {
                if let k = row.firstIndex(of: id) {
                    self[keyPath: list][index].remove(at: k)
                    ids[list]![index].remove(at: k)
                    return
                }
            }
        }
        if let k = registeredGuards.firstIndex(where: { $0.id == id }) {
            registeredGuards.remove(at: k)
            return
        }
        for p in updateIDs.indices {
            if let k = updateIDs[p].firstIndex(of: id) {
                updates[p].remove(at: k)
                updateIDs[p].remove(at: k)
                return
            }
        }
    }

    /// Rebuilds `guards` and `quiet` after a change.
    func recompute(_ definition: Definition) {
        for c in guards.indices {
            guards[c] = registeredGuards.filter { $0.eventClass == c }.map(\.body)
                + registeredGuards.filter { $0.eventClass == nil }.map(\.body)
        }
        let e = definition.table.eventCount
        let watched = !observers.isEmpty || !subscribers.isEmpty
        quietUnknown = rejections.isEmpty
        before = Array(repeating: [], count: definition.table.cells.count)
        after = Array(repeating: [], count: definition.table.cells.count)
        quiet = Array(repeating: false, count: definition.table.cells.count)
        present = Array(repeating: 0, count: definition.table.cells.count)
        streaming = !subscribers.isEmpty
        let observing = observers.map(\.body)
        for i in definition.table.cells.indices {
            let cell = definition.table.cells[i], leaf = i / max(e, 1), c = i % max(e, 1)
            switch cell.kind {
            case .invalid:
                quiet[i] = rejections.isEmpty
            case .internalPlain:
                before[i] = willFire[c]
                after[i] = didFire[c] + observing
                quiet[i] = !watched && guards[c].isEmpty && before[i].isEmpty && after[i].isEmpty
            case .fixed where cell.leaf >= 0:
                let plan = EventTable<State, Event>.Plan(transition: .init(from: nil, event: nil, to: definition.initialState),
                                           oldLeaf: leaf, leaf: Int(cell.leaf), domain: Int(cell.domain))
                var will = willFire[c], did: [Hook] = []
                definition.table.forEachExit(of: plan) { p in will += willExit[p] }
                definition.table.forEachEntry(of: plan) { p in will += willEnter[p] }
                definition.table.forEachExit(of: plan) { p in did += didExit[p] }
                definition.table.forEachEntry(of: plan) { p in did += didEnter[p] }
                definition.table.forEachEntry(of: plan) { p in did += startWork[p] }
                did += didFire[c]
                did += observing
                before[i] = will
                after[i] = did
                quiet[i] = !watched && guards[c].isEmpty && will.isEmpty && did.isEmpty
            case .fixed, .computed, .internalUpdate, .stayOrMove:
                quiet[i] = false   // history decides the states, or the rule's own closure is the app's code
            }
            if e > 0, !guards[c].isEmpty { present[i] |= 1 }
            if !before[i].isEmpty { present[i] |= 2 }
            if !after[i].isEmpty { present[i] |= 4 }
        }
        // SAFETY: `listed` is only changed here, on a table no processing caller holds
        // (MachineCore.register copies a shared table first); it is freed in deinit.
        let total = definition.table.cells.indices.reduce(0) { $0 + before[$1].count + after[$1].count }
        let buffer = UnsafeMutablePointer<Hook>.allocate(capacity: max(total, 1))
        var bounds: [Int32] = []
        bounds.reserveCapacity(3 * definition.table.cells.count)
        var k = 0
        for i in definition.table.cells.indices {
            bounds.append(Int32(k))
            for hook in before[i] { (buffer + k).initialize(to: hook); k += 1 }
            bounds.append(Int32(k))
            for hook in after[i] { (buffer + k).initialize(to: hook); k += 1 }
            bounds.append(Int32(k))
        }
        listed.deinitialize(count: listedCount)
        listed.deallocate()
        listed = buffer
        listedCount = total
        listedBounds = bounds
    }
}

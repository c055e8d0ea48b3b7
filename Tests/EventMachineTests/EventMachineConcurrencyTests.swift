// One machine shared by many tasks: no transition may be lost, torn, reordered within
// its sender, or overlap another. Outcomes are deterministic (counts and the final
// state), whatever the interleaving; no timing decides anything.
//
// ThreadSanitizer note (Swift 6.3, Linux): TSan does not see the futex hand-off of
// `Synchronization.Mutex` and reports races inside every `Mutex.withLock` body, so the
// machine and the test recorder use `LockedValue` (a pthread mutex) instead; these
// tests run clean under `swift test --sanitize=thread` (`make test-tsan`).

import Testing
import Synchronization
import AutomatonCore
import EventMachine

@Suite("EventMachine concurrency")
struct EventMachineConcurrencyTests {
    /// A counter modulo 7.
    enum Count: Int, Discriminated, CaseIterable, Hashable { case c0, c1, c2, c3, c4, c5, c6 }
    /// Which task sent an event, and its position in that task's sequence.
    struct Tag: Sendable, Hashable { var task: Int; var seq: Int }

    /// A step, tagged with its sender (the event carries its data; this test used an
    /// `any Sendable` payload before events could carry data).
    enum Step: Discriminated, Hashable {
        case tick(Tag), back(Tag)
        enum Case: CaseIterable, Hashable, Sendable { case tick, back }
        var `case`: Case {
            switch self {
            case .tick: .tick
            case .back: .back
            }
        }
        var tag: Tag {
            switch self {
            case .tick(let tag), .back(let tag): tag
            }
        }
    }
    typealias Counter = StateMachine<Count, Step>

    static func counterRules() -> [Counter.Rule] {
        Count.allCases.flatMap { s in
            [
                Counter.Rule.on(.tick, from: s, to: Count(rawValue: (s.rawValue + 1) % 7)!),
                Counter.Rule.on(.back, from: s, to: Count(rawValue: (s.rawValue + 6) % 7)!),
            ]
        }
    }

    /// Task t's i-th event: every fourth one is `.back`, the rest `.tick`.
    static func step(_ i: Int, task: Int = 0) -> Step {
        i % 4 == 3 ? .back(Tag(task: task, seq: i)) : .tick(Tag(task: task, seq: i))
    }

    @Test("EventMachine concurrency: 8 tasks × 1,000 events, no transition lost, torn, reordered or overlapping")
    func manyTasks() async throws {
        let tasks = 8, perTask = 1_000, updates = 500
        let machine = try Counter(initial: .c0, rules: Self.counterRules())
        machine.start()   // the start is not one of the counted transitions
        let table = Set(machine.definition.edges)

        let log = EventMachineFixtures.Recorder<Counter.Transition>()
        let active = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let hookCalls = Atomic<Int>(0)
        let updateCalls = Atomic<Int>(0)
        let rejected = Atomic<Int>(0)
        for state in Count.allCases {
            machine.onWillExit(state) { _ in
                // Exactly one transition may be between will-exit and did-enter.
                if active.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                    overlaps.add(1, ordering: .relaxed)
                }
                hookCalls.add(1, ordering: .relaxed)
            }
            machine.onDidEnter(state) { _ in
                active.subtract(1, ordering: .sequentiallyConsistent)
            }
            machine.onUpdate(state) { _ in
                if active.load(ordering: .sequentiallyConsistent) != 0 { overlaps.add(1, ordering: .relaxed) }
                updateCalls.add(1, ordering: .relaxed)
            }
        }
        machine.observe { t in log.append(t) }
        machine.observeRejections { _ in rejected.add(1, ordering: .relaxed) }

        // Even tasks use fire (completed or queued), odd tasks await send; one more
        // task calls update(deltaTime:) in between.
        let outcomes = await withTaskGroup(of: (completed: Int, queued: Int, ownOK: Bool).self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var completed = 0, queued = 0, ownOK = true
                    for i in 0..<perTask {
                        let event = Self.step(i, task: task)
                        if task % 2 == 0 {
                            switch try? machine.fire(event) {
                            case .completed(let t)?:
                                completed += 1
                                ownOK = ownOK && t.event == event
                            case .queued?: queued += 1
                            case nil: ownOK = false
                            }
                        } else {
                            let t = try? await machine.send(event)
                            completed += 1
                            ownOK = ownOK && t?.event == event && t?.edge.map(table.contains) == true
                        }
                        if i % 100 == 99 { await Task.yield() }
                    }
                    return (completed, queued, ownOK)
                }
            }
            group.addTask {
                for i in 0..<updates {
                    machine.update(deltaTime: 0.001)
                    if i % 50 == 49 { await Task.yield() }
                }
                return (0, 0, true)
            }
            var all: [(completed: Int, queued: Int, ownOK: Bool)] = []
            for await outcome in group { all.append(outcome) }
            return all
        }

        let total = tasks * perTask
        // Every fire/send call is accounted for, and each got its own event back.
        #expect(outcomes.map { $0.completed + $0.queued }.reduce(0, +) == total)
        #expect(outcomes.allSatisfy { $0.ownOK })
        // Once every call has returned, every event has been processed: none lost.
        let transitions = log.values
        #expect(transitions.count == total)
        #expect(rejected.load(ordering: .relaxed) == 0)
        #expect(hookCalls.load(ordering: .relaxed) == total)
        #expect(updateCalls.load(ordering: .relaxed) == updates)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(active.load(ordering: .relaxed) == 0)

        // Not torn: each transition is a table entry and starts where the previous ended.
        #expect(transitions.allSatisfy { $0.edge.map(table.contains) == true })
        #expect(transitions.first?.from == .c0)
        var chained = true
        for (a, b) in zip(transitions, transitions.dropFirst()) where a.to != b.from { chained = false }
        #expect(chained)

        // Arrival order per sender: each task's events are processed in the order sent.
        var lastSeq = [Int](repeating: -1, count: tasks)
        var inOrder = true
        var perTaskCount = [Int](repeating: 0, count: tasks)
        for t in transitions {
            guard let tag = t.event?.tag else { inOrder = false; continue }
            if tag.seq != lastSeq[tag.task] + 1 { inOrder = false }
            lastSeq[tag.task] = tag.seq
            perTaskCount[tag.task] += 1
        }
        #expect(inOrder)
        #expect(perTaskCount == [Int](repeating: perTask, count: tasks))

        // 750 ticks and 250 backs per task: net +4,000 ≡ 3 (mod 7).
        let net = tasks * (0..<perTask).map { Self.step($0).case == .tick ? 1 : -1 }.reduce(0, +)
        #expect(net == 4_000)
        #expect(machine.state == Count(rawValue: ((net % 7) + 7) % 7))
        #expect(machine.state == .c3)
    }

    @Test("EventMachine concurrency: invalid events from many tasks are rejected and leave the state alone")
    func concurrentRejections() async throws {
        typealias Gate = EventMachineFixtures.GateMachine
        let gate = try Gate(initial: .locked, rules: [.on(.coin, from: .locked, to: .unlocked)])
        let rejections = Atomic<Int>(0)
        gate.observeRejections { error in
            if error.kind == .invalidEvent(event: .push, state: .locked) { rejections.add(1, ordering: .relaxed) }
        }
        let thrown = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var thrown = 0
                    for _ in 0..<250 {
                        do throws(Gate.TransitionError) { try await gate.send(.push) } catch { thrown += error.state == .locked ? 1 : 0 }
                    }
                    return thrown
                }
            }
            return await group.reduce(0, +)
        }
        #expect(thrown == 1_000)
        #expect(rejections.load(ordering: .relaxed) == 1_000)
        #expect(gate.state == .locked)
    }
}

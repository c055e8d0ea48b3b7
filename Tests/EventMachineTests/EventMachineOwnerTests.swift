// Hooks handed their owner instead of capturing it (issue 47). The trial's screen
// captured itself `[unowned self]` in its hooks; when a did-enter hook dismissed the
// screen (freeing it, and with it the machine's last owner) on an event that the
// state's task had sent, the next hook read the freed owner and the process aborted.
// With `owner:` registrations the hooks hold the owner weakly and are skipped once it
// is gone: these tests free the owner from inside a task-fired transition and check
// that the transition completes, the later owner hooks are skipped, hooks without an
// owner still run, and nothing keeps the owner alive.

import AutomatonCore
import Testing
import EventMachine

/// A screen that dismisses itself when its articles arrive: the app's pattern with no
/// capture of `self` in any hook.
@MainActor final class SelfDismissingScreen {
    typealias F = EventMachineFixtures
    private(set) var banner = ""
    let machine: MainActorStateMachine<F.NewsScreen, F.NewsEvent>

    init(log: F.Recorder<String>, dismiss: @escaping @MainActor () -> Void) throws {
        machine = try MainActorStateMachine(initial: .empty, rules: F.newsRules)
        machine.onDidEnter(.articles, owner: self) { _, _ in
            log.append("dismiss")
            dismiss()                                     // frees this screen and its machine's owner
        }
        machine.onDidEnter(.articles, owner: self) { screen, t in
            screen.banner = "\(t.to)"                     // `[unowned self]` here crashed
            log.append("banner")
        }
        machine.onDidFire(.loaded, owner: self) { _, _ in log.append("didFire") }
        machine.addGuard(for: .loaded, owner: self) { _, _ in
            log.append("guard")
            return true
        }
        machine.observe { t in log.append("observer \(t)") }    // no owner: always runs
        machine.task(in: .loading) { context in
            let outcome = await context.send(.loaded(["a"]))
            if case .completed = outcome { log.append("sent") } else { log.append("not sent") }
        }
    }
}

@MainActor final class ScreenHolder {
    var screen: SelfDismissingScreen?
}

/// The same on the thread-safe machine: a `Sendable` owner.
final class SelfDismissingController: Sendable {
    typealias F = EventMachineFixtures
    let machine: StateMachine<F.NewsScreen, F.NewsEvent>
    let shown = F.Recorder<String>()

    init(log: F.Recorder<String>, dismiss: @escaping @Sendable () -> Void) throws {
        machine = try StateMachine(initial: .empty, rules: F.newsRules)
        machine.onDidEnter(.articles, owner: self) { _, _ in
            log.append("dismiss")
            dismiss()
        }
        machine.onDidEnter(.articles, owner: self) { controller, t in
            controller.shown.append("\(t.to)")
            log.append("shown")
        }
        machine.observe(owner: self) { _, _ in log.append("owned observer") }
        machine.observe { t in log.append("observer \(t)") }
        machine.task(in: .loading) { context in
            let outcome = await context.send(.loaded(["a"]))
            if case .completed = outcome { log.append("sent") } else { log.append("not sent") }
        }
    }
}

@Suite("EventMachine hooks handed their owner")
struct EventMachineOwnerTests {
    typealias F = EventMachineFixtures

    @Test("EventMachine owner: a did-enter hook dismisses its screen on a task's event; the next hooks are skipped")
    @MainActor
    func mainActorOwnerFreedInsideTaskTransition() async throws {
        let log = F.Recorder<String>()
        let holder = ScreenHolder()
        holder.screen = try SelfDismissingScreen(log: log) { [holder] in holder.screen = nil }
        weak let weakScreen = holder.screen
        weak let weakMachine = holder.screen?.machine
        try holder.screen?.machine.fire(.load)
        #expect(log.values == ["observer start --> empty", "observer empty --load--> loading"])
        log.removeAll()
        for _ in 0..<1000 where !log.values.contains(where: { $0.hasPrefix("sent") || $0 == "not sent" }) {
            await Task.yield()
        }
        #expect(log.values == [
            "guard", "dismiss", #"observer loading --loaded(["a"])--> articles(["a"])"#, "sent",
        ])
        #expect(holder.screen == nil)
        #expect(weakScreen == nil)                        // no hook keeps its owner alive
        #expect(weakMachine == nil)                       // nor the machine, once the event is done
    }

    @Test("EventMachine owner: while the owner lives, owner hooks are handed it and run in registration order")
    @MainActor
    func mainActorOwnerAlive() async throws {
        let log = F.Recorder<String>()
        let screen = try SelfDismissingScreen(log: log) {}
        let stream = screen.machine.transitions
        try screen.machine.fire(.load)
        _ = await F.first(3, of: stream)
        #expect(screen.banner == #"articles(["a"])"#)
        #expect(log.values.filter { $0 != "sent" } == [
            "observer start --> empty", "observer empty --load--> loading",
            "guard", "dismiss", "banner", "didFire", #"observer loading --loaded(["a"])--> articles(["a"])"#,
        ])
    }

    @Test("EventMachine owner: the thread-safe machine frees its Sendable owner inside a task-fired transition")
    func threadSafeOwnerFreedInsideTaskTransition() async throws {
        let log = F.Recorder<String>()
        let holder = LockedValue<SelfDismissingController?>(nil)
        holder.withLock { $0 = try? SelfDismissingController(log: log) { holder.withLock { $0 = nil } } }
        weak let weakController = holder.withLock { $0 }
        #expect(weakController != nil)
        let machine = holder.withLock { $0?.machine }
        try machine?.fire(.load)
        #expect(log.values.filter { $0 == "owned observer" }.count == 2)   // start and load, while the owner lives
        log.removeAll()
        for _ in 0..<10_000 where !log.values.contains(where: { $0 == "sent" || $0 == "not sent" }) {
            await Task.yield()
        }
        #expect(log.values == ["dismiss", #"observer loading --loaded(["a"])--> articles(["a"])"#, "sent"])
        #expect(weakController == nil)
        #expect(machine?.state == .articles(["a"]))
    }

    @Test("EventMachine owner: a guard whose owner is gone is not asked; a hook whose owner is gone is skipped")
    func goneOwnerSkipped() throws {
        final class Owner: Sendable { let refuse = true }
        let log = F.Recorder<String>()
        let gate = try F.makeGate()
        var owner: Owner? = Owner()
        gate.addGuard(for: .coin, owner: owner!) { owner, _ in !owner.refuse }
        gate.onDidEnter(.unlocked, owner: owner!) { _, _ in log.append("entered") }
        gate.onUpdate(.unlocked, owner: owner!) { _, _ in log.append("update") }
        #expect(throws: F.GateMachine.TransitionError.self) { try gate.fire(.coin) }
        owner = nil
        try gate.fire(.coin)
        gate.update(deltaTime: 1)
        #expect(gate.state == .unlocked)
        #expect(log.values.isEmpty)
    }
}

// The README's "The event machine in an iOS app: a checklist" example, compiled and run as a
// test (issue 47): a main-actor screen whose hooks are handed their owner (no capture of
// self), a request as a state's task, a timeout on an injected clock, and the app's test
// of that timeout with EventMachineTesting's TestClock.

import TestSupport
import Testing
import EventMachine
import EventMachineTesting

@Suite("EventMachine iOS checklist README")
struct EventMachineChecklistReadmeTests {
    @Test("EventMachine iOS checklist example compiles and runs: the timeout fires on advance, the hooks update the screen")
    @MainActor
    func checklistExample() async throws {
        // --- README checklist example (keep in sync with the README section) ---
        enum Checkout: Discriminated, CaseIterable, Hashable { case cart, paying, paid, failed }
        enum CheckoutEvent: Discriminated, CaseIterable, Hashable { case pay, confirmed, declined, timedOut }

        @MainActor final class CheckoutScreen {
            private(set) var message = ""
            private(set) var dismissed = false
            let machine: MainActorStateMachine<Checkout, CheckoutEvent>

            init(clock: some Clock<Duration>, pay: @escaping @Sendable () async -> Bool) throws {
                machine = try MainActorStateMachine(initial: .cart, rules: [
                    .on(.pay, from: [.cart, .failed], to: .paying),
                    .on(.confirmed, from: .paying, to: .paid),
                    .on(.declined, from: .paying, to: .failed),
                    .on(.timedOut, from: .paying, to: .failed),
                ])
                // Each hook is handed the screen, which the machine holds weakly and stops
                // calling once it is gone: no [weak self], no [unowned self].
                machine.onDidEnter(.paying, owner: self) { screen, _ in screen.message = "Paying…" }
                machine.onDidEnter(.failed, owner: self) { screen, _ in screen.message = "Payment failed" }
                machine.onDidEnter(.paid, owner: self) { screen, _ in screen.dismissed = true }
                // The request lives while .paying lasts; its context's send needs no self.
                machine.task(in: .paying) { context in
                    await context.send(await pay() ? .confirmed : .declined)
                }
                machine.timeout(in: .paying, after: .seconds(30), clock: clock, fire: .timedOut)
            }
        }

        // In the app's test target: the 30-second timeout, without waiting 30 seconds.
        let clock = TestClock()
        let screen = try CheckoutScreen(clock: clock) {
            try? await Task.sleep(for: .seconds(3600))    // a payment service that does not answer
            return false
        }
        let transitions = screen.machine.transitions
        try screen.machine.fire(.pay)
        print(screen.message)                             // Paying…
        clock.advance(by: .seconds(30))                   // the timeout is due
        for await transition in transitions where transition.to == .failed {
            print(transition)                             // paying --timedOut--> failed
            break
        }
        print(screen.message, screen.machine.canEnter(.paying))   // Payment failed true
        // --- end of README checklist example ---

        #expect(screen.message == "Payment failed")
        #expect(screen.machine.state == .failed)
        #expect(!screen.dismissed)
        #expect(screen.machine.canEnter(.paying))
        #expect(!screen.machine.canEnter(.paid))
    }

    @Test("EventMachine iOS checklist: the screen is freed while its payment is pending; nothing keeps it alive")
    @MainActor
    func screenFreedWhilePaying() async throws {
        // The same screen as the README's, with a payment that answers when told.
        enum Checkout: Discriminated, CaseIterable, Hashable { case cart, paying, paid, failed }
        enum CheckoutEvent: Discriminated, CaseIterable, Hashable { case pay, confirmed, declined, timedOut }
        @MainActor final class Screen {
            var message = ""
            let machine: MainActorStateMachine<Checkout, CheckoutEvent>
            init(pay: @escaping @Sendable () async -> Bool) throws {
                machine = try MainActorStateMachine(initial: .cart, rules: [
                    .on(.pay, from: .cart, to: .paying), .on(.confirmed, from: .paying, to: .paid),
                ])
                machine.onDidEnter(.paying, owner: self) { screen, _ in screen.message = "Paying…" }
                machine.task(in: .paying) { context in await context.send(await pay() ? .confirmed : .declined) }
            }
        }
        let clock = TestClock()
        var screen: Screen? = try Screen {
            (try? await clock.sleep(for: .seconds(1))) != nil
        }
        weak let weakScreen = screen
        try screen?.machine.fire(.pay)
        #expect(screen?.message == "Paying…")
        #expect(await clock.waitForSleepers(1))
        screen = nil
        #expect(weakScreen == nil)          // neither the hooks nor the task keep it
        #expect(clock.sleeperCount == 0)    // the machine went with it and cancelled the payment's task
    }

    @Test("EventMachine iOS checklist README section shows exactly the tested code")
    func readmeShowsExactlyTheTestedCode() throws {
        let readme = try #require(ReadmeSnippet.swiftBlockBody(under: "### The event machine in an iOS app: a checklist"),
                                  "README.md has no ```swift block under the checklist heading")
        #expect(readme.imports == ["import EventMachine", "import EventMachineTesting"])
        let region = ReadmeSnippet.markedRegion(
            inFile: #filePath, begin: "// --- README checklist example (keep in sync with the README section) ---",
            end: "// --- end of README checklist example ---")
        #expect(readme.body == region, "README.md's checklist example differs from EventMachineChecklistReadmeTests.swift")
    }
}

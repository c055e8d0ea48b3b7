import Foundation
import Testing
import EventMachine
import EventMachineFoundation

/// The event machine's errors print their sentences through `localizedDescription`.
@Suite("EventMachine errors: localizedDescription is the error's sentence")
struct EventMachineLocalizedErrorTests {
    typealias F = EventMachineFixtures

    @Test func transitionAndDefinitionErrorsSayTheirSentence() throws {
        let gate = try F.makeGate()
        var seen = 0
        do {
            try gate.fire(.coin)
            try gate.fire(.coin)
            gate.addGuard(for: .push) { _ in false }
            try gate.fire(.push)
        } catch {
            seen += 1
            #expect((error as any Error).localizedDescription == error.description)
        }
        do {
            _ = try F.GateMachine(initial: .locked, rules: [
                .on(.coin, from: .locked, to: .unlocked),
                .on(.coin, from: .locked, to: .locked),
            ])
        } catch {
            seen += 1
            #expect((error as any Error).localizedDescription == error.description)
            #expect(!(error as any Error).localizedDescription.contains("The operation could not be completed"))
        }
        #expect(seen == 2)
    }
}

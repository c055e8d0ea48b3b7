// example-water: TransitionKit's style of machine — named events, each valid from
// several states, with will/did blocks per event — on the phases of water: six named
// events between three states.
//
// Run: swift run example-water
import EventMachine

enum Phase: Discriminated, CaseIterable, Hashable {
    case solid, liquid, gas
}

enum PhaseChange: Discriminated, CaseIterable, Hashable {
    case melt, freeze, vaporize, condense, sublimate, deposit
}

let water = try StateMachine<Phase, PhaseChange>(initial: .solid, rules: [
    .on(.melt, from: .solid, to: .liquid),
    .on(.freeze, from: .liquid, to: .solid),
    .on(.vaporize, from: .liquid, to: .gas),
    .on(.condense, from: .gas, to: .liquid),
    .on(.sublimate, from: .solid, to: .gas),
    .on(.deposit, from: .gas, to: .solid),
])

// TransitionKit's willFireEvent / didFireEvent, one pair per named event.
for event in PhaseChange.allCases {
    water.onWillFire(event) { transition in print("will \(event): \(transition)") }
    water.onDidFire(event) { transition in print("did \(event): now \(transition.to)") }
}
water.onDidEnter(.gas) { _ in print("  (steam!)") }

water.start()
for event: PhaseChange in [.melt, .vaporize, .deposit, .freeze, .sublimate, .condense, .freeze] {
    do {
        try water.fire(event)
    } catch {
        print("error: \(error)")
    }
}
print("valid now: \(water.definition.validEvents(in: water.state.case).map { "\($0)" }.joined(separator: ", "))")

// example-gate: a subway turnstile. A coin carries its value, a guard checks the fare,
// a hook counts passengers, and a coin inserted while the gate is already unlocked is
// kept without leaving and re-entering `unlocked` (an internal transition), so the
// counter counts each passenger once.
//
// Run: swift run example-gate
import EventMachine
import Synchronization

enum Gate: Discriminated, CaseIterable, Hashable {
    case locked, unlocked
}

enum GateEvent: Discriminated, Hashable {
    case coin(cents: Int)
    case push

    // The cases the rules name; the coin's value stays with the event.
    enum Case: CaseIterable, Hashable, Sendable { case coin, push }
    var `case`: Case {
        switch self {
        case .coin: .coin
        case .push: .push
        }
    }
    // The case without data, so that `canEnter` asks its rule and guards as `fire` would.
    static let valuesWithoutData: [GateEvent] = [.push]
}

let fare = 25

let turnstile = try StateMachine<Gate, GateEvent>(initial: .locked, rules: [
    .on(.coin, from: .locked, to: .unlocked),
    .internal(.coin, in: [.unlocked]),      // already paid: keep the coin, stay unlocked
    .on(.push, from: .unlocked, to: .locked),
    .internal(.push, in: [.locked]),        // pushing a locked bar does nothing
])

// The machine may be driven from any thread, so its hooks are @Sendable and the
// counters they update are behind a Mutex.
let passengers = Mutex(0)
let coinsKept = Mutex(0)

turnstile.addGuard(for: .coin) { transition in
    guard case .coin(let cents) = transition.event else { return false }
    return transition.isInternal || cents >= fare      // the fare is checked at the locked bar only
}
turnstile.onDidEnter(.locked) { transition in
    if transition.from == nil {
        print("gate ready: locked, insert \(fare)¢")
    } else {
        let count = passengers.withLock { $0 += 1; return $0 }
        print("  locked behind passenger \(count)")
    }
}
turnstile.onDidEnter(.unlocked) { _ in print("  unlocked: please pass") }
turnstile.onDidFire(.coin) { transition in
    if transition.isInternal { coinsKept.withLock { $0 += 1 }; print("  already unlocked: coin kept") }
}
turnstile.observeRejections { error in print("  refused: \(error)") }

turnstile.start()
let visitors: [GateEvent] = [
    .push,                 // nobody paid: nothing happens
    .coin(cents: 10),      // too little
    .coin(cents: 25), .push,
    .coin(cents: 50), .coin(cents: 25), .push,
    .push,
]
for event in visitors {
    print(event)
    turnstile.attempt(event)          // a refusal is reported to observeRejections
}
print("passengers: \(passengers.withLock { $0 }), coins kept: \(coinsKept.withLock { $0 }), state: \(turnstile.state)")
print(turnstile.dot(name: "turnstile"), terminator: "")

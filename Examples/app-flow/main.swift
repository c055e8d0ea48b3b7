// example-app-flow: an app's top-level flow. At launch the app checks the saved
// session; the server's response picks the next state (signed in with the user,
// signed out, or offline); the check is a task tied to `.launching`; a timeout moves
// to `.offline` when the server does not answer, and cancels the check.
//
// Run: swift run example-app-flow
import EventMachine

struct User: Sendable, Hashable, CustomStringConvertible {
    var name: String
    var description: String { "@\(name)" }
}

enum SessionResponse: Sendable, Hashable, CustomStringConvertible {
    case valid(User)
    case expired
    case serverError(code: Int)

    var description: String {
        switch self {
        case .valid(let user): "valid(\(user))"
        case .expired: "expired"
        case .serverError(let code): "serverError(\(code))"
        }
    }
}

enum AppState: Discriminated, Hashable {
    case launching
    case signedIn(User)
    case signedOut
    case offline

    enum Case: CaseIterable, Hashable, Sendable { case launching, signedIn, signedOut, offline }
    var `case`: Case {
        switch self {
        case .launching: .launching
        case .signedIn: .signedIn
        case .signedOut: .signedOut
        case .offline: .offline
        }
    }
}

enum AppEvent: Discriminated, Hashable {
    case sessionChecked(SessionResponse)
    case timedOut
    case retry
    case signIn(User)
    case signOut

    enum Case: CaseIterable, Hashable, Sendable { case sessionChecked, timedOut, retry, signIn, signOut }
    var `case`: Case {
        switch self {
        case .sessionChecked: .sessionChecked
        case .timedOut: .timedOut
        case .retry: .retry
        case .signIn: .signIn
        case .signOut: .signOut
        }
    }
    static let valuesWithoutData: [AppEvent] = [.timedOut, .retry, .signOut]   // for `canEnter`
}

/// The session endpoint, scripted: the first call never answers (a dead network), the
/// next ones answer at once.
actor SessionService {
    private var calls = 0

    func check() async -> SessionResponse? {
        calls += 1
        if calls == 1 {
            try? await Task.sleep(for: .seconds(3600))   // until cancelled
            return nil
        }
        return calls == 2 ? .expired : .valid(User(name: "ada"))
    }
}

@MainActor final class AppFlow {
    let machine: MainActorStateMachine<AppState, AppEvent>

    init(service: SessionService) throws {
        machine = try MainActorStateMachine(initial: .launching, rules: [
            // The response picks the next state.
            .on(.sessionChecked, as: AppEvent.sessionChecked, from: .launching, to: [.signedIn, .signedOut, .offline]) { _, response in
                switch response {
                case .valid(let user): return .signedIn(user)
                case .expired: return .signedOut
                case .serverError: return .offline
                }
            },
            .on(.timedOut, from: .launching, to: .offline),
            .on(.retry, from: .offline, to: .launching),
            .on(.signIn, as: AppEvent.signIn, from: .signedOut, to: [.signedIn]) { _, user in .signedIn(user) },
            .on(.signOut, from: .signedIn, to: .signedOut),
        ])
        machine.onDidEnter(.launching) { _ in print("  checking the session…") }
        machine.task(in: .launching) { context in
            // Cancelled when the machine leaves .launching (say, on the timeout); then
            // `context.send` does nothing.
            guard let response = await service.check() else { return }
            await context.send(.sessionChecked(response))
        }
        machine.timeout(in: .launching, after: .seconds(1), fire: .timedOut)
        machine.onDidEnter(.signedIn) { transition in
            if case .signedIn(let user) = transition.to { print("  welcome back, \(user.name)") }
        }
        machine.onDidEnter(.signedOut) { _ in print("  show the sign-in form") }
        machine.onDidEnter(.offline) { _ in print("  show “You are offline” with a Retry button") }
    }
}

let flow = try AppFlow(service: SessionService())
// Printed by an observer, which runs inside each transition right after its hooks, so
// the output keeps the transitions' order whichever task (this one or the check) fired
// them; the stream below is only for waiting.
flow.machine.observe { transition in print(transition) }
let transitions = flow.machine.transitions

/// Waits for the machine to settle in `state`.
func wait(for state: AppState.Case) async {
    for await transition in transitions where transition.to.case == state { return }
}

flow.machine.start()
await wait(for: .offline)           // the first check hangs: the timeout fires
try flow.machine.fire(.retry)
await wait(for: .signedOut)         // the server says the session expired
try flow.machine.fire(.signIn(User(name: "ada")))
await wait(for: .signedIn)
try flow.machine.fire(.signOut)
await wait(for: .signedOut)
print("final state: \(flow.machine.state)")

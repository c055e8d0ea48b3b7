// example-navigation: screen navigation as GameplayKit's GKStateMachine drives it, on
// the main actor. Each screen's enter hook shows it (UI code: the hooks are @MainActor),
// `canEnter` enables buttons like `canEnterState(_:)`, `update(deltaTime:)` drives the
// current screen's animation, and the tab screens are nested in a `tabs` parent that
// keeps history: closing Settings returns to the screen that opened it.
//
// Run: swift run example-navigation
import EventMachine

struct Book: Sendable, Hashable {
    var title: String
}

enum Screen: Discriminated, Hashable {
    case tabs                 // the parent of the three tab screens, never shown alone
    case home
    case library
    case detail(Book)
    case settings

    enum Case: CaseIterable, Hashable, Sendable { case tabs, home, library, detail, settings }
    var `case`: Case {
        switch self {
        case .tabs: .tabs
        case .home: .home
        case .library: .library
        case .detail: .detail
        case .settings: .settings
        }
    }
}

enum Navigation: Discriminated, Hashable {
    case openLibrary, open(Book), back, goHome, openSettings, closeSettings

    enum Case: CaseIterable, Hashable, Sendable { case openLibrary, open, back, goHome, openSettings, closeSettings }
    var `case`: Case {
        switch self {
        case .openLibrary: .openLibrary
        case .open: .open
        case .back: .back
        case .goHome: .goHome
        case .openSettings: .openSettings
        case .closeSettings: .closeSettings
        }
    }
    // The cases without data: `canEnter` asks their rules and guards as `fire` would.
    static let valuesWithoutData: [Navigation] = [.openLibrary, .back, .goHome, .openSettings, .closeSettings]
}

/// What UIKit's navigation controller would do; here it prints.
@MainActor final class Navigator {
    private(set) var stack: [String] = []
    var settingsButtonEnabled = false

    func show(_ title: String) {
        stack.append(title)
        print("show \(title)   [settings button \(settingsButtonEnabled ? "on" : "off")]")
    }
}

@MainActor final class AppCoordinator {
    let navigator = Navigator()
    let machine: MainActorStateMachine<Screen, Navigation>
    private var fadeIn = 0.0

    init() throws {
        machine = try MainActorStateMachine(initial: .tabs, rules: [
            .on(.openLibrary, from: .home, to: .library),
            .on(.open, as: Navigation.open, from: .library, to: [.detail]) { _, book in .detail(book) },
            .on(.back, from: .detail, to: .library),
            .on(.back, from: .library, to: .home),
            .on(.goHome, from: .tabs, to: .home),             // from any tab screen
            .on(.openSettings, from: .tabs, to: .settings),   // from any tab screen
            .on(.closeSettings, from: .settings, to: .tabs),  // back where it was (history)
        ], nesting: [
            .parent(.tabs, children: [.home, .library, .detail], initial: .home, history: true),
        ])

        // Hooks run on the main actor: they may update UI directly. Each is handed the
        // coordinator (held weakly, skipped once it is gone): no hook captures `self`.
        machine.onDidEnter(.home, owner: self) { app, _ in app.show("Home") }
        machine.onDidEnter(.library, owner: self) { app, _ in app.show("Library") }
        machine.onDidEnter(.detail, owner: self) { app, transition in
            if case .detail(let book) = transition.to { app.show("“\(book.title)”") }
        }
        machine.onDidEnter(.settings, owner: self) { app, _ in app.show("Settings") }
        machine.onDidExit(.tabs) { _ in print("  (tab bar hidden)") }
        machine.onDidEnter(.tabs) { transition in
            if transition.from != nil { print("  (tab bar shown)") }
        }
        machine.onDidEnter(.detail, owner: self) { app, _ in app.fadeIn = 0 }
        machine.onUpdate(.detail, owner: self) { app, deltaTime in
            guard app.fadeIn < 1 else { return }
            app.fadeIn = min(1, app.fadeIn + deltaTime * 2)
            if app.fadeIn == 1 { print("  cover faded in") }
        }
    }

    private func show(_ title: String) {
        navigator.settingsButtonEnabled = machine.canEnter(.settings)
        navigator.show(title)
    }

    func tap(_ event: Navigation) {
        print("tap \(event.case)")
        do {
            try machine.fire(event)
        } catch {
            print("  ignored: \(error)")
        }
    }
}

let app = try AppCoordinator()
app.machine.start()
app.tap(.openLibrary)
app.tap(.open(Book(title: "Moby-Dick")))
for _ in 0..<3 { app.machine.update(deltaTime: 0.25) }   // the game loop / display link
app.tap(.openSettings)
app.tap(.openLibrary)                                      // not from Settings
app.tap(.closeSettings)                                    // back to the book
app.tap(.back)
app.tap(.goHome)
print("visited: \(app.navigator.stack.joined(separator: " → "))")
print("in tabs: \(app.machine.isIn(.tabs)), screen: \(app.machine.state)")

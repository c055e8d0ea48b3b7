// Shared fixtures of the EventMachine tests, in one namespace so their names cannot
// clash with other tests of the module.

import AutomatonCore
import EventMachine

enum EventMachineFixtures {
    // MARK: - Subway turnstile

    enum Gate: CaseIterable, Hashable, Sendable { case locked, unlocked }
    enum GateEvent: CaseIterable, Hashable, Sendable { case coin, push }

    typealias GateMachine = StateMachine<Gate, GateEvent>

    static func makeGate() throws -> GateMachine {
        try GateMachine(initial: .locked, rules: [
            .on(.coin, from: [.locked, .unlocked], to: .unlocked),
            .on(.push, from: [.locked, .unlocked], to: .locked),
        ])
    }

    // MARK: - Phone battery

    enum Battery: CaseIterable, Hashable, Sendable { case charging, fullyCharged, discharging, flat }
    enum BatteryEvent: CaseIterable, Hashable, Sendable { case plugIn, unplug, reachFull, runOut }

    static let batteryRules: [StateMachine<Battery, BatteryEvent>.Rule] = [
        .on(.plugIn, from: [.discharging, .flat], to: .charging),
        .on(.reachFull, from: .charging, to: .fullyCharged),
        .on(.unplug, from: [.charging, .fullyCharged], to: .discharging),
        .on(.runOut, from: .discharging, to: .flat),
    ]

    // MARK: - News screen

    enum NewsScreen: CaseIterable, Hashable, Sendable { case empty, loading, articles, error }
    enum NewsEvent: CaseIterable, Hashable, Sendable { case load, loaded, fail, clear }

    static let newsRules: [StateMachine<NewsScreen, NewsEvent>.Rule] = [
        .on(.load, from: [.empty, .error], to: .loading),
        .on(.loaded, from: .loading, to: .articles),
        .on(.fail, from: .loading, to: .error),
        .on(.clear, from: [.error, .articles], to: .empty),
    ]

    // MARK: - Keyboard

    enum Keyboard: CaseIterable, Hashable, Sendable {
        case prepareToEditText, prepareToRecord, editingText, showingPanel
    }
    enum KeyboardEvent: CaseIterable, Hashable, Sendable {
        case clickSwitchButton, clickMoreButton, tapTextField, vcDidTapped
    }

    static let keyboardRules: [StateMachine<Keyboard, KeyboardEvent>.Rule] = [
        .on(.clickSwitchButton, from: [.prepareToEditText, .editingText, .showingPanel], to: .prepareToRecord),
        .on(.clickSwitchButton, from: .prepareToRecord, to: .editingText),
        .on(.clickMoreButton, from: [.prepareToEditText, .prepareToRecord, .editingText], to: .showingPanel),
        .on(.clickMoreButton, from: .showingPanel, to: .prepareToEditText),
        .on(.tapTextField, from: [.prepareToEditText, .showingPanel], to: .editingText),
        .on(.vcDidTapped, from: [.editingText, .showingPanel], to: .prepareToEditText),
    ]

    /// A thread-safe list that hooks and observers append to.
    final class Recorder<Value: Sendable>: Sendable {
        private let storage = LockedValue<[Value]>([])
        func append(_ value: Value) { storage.withLock { $0.append(value) } }
        var values: [Value] { storage.withLock { $0 } }
    }

}

// Shared fixtures of the EventMachine tests, in one namespace so their names cannot
// clash with other tests of the module.

import AutomatonCore
import EventMachine

enum EventMachineFixtures {
    // MARK: - Subway turnstile

    enum Gate: Discriminated, CaseIterable, Hashable { case locked, unlocked }
    enum GateEvent: Discriminated, CaseIterable, Hashable { case coin, push }

    typealias GateMachine = StateMachine<Gate, GateEvent>

    static func makeGate() throws -> GateMachine {
        try GateMachine(initial: .locked, rules: [
            .on(.coin, from: [.locked, .unlocked], to: .unlocked),
            .on(.push, from: [.locked, .unlocked], to: .locked),
        ])
    }

    // MARK: - Phone battery

    enum Battery: Discriminated, CaseIterable, Hashable { case charging, fullyCharged, discharging, flat }
    enum BatteryEvent: Discriminated, CaseIterable, Hashable { case plugIn, unplug, reachFull, runOut }

    static let batteryRules: [StateMachine<Battery, BatteryEvent>.Rule] = [
        .on(.plugIn, from: [.discharging, .flat], to: .charging),
        .on(.reachFull, from: .charging, to: .fullyCharged),
        .on(.unplug, from: [.charging, .fullyCharged], to: .discharging),
        .on(.runOut, from: .discharging, to: .flat),
    ]

    // MARK: - News screen (states and events with data)

    enum NewsScreen: Discriminated, Hashable {
        case empty, loading, articles([String]), error(String)

        enum Case: CaseIterable, Hashable, Sendable { case empty, loading, articles, error }
        var `case`: Case {
            switch self {
            case .empty: .empty
            case .loading: .loading
            case .articles: .articles
            case .error: .error
            }
        }
    }
    enum NewsEvent: Discriminated, Hashable {
        case load, loaded([String]), fail(String), clear

        enum Case: CaseIterable, Hashable, Sendable { case load, loaded, fail, clear }
        var `case`: Case {
            switch self {
            case .load: .load
            case .loaded: .loaded
            case .fail: .fail
            case .clear: .clear
            }
        }
        /// The cases without data, so that `canEnter` asks their rules and guards.
        static let valuesWithoutData: [NewsEvent] = [.load, .clear]
    }

    /// The response picks the next state: no articles is `.empty`, a failure carries
    /// its message into `.error`.
    static let newsRules: [StateMachine<NewsScreen, NewsEvent>.Rule] = [
        .on(.load, from: [.empty, .error], to: .loading),
        .on(.loaded, from: .loading, to: [.empty, .articles]) { _, event in
            guard case .loaded(let items) = event else { return nil }
            return items.isEmpty ? .empty : .articles(items)
        },
        .on(.fail, from: .loading, to: [.error]) { _, event in
            guard case .fail(let message) = event else { return nil }
            return .error(message)
        },
        .on(.clear, from: [.error, .articles], to: .empty),
    ]

    // MARK: - Keyboard

    enum Keyboard: Discriminated, CaseIterable, Hashable {
        case prepareToEditText, prepareToRecord, editingText, showingPanel
    }
    enum KeyboardEvent: Discriminated, CaseIterable, Hashable {
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
        func removeAll() { storage.withLock { $0.removeAll() } }
    }

    /// The first `count` elements of `stream` (fewer if it ends first).
    static func first<T>(_ count: Int, of stream: AsyncStream<T>) async -> [T] {
        var result: [T] = []
        guard count > 0 else { return result }
        for await element in stream {
            result.append(element)
            if result.count == count { break }
        }
        return result
    }
}

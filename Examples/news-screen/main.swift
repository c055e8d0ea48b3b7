// example-news-screen: a screen that is empty, loading, showing articles or showing an
// error — the data lives in the states (`.articles([Article])`, `.failed(String)`), the
// response picks the next state (no articles → `.empty`), the request is a task tied to
// `.loading` (cancelled if the user leaves), the hooks are @MainActor view-model code,
// and a view redraws from the Observation-tracked `state`, as SwiftUI would.
//
// Run: swift run example-news-screen
import EventMachine
import Observation
import Synchronization

struct Article: Sendable, Hashable, CustomStringConvertible {
    var title: String
    var description: String { "“\(title)”" }
}

enum NewsScreen: Discriminated, Hashable {
    case empty
    case loading
    case articles([Article])
    case failed(String)

    enum Case: CaseIterable, Hashable, Sendable { case empty, loading, articles, failed }
    var `case`: Case {
        switch self {
        case .empty: .empty
        case .loading: .loading
        case .articles: .articles
        case .failed: .failed
        }
    }
}

enum NewsEvent: Discriminated, Hashable {
    case refresh
    case loaded([Article])
    case failed(String)

    enum Case: CaseIterable, Hashable, Sendable { case refresh, loaded, failed }
    var `case`: Case {
        switch self {
        case .refresh: .refresh
        case .loaded: .loaded
        case .failed: .failed
        }
    }
    static let valuesWithoutData: [NewsEvent] = [.refresh]   // for `canEnter`
}

/// A news service that answers from a script (a real one would call URLSession).
actor NewsService {
    struct Offline: Error {}
    private var answers: [Result<[Article], Offline>]

    init(answers: [Result<[Article], Offline>]) { self.answers = answers }

    func latest() throws(Offline) -> [Article] {
        try answers.removeFirst().get()
    }
}

@MainActor final class NewsViewModel {
    let machine: MainActorStateMachine<NewsScreen, NewsEvent>
    var banner = ""

    init(service: NewsService) throws {
        machine = try MainActorStateMachine(initial: .empty, rules: [
            .on(.refresh, from: [.empty, .articles, .failed], to: .loading),
            // The response picks the next state, among the cases declared here; `as:`
            // hands the rule the event's data.
            .on(.loaded, as: NewsEvent.loaded, from: .loading, to: [.empty, .articles]) { _, articles in
                articles.isEmpty ? .empty : .articles(articles)
            },
            .on(.failed, as: NewsEvent.failed, from: .loading, to: [.failed]) { _, message in .failed(message) },
        ])
        // @MainActor hooks: view-model state, no assumeIsolated. Each is handed the
        // view model (held weakly, skipped once it is gone), so none captures `self`.
        machine.onDidEnter(.empty, owner: self) { model, _ in model.banner = "Nothing to read yet. Pull to refresh." }
        machine.onDidEnter(.loading, owner: self) { model, _ in model.banner = "Loading…" }
        machine.onDidEnter(.articles, owner: self) { model, transition in
            if case .articles(let articles) = transition.to { model.banner = "\(articles.count) new articles" }
        }
        machine.onDidEnter(.failed, owner: self) { model, transition in
            if case .failed(let message) = transition.to { model.banner = "Could not load: \(message)" }
        }
        // The request lives as long as the screen is loading.
        // Its context's `send` does nothing once the task is cancelled (the user left,
        // or the screen was released), so the task captures no `self`.
        machine.task(in: .loading) { context in
            do {
                await context.send(.loaded(try await service.latest()))
            } catch {
                await context.send(.failed("you are offline"))
            }
        }
    }
}

/// A view as SwiftUI evaluates it: `body` reads the machine's state; reading it under
/// `withObservationTracking` marks the view for redrawing when the state changes.
@MainActor final class NewsView {
    let model: NewsViewModel
    private let invalidation = Invalidation()

    init(model: NewsViewModel) { self.model = model }

    var body: String {
        switch model.machine.state {
        case .empty: "[empty] \(model.banner)"
        case .loading: "[spinner] \(model.banner)"
        case .articles(let articles): "[list] \(model.banner): " + articles.map(\.title).joined(separator: " | ")
        case .failed: "[error] \(model.banner) [Retry]"
        }
    }

    /// The render loop's turn: draws if something the last drawing read has changed.
    func renderIfNeeded() {
        guard invalidation.take() else { return }
        let text = withObservationTracking { body } onChange: { [invalidation] in invalidation.set() }
        print("draw: \(text)")
    }
}

/// "Needs redraw", set from Observation's onChange (which may run on any thread).
final class Invalidation: Sendable {
    private let flag = Mutex(true)
    func set() { flag.withLock { $0 = true } }
    func take() -> Bool { flag.withLock { value in defer { value = false }; return value } }
}

let service = NewsService(answers: [
    .success([]),
    .failure(NewsService.Offline()),
    .success([Article(title: "Turnstiles go contactless"), Article(title: "A DFA in every pocket")]),
])
let model = try NewsViewModel(service: service)
let view = NewsView(model: model)
let analytics = model.machine.transitions   // every transition, in order

model.machine.start()
view.renderIfNeeded()
view.renderIfNeeded()            // nothing changed: no redraw
for _ in 1...3 {
    try model.machine.fire(.refresh)
    view.renderIfNeeded()
    // Wait for the response, as the run loop would.
    for await transition in analytics {
        print("analytics: \(transition)")
        if transition.from?.case == .loading { break }
    }
    view.renderIfNeeded()
}

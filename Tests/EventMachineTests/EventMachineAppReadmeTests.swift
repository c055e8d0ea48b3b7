// The README's "Event machines in an app" example, compiled and run as a test: a
// main-actor news screen with data in its states, a computed destination, @MainActor
// hooks, a task tied to a state, a timeout and the transitions stream.

import TestSupport
import Testing
import EventMachine

@Suite("EventMachine app README")
struct EventMachineAppReadmeTests {
    @Test("EventMachine app README example compiles and runs")
    @MainActor
    func appExample() async throws {
        // --- README app example (keep in sync with the README section) ---
        struct Article: Sendable, Hashable { var title: String }

        enum Screen: Discriminated, Hashable {
            case empty, loading, articles([Article]), failed(String)

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

        enum ScreenEvent: Discriminated, Hashable {
            case refresh, loaded([Article]), failed(String)

            enum Case: CaseIterable, Hashable, Sendable { case refresh, loaded, failed }
            var `case`: Case {
                switch self {
                case .refresh: .refresh
                case .loaded: .loaded
                case .failed: .failed
                }
            }
        }

        @MainActor final class NewsModel {
            private(set) var banner = ""
            let machine: MainActorStateMachine<Screen, ScreenEvent>

            init(fetch: @escaping @Sendable () async throws -> [Article]) throws {
                machine = try MainActorStateMachine(initial: .empty, rules: [
                    .on(.refresh, from: [.empty, .articles, .failed], to: .loading),
                    // The response picks the next state, among the cases declared here; `as:`
                    // hands the rule the event's data.
                    .on(.loaded, as: ScreenEvent.loaded, from: .loading, to: [.empty, .articles]) { _, articles in
                        articles.isEmpty ? .empty : .articles(articles)
                    },
                    .on(.failed, as: ScreenEvent.failed, from: .loading, to: [.failed]) { _, message in .failed(message) },
                ])
                // Hooks are @MainActor: UI code needs no hop and no assumeIsolated. Each is
                // handed its owner (held weakly, skipped once gone), so none captures `self`.
                machine.onDidEnter(.empty, owner: self) { model, _ in model.banner = "Nothing to read yet" }
                machine.onDidEnter(.articles, owner: self) { model, transition in
                    if case .articles(let articles) = transition.to { model.banner = "\(articles.count) articles" }
                }
                // Started on entering .loading, cancelled on leaving it. Its context's `send`
                // does nothing once the task is cancelled, so it needs no `self`.
                machine.task(in: .loading) { context in
                    do {
                        await context.send(.loaded(try await fetch()))
                    } catch {
                        await context.send(.failed("\(error)"))
                    }
                }
                machine.timeout(in: .loading, after: .seconds(10), fire: .failed("timed out"))
                machine.start()                        // runs .empty's enter hooks
            }
        }

        let model = try NewsModel { [Article(title: "Turnstiles go contactless")] }
        assert(model.banner == "Nothing to read yet")
        let transitions = model.machine.transitions
        try model.machine.fire(.refresh)
        for await transition in transitions where transition.from?.case == .loading {
            print(transition.to)                       // articles([Article(title: "Turnstiles go contactless")])
            break
        }
        print(model.banner)                            // 1 articles
        print(model.machine.definition.dot(name: "news"))   // every edge the rules allow
        // --- end of README app example ---

        #expect(model.banner == "1 articles")
        #expect(model.machine.state == .articles([Article(title: "Turnstiles go contactless")]))
        #expect(model.machine.definition.edges.count == 6)
    }

    @Test("EventMachine app README section shows exactly the tested code")
    func readmeShowsExactlyTheTestedCode() throws {
        let readme = try #require(ReadmeSnippet.swiftBlockBody(under: "### Event machines in an app"),
                                  "README.md has no ```swift block under '### Event machines in an app'")
        #expect(readme.imports == ["import EventMachine"])
        let region = ReadmeSnippet.markedRegion(
            inFile: #filePath, begin: "// --- README app example (keep in sync with the README section) ---",
            end: "// --- end of README app example ---")
        #expect(readme.body == region, "README.md's app example differs from EventMachineAppReadmeTests.swift")
    }
}

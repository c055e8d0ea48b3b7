// Rules that receive their event's data already unpacked (issue 47: each rule that
// computed a destination began with `guard case .loaded(let x) = event else { return nil }`).

import Testing
import EventMachine

@Suite("EventMachine rules given the event's data")
struct EventMachinePayloadTests {
    typealias F = EventMachineFixtures

    enum Download: Discriminated, Hashable {
        case idle, downloading(percent: Int), done, failed(String)
        enum Case: CaseIterable, Hashable, Sendable { case idle, downloading, done, failed }
        var `case`: Case {
            switch self {
            case .idle: .idle
            case .downloading: .downloading
            case .done: .done
            case .failed: .failed
            }
        }
    }
    enum DownloadEvent: Discriminated, Hashable {
        case start, progress(percent: Int), error(String, code: Int), warning(String)
        enum Case: CaseIterable, Hashable, Sendable { case start, progress, error, warning }
        var `case`: Case {
            switch self {
            case .start: .start
            case .progress: .progress
            case .error: .error
            case .warning: .warning
            }
        }
    }

    @Test("EventMachine payload(as:): one value, one labelled value, several values, another case")
    func payloads() {
        #expect(F.NewsEvent.loaded(["a"]).payload(as: F.NewsEvent.loaded) == ["a"])
        #expect(DownloadEvent.progress(percent: 40).payload(as: DownloadEvent.progress) == 40)
        let error = DownloadEvent.error("disk full", code: 28).payload(as: DownloadEvent.error)
        #expect(error?.0 == "disk full" && error?.1 == 28)
        #expect(DownloadEvent.start.payload(as: DownloadEvent.progress) == nil)
        #expect(F.NewsEvent.load.payload(as: F.NewsEvent.fail) == nil)
    }

    @Test("EventMachine rules with `as:`: computed and stay-or-move rules get the data; same-typed cases stay apart")
    func rules() throws {
        let machine = try StateMachine<Download, DownloadEvent>(initial: .idle, rules: [
            .on(.start, from: .idle, to: .downloading(percent: 0)),
            .on(.progress, as: DownloadEvent.progress, from: [.downloading], stayOrMoveTo: [.done]) { _, percent in
                percent < 100 ? .stay(.downloading(percent: percent)) : .move(.done)
            },
            .on(.error, as: DownloadEvent.error, from: .downloading, to: [.failed]) { _, error in
                .failed("\(error.0) (\(error.1))")
            },
            .on(.warning, as: DownloadEvent.warning, from: .downloading, to: [.failed]) { _, message in
                message.isEmpty ? nil : .failed("warning: \(message)")
            },
        ])
        try machine.fire(.start)
        try machine.fire(.progress(percent: 40))
        #expect(machine.state == .downloading(percent: 40))
        #expect(throws: StateMachine<Download, DownloadEvent>.TransitionError(.noDestination(event: .warning, state: .downloading))) {
            try machine.fire(.warning(""))
        }
        try machine.fire(.error("disk full", code: 28))
        #expect(machine.state == .failed("disk full (28)"))

        let news = try StateMachine<F.NewsScreen, F.NewsEvent>(initial: .loading, rules: [
            .on(.loaded, as: F.NewsEvent.loaded, from: .loading, to: [.empty, .articles]) { _, items in
                items.isEmpty ? .empty : .articles(items)
            },
            .on(.fail, as: F.NewsEvent.fail, from: .loading, to: [.error]) { _, message in .error(message) },
        ])
        try news.fire(.fail("offline"))                  // fail and loaded carry different types; fail's rule ran
        #expect(news.state == .error("offline"))
    }
}

// The inputs of a run: a list known at once, or a list the run's own workers extend
// step by step (grep -r's walk of a tree) while they search what is already listed.
// Listing /usr/share's 53,000 files first took 0.11 s of a 0.38 s `grep -r` before
// the first file was searched. A walk on a producer thread of its own was the next
// answer, and on two cores it was the critical path: three threads on two cores, and
// the workers waited for the walker's next batch (~2,000 context switches a
// `grep -r -l GPL /usr/share/doc`, rg ~40). So the walk is now advanced by whichever
// worker finds the list running short, one step at a time, as rg's workers each walk
// and search; one step runs at a time, so the list keeps the walk's order.

/// The inputs of a ``RecordPipeline`` run, in order: given whole, or listed step by
/// step by the run's workers while they search the inputs already listed.
///
/// ```swift
/// var paths = walk().makeIterator()
/// let feed = RecordInputFeed(stepping: {
///     paths.next().map { [RecordInput(path: $0, name: $0)] }
/// })
/// let outcome = pipeline.run(feed, named: true, open: openInput, makeSink: makeSink, events: print)
/// ```
///
/// - Complexity: one lock per input taken and two per step.
public final class RecordInputFeed: @unchecked Sendable {
    // @unchecked: the state is behind the monitor's lock; `step` is called by one
    // thread at a time (`State.stepping`), so what it captures needs no lock of its own.
    private struct State {
        var inputs: [RecordInput] = []
        /// No more inputs will be added.
        var finished = false
        /// A thread is running `step`.
        var stepping = false
        /// The run needs no more (it stopped early): no more steps.
        var cancelled = false
    }
    private let state: Monitor<State>
    private let step: (() -> [RecordInput]?)?
    /// A worker that takes an input with fewer than this many listed after it runs a
    /// step first, so the other workers find inputs ready instead of waiting for one.
    /// 64, as deep as the run's window lets a worker search ahead of the writing (16
    /// left the other worker waiting on a folder's step: see `InputsRecordRun.window`).
    private static let lowWater = 64

    /// A feed of `inputs`, all known now.
    public init(_ inputs: [RecordInput]) {
        state = Monitor(State(inputs: inputs, finished: true))
        step = nil
    }

    /// A feed listed by `step`: each call returns the next inputs in order (perhaps
    /// none yet), or nil when there are no more. The run's threads call it when the
    /// list runs short, one at a time, never after the run stopped early.
    public init(stepping step: @escaping () -> [RecordInput]?) {
        state = Monitor(State())
        self.step = step
    }

    /// Runs one step and adds what it listed (or ends the list). The caller has set
    /// `stepping`.
    private func runStep(_ step: () -> [RecordInput]?) {
        let found = state.withLock { $0.cancelled } ? nil : step()
        state.withLock { state in
            state.stepping = false
            if let found { state.inputs.append(contentsOf: found) } else { state.finished = true }
        }
    }

    /// The input at `index`, listing more while the feed may still have it; nil when
    /// the feed ended before it.
    func input(at index: Int) -> RecordInput? {
        guard let step else { return state.withLock { index < $0.inputs.count ? $0.inputs[index] : nil } }
        enum Next { case input(RecordInput, stepFirst: Bool), end, step }
        while true {
            let next = state.withLock(until: { index < $0.inputs.count || $0.finished || !$0.stepping }) { state -> Next in
                if index < state.inputs.count {
                    let ahead = !state.finished && !state.stepping && state.inputs.count - index <= Self.lowWater
                    if ahead { state.stepping = true }
                    return .input(state.inputs[index], stepFirst: ahead)
                }
                if state.finished { return .end }
                state.stepping = true
                return .step
            }
            switch next {
            case .input(let input, let stepFirst):
                if stepFirst { runStep(step) }
                return input
            case .end:
                return nil
            case .step:
                runStep(step)
            }
        }
    }

    /// How many inputs there are, when the feed is finished; nil while steps may add
    /// more (a run then plans for many). A feed not yet stepped runs its first step
    /// here, so a walk of one small folder is known whole before the run plans.
    var finishedCount: Int? {
        if let step {
            let first = state.withLock { state -> Bool in
                guard state.inputs.isEmpty, !state.finished, !state.stepping else { return false }
                state.stepping = true
                return true
            }
            if first { runStep(step) }
        }
        return state.withLock { $0.finished ? $0.inputs.count : nil }
    }

    /// Every input, listing the rest first.
    func allInputs() -> [RecordInput] {
        var index = state.withLock { $0.inputs.count }
        while input(at: index) != nil { index = state.withLock { $0.inputs.count } }
        return state.withLock { $0.inputs }
    }

    /// The run is over: no more steps.
    func endRun() {
        state.withLock { $0.cancelled = true }
    }
}

// The inputs of a run: a list known at once, or a list a producer (grep -r's walk of
// a tree) fills while the workers already search what it found, as rg's walker feeds
// its searchers. Listing /usr/share's 53,000 files first took 0.11 s of a 0.38 s
// `grep -r` before the first file was searched.

/// The inputs of a ``RecordPipeline`` run, in order: given whole, or added by a
/// producer on a thread of its own while the run searches those already added.
///
/// ```swift
/// let feed = RecordInputFeed { feed in
///     for path in walk() where !feed.add([RecordInput(path: path, name: path)]) { return }
/// }
/// let outcome = pipeline.run(feed, named: true, open: openInput, makeSink: makeSink, events: print)
/// ```
///
/// - Complexity: one lock per ``add(_:)`` (a producer adds a folder's files at once)
///   and per input taken.
public final class RecordInputFeed: @unchecked Sendable {
    // @unchecked: the state is behind the monitor's lock; `producer` is set once, in
    // init, and joined by the run on one thread.
    private struct State {
        var inputs: [RecordInput] = []
        /// No more inputs will be added.
        var finished = false
        /// The run needs no more (it stopped early): the producer may stop.
        var cancelled = false
    }
    private let state: Monitor<State>
    private var producer: SystemThread?

    /// A feed of `inputs`, all known now.
    public init(_ inputs: [RecordInput]) {
        state = Monitor(State(inputs: inputs, finished: true))
    }

    /// A feed filled by `produce`, which runs on a thread of its own and adds inputs
    /// with ``add(_:)`` as it finds them; the feed is finished when it returns.
    public init(producing produce: @escaping @Sendable (RecordInputFeed) -> Void) {
        state = Monitor(State())
        producer = SystemThread { [self] in
            produce(self)
            state.withLock { $0.finished = true }
        }
    }

    /// Adds `inputs` after those already added. Returns `false` when the run needs no
    /// more inputs (it stopped early): the producer should stop.
    @discardableResult
    public func add(_ inputs: [RecordInput]) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.inputs.append(contentsOf: inputs)
            return true
        }
    }

    /// The input at `index`, waiting while a producer may still add it; nil when the
    /// feed ended before it.
    func input(at index: Int) -> RecordInput? {
        state.withLock(until: { index < $0.inputs.count || $0.finished }) { state in
            index < state.inputs.count ? state.inputs[index] : nil
        }
    }

    /// How many inputs there are, when the feed is finished; nil while a producer
    /// adds (a run then plans for many).
    var finishedCount: Int? {
        state.withLock { $0.finished ? $0.inputs.count : nil }
    }

    /// Every input, once the producer is done.
    func allInputs() -> [RecordInput] {
        state.withLock(until: { $0.finished }) { $0.inputs }
    }

    /// The run is over: a producer still adding is told to stop, and waited for.
    func endRun() {
        state.withLock { $0.cancelled = true }
        producer?.join()
        producer = nil
    }
}

// How a run uses threads, decided once, here, from what pays (issue 51). Measured on
// this 2-core machine before the rule: `match -c -F cash` over 128 MiB took 0.09–0.10 s
// on two threads (0.05–0.07 s of it system time: chunk hand-offs, page faults of fresh
// buffers, 231 futex calls) and 0.045 s on one; a lazy-DFA search gains nearly 2× from
// the second thread. rg's model: one file on one thread, many files across threads.

/// How far a sink's output lets a run spread over threads.
public enum SinkParallelism: Sendable, Hashable {
    /// Nothing: the output carries state from input to input (grep's `--` between
    /// context groups, `--json`'s totals).
    case none
    /// Whole inputs on different threads: the output of an input depends only on it
    /// (`-l`, `-L`, `-m`, binary detection, `-T`'s width), and is written in input order.
    case inputs
    /// Chunks of one input too: a record's output depends only on the record, its
    /// number and its offset.
    case chunks
}

/// What a run does with threads.
public enum RunThreads: Sendable, Hashable, CustomStringConvertible {
    /// Every input on the calling thread.
    case one
    /// Inputs cut into chunks of whole records, searched by this many workers
    /// (RecordPipeline+Threads.swift).
    case chunks(Int)
    /// Whole inputs handed to this many workers from one list, output in input order
    /// (RecordPipeline+Inputs.swift).
    case inputs(Int)

    public var description: String {
        switch self {
        case .one: return "one thread"
        case .chunks(let n): return "\(n) threads over chunks"
        case .inputs(let n): return "\(n) threads over inputs"
        }
    }

    /// Below this many bytes in all, inputs are searched on one thread: starting a
    /// worker and handing output over costs more than a few small files take.
    public static let minimumBytesForInputs = 256 << 10

    /// The one decision.
    ///
    /// - Parameters:
    ///   - most: the most threads the run may use (`--threads`, else the core count).
    ///   - cost: what bounds the search (``SearchStrategy/cost``); nil when there is no
    ///     matcher (records are only cut).
    ///   - inputs: how many inputs the run has.
    ///   - knownBytes: their total size when every one is a regular file, else nil.
    ///   - sink: how far the sink's output allows threads.
    ///   - chunkBytes: bytes per chunk (a chunked run needs two per worker).
    ///   - canChunk: the record limit leaves room for chunks
    ///     (``RecordReader/canChunk(maxRecordBytes:chunkBytes:)``).
    ///
    /// The rules, in order:
    /// 1. one thread is asked for, or the sink allows none: `.one`;
    /// 2. several inputs, the sink allows whole inputs apart, and more than
    ///    ``minimumBytesForInputs`` (or sizes unknown): `.inputs` — opening, reading and
    ///    searching files is work the cores share, whatever the search's cost;
    /// 3. a memory-bound search of one input (or of inputs the sink keeps in order):
    ///    `.one` — a second thread shares the memory bus, not the work;
    /// 4. a compute-bound search whose sink allows chunks, over at least two chunks a
    ///    worker (or a pipe, whose size is unknown): `.chunks`;
    /// 5. otherwise `.one`.
    public static func choose(
        most: Int, cost: SearchCost?, inputs: Int, knownBytes: Int?, sink: SinkParallelism,
        chunkBytes: Int, canChunk: Bool
    ) -> RunThreads {
        guard most > 1, sink != .none else { return .one }
        if inputs > 1, knownBytes.map({ $0 >= minimumBytesForInputs }) ?? true {
            return .inputs(min(most, inputs))
        }
        guard cost == .computeBound, sink == .chunks, canChunk else { return .one }
        if let knownBytes, knownBytes < 2 * most * chunkBytes { return .one }
        return .chunks(most)
    }
}

import Testing
@testable import Turnstile

/// The one decision about threads (Pipeline/RunThreads.swift), rule by rule.
@Suite("RunThreads: threads decided once, by what pays")
struct RunThreadsTests {
    private func choose(
        most: Int = 2, cost: SearchCost? = .memoryBound, inputs: Int = 1, known: Int? = 128 << 20,
        sink: SinkParallelism = .chunks, canChunk: Bool = true
    ) -> RunThreads {
        RunThreads.choose(most: most, cost: cost, inputs: inputs, knownBytes: known, sink: sink,
                          chunkBytes: 1 << 20, canChunk: canChunk)
    }

    @Test("rule 1: one thread asked for, or a sink that allows none")
    func oneAskedOrSinkSaysNone() {
        #expect(choose(most: 1, cost: .computeBound) == .one)
        #expect(choose(most: 1, inputs: 50) == .one)
        #expect(choose(cost: .computeBound, inputs: 50, sink: .none) == .one)
        #expect(choose(cost: .computeBound, sink: .none) == .one)
    }

    @Test("rule 2: several inputs spread over threads, whatever the search costs")
    func severalInputs() {
        #expect(choose(inputs: 50, known: nil) == .inputs(2))
        #expect(choose(cost: .computeBound, inputs: 50, known: 1 << 20) == .inputs(2))
        #expect(choose(most: 8, inputs: 3, sink: .inputs) == .inputs(3))
        // A few small files: not worth a thread.
        #expect(choose(inputs: 5, known: RunThreads.minimumBytesForInputs - 1) == .one)
        #expect(choose(inputs: 5, known: RunThreads.minimumBytesForInputs) == .inputs(2))
    }

    @Test("rule 3: a memory-bound search of one input stays on one thread")
    func memoryBoundOneInput() {
        #expect(choose(cost: .memoryBound, known: 1 << 30) == .one)
        #expect(choose(cost: .memoryBound, known: nil) == .one)
    }

    @Test("rule 4: a compute-bound search of one big input or a pipe is chunked")
    func computeBoundChunks() {
        #expect(choose(cost: .computeBound, known: 4 << 20) == .chunks(2))
        #expect(choose(cost: .computeBound, known: nil) == .chunks(2))
        #expect(choose(most: 4, cost: .computeBound, known: nil) == .chunks(4))
    }

    @Test("rule 5: otherwise one thread (too small, no room for chunks, a sink that keeps inputs whole)")
    func otherwiseOne() {
        #expect(choose(cost: .computeBound, known: (4 << 20) - 1) == .one)
        #expect(choose(most: 4, cost: .computeBound, known: 4 << 20) == .one)
        #expect(choose(cost: .computeBound, known: nil, canChunk: false) == .one)
        #expect(choose(cost: .computeBound, known: nil, sink: .inputs) == .one)
        #expect(choose(cost: nil, known: nil) == .one)
    }
}

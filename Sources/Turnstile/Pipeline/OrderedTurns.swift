// The ordered hand-off of a threaded run, for both plans (chunks of an input,
// RecordPipeline+Threads.swift; whole inputs, RecordPipeline+Inputs.swift): workers put
// numbered items in any order, and whichever thread finds the next number waiting takes
// the writing turn and writes items in number order until the next one is not there yet.
// No writer thread: on two cores a thread that only writes would take a core from the
// search.

/// Numbered items written in number order by whichever thread holds the writing turn.
///
/// - Complexity: O(1) per item, one lock; holds at most the items put ahead of the
///   writing, which ``awaitWindow(for:stopped:write:)`` bounds to ``window``.
final class OrderedTurns<Item>: @unchecked Sendable {
    // @unchecked: the state is behind the monitor's lock; an item is written by one
    // thread, the one holding the turn.
    private struct State {
        /// The items put and not yet written, item `n` in slot `n & (slots.count - 1)`.
        ///
        /// A ring, not a dictionary: the numbers waiting are distinct and at most
        /// `slots.count` past `next`, so each has a slot of its own. A dictionary hashed
        /// every number and moved every item twice (callgrind, `grep -r -l GPL
        /// /usr/share/doc`, 6,016 files: about 2.4 M instructions of hashing and copies).
        var slots: [Item?]
        /// The number of the next item to write.
        var next = 0
        /// Some thread is writing (items `next`, `next + 1`, … as they arrive).
        var writing = false

        init(capacity: Int) {
            var size = 1
            while size < capacity { size <<= 1 }
            slots = Array(repeating: nil, count: size)
        }

        mutating func put(_ number: Int, _ item: Item) {
            // A worker that stopped waiting (the run stops) may put an item past the
            // window: the ring grows to hold it.
            if number - next >= slots.count { grow(toHold: number) }
            slots[number & (slots.count - 1)] = item
        }

        /// Takes item `next` out when it has been put.
        mutating func takeNext() -> Item? {
            let slot = next & (slots.count - 1)
            guard let item = slots[slot] else { return nil }
            slots[slot] = nil
            return item
        }

        private mutating func grow(toHold number: Int) {
            var size = slots.count
            while number - next >= size { size <<= 1 }
            var larger = [Item?](repeating: nil, count: size)
            for waiting in next..<(next + slots.count) {
                let slot = waiting & (slots.count - 1)
                if let item = slots[slot] { larger[waiting & (size - 1)] = item }
            }
            slots = larger
        }
    }
    private let state: Monitor<State>
    /// Items numbered past the writing, at most, before a worker waits.
    let window: Int

    init(window: Int) {
        self.window = max(1, window)
        state = Monitor(State(capacity: self.window))
    }

    /// Puts item `number` (each number once).
    func put(_ number: Int, _ item: Item) {
        state.withLock { $0.put(number, item) }
    }

    /// Writes the items that are next in order with `write`, unless another thread is
    /// at it (that thread then writes those put meanwhile too: it looks again after
    /// each item).
    func drain(_ write: (Item) -> Void) {
        var item = state.withLock { state -> Item? in
            guard !state.writing, let item = state.takeNext() else { return nil }
            state.writing = true
            return item
        }
        while let current = item {
            write(current)
            item = state.withLock { state -> Item? in
                state.next += 1
                if let item = state.takeNext() { return item }
                state.writing = false
                return nil
            }
        }
    }

    /// Waits until item `number` is within ``window`` of the writing, or `stopped()`.
    /// Writes first what can be written: the items this thread put before may be the
    /// next ones.
    func awaitWindow(for number: Int, stopped: () -> Bool, write: (Item) -> Void) {
        let window = window
        if state.withLock({ number - $0.next < window }) { return }
        drain(write)
        state.withLock(until: { number - $0.next < window || stopped() }) { _ in }
    }
}

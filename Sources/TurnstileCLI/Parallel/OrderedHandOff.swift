import Dispatch
import AutomatonCore

/// Values numbered 0, 1, 2, … put in any order by many threads and taken in number
/// order by one: how `--threads` writes chunks searched in parallel in input order.
///
/// ```swift
/// let handOff = OrderedHandOff<String>()
/// handOff.put(1, "second")      // from one worker
/// handOff.put(0, "first")       // from another
/// handOff.take(0)               // "first" (waits until 0 has been put)
/// ```
///
/// - Complexity: O(1) per put and take; holds only the values put and not yet taken.
final class OrderedHandOff<Value: Sendable>: Sendable {
    private let waiting = LockedValue<[Int: Value]>([:])
    /// Signalled once per put, so a taker that found its number missing waits for the
    /// next put instead of spinning.
    private let arrived = DispatchSemaphore(value: 0)

    func put(_ number: Int, _ value: Value) {
        waiting.withLock { $0[number] = value }
        arrived.signal()
    }

    /// The value numbered `number`, waiting until it has been put. Only one thread takes.
    func take(_ number: Int) -> Value {
        while true {
            if let value = waiting.withLock({ $0.removeValue(forKey: number) }) { return value }
            arrived.wait()
        }
    }
}

/// A first-in first-out queue that blocks the taker while it is empty: the chunks
/// waiting for a worker.
final class BlockingQueue<Element: Sendable>: Sendable {
    private let items = LockedValue<[Element]>([])
    private let available = DispatchSemaphore(value: 0)

    func push(_ element: Element) {
        items.withLock { $0.append(element) }
        available.signal()
    }

    /// The oldest element, waiting until there is one.
    func pop() -> Element {
        available.wait()
        return items.withLock { $0.removeFirst() }
    }
}

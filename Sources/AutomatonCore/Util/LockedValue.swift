// LockedValue: a value behind a pthread mutex, used by the event machine and by the
// CLI's --threads hand-offs instead of `Synchronization.Mutex`.
//
// Why not `Mutex`: on Linux (Swift 6.3) ThreadSanitizer does not see the futex
// hand-off inside `Mutex.withLock` and reports data races on every guarded access —
// also for a ten-line program that only increments a `Mutex<Int>` from several
// threads. pthread mutexes are intercepted by TSan, so `swift test
// --sanitize=thread` checks the machine for real instead of needing a suppressions
// file that would hide genuine races too. The cost is one allocation per lock; the
// machine takes the lock a few times per event, never per byte.

/// A value that is only read or written while holding a pthread mutex.
///
/// ```swift
/// let counter = LockedValue(0)
/// counter.withLock { $0 += 1 }
/// ```
///
/// - Complexity: `withLock` is one uncontended lock/unlock plus `body`.
package final class LockedValue<Value>: @unchecked Sendable {
    // SAFETY: `value` is accessed only inside `withLock`, between lock and unlock of
    // `mutex`, which lives at a stable heap address for the object's lifetime.
    private let mutex = PlatformMutex()
    /// The value, behind a pointer rather than a stored `var`: the lock already makes
    /// access exclusive, and a class's `var` was checked again at run time on every
    /// call (`swift_beginAccess`; callgrind, `grep -r -l GPL /usr/share/doc`: about
    /// 0.8 M instructions).
    private let value: UnsafeMutablePointer<Value>

    package init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        mutex.free()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Not reentrant: `body` must not
    /// call `withLock` on the same object.
    package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value.pointee)
    }
}

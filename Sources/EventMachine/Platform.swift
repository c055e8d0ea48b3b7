// The module's C library calls, behind internal wrappers so that this is the only file
// with the platform switch (Glibc on Linux, Musl on static Linux builds, Darwin on macOS).
//
// The machine's lock is its own (ThreadLock) rather than AutomatonCore's `LockedValue`:
// `fire` is `@inlinable` (so it is specialized for the app's own State and Event types,
// see MachineCore.swift), and inlinable code can only call what this module exposes
// with `@usableFromInline`; and a pthread mutex cost more than the rest of an event.
// Not `Synchronization.Mutex`, for the reason LockedValue.swift gives (ThreadSanitizer
// does not see its futex hand-off); acquire/release atomics it does see.
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("EventMachine needs a C library (Glibc, Musl or Darwin)")
#endif

/// How a machine core serializes access: a real mutex for ``StateMachine`` (any thread),
/// nothing for ``MainActorStateMachine`` (the main actor already serializes).
@usableFromInline
internal protocol MachineLock {
    func lock()
    func unlock()
}

/// The machine's lock: held for a few dozen instructions at a time (never while the
/// app's code runs), so its uncontended cost is most of what it costs.
///
/// On Linux an atomic flag: taking it is one compare-and-swap, releasing it one store
/// (acquire / release, which ThreadSanitizer understands); a contended taker spins
/// briefly, then yields the processor until the holder is done. On Darwin
/// `os_unfair_lock`, which is as cheap and lends the waiter's priority to the holder
/// (a spinning waiter could starve a lower-priority holder there).
///
/// PERF: event-table, "StateMachine.fire" and "2 hooks": a pthread mutex's lock and
/// unlock were about 65 instructions an event for each of the one to three critical
/// sections of an event; this is about 15.
@usableFromInline
internal final class ThreadLock: MachineLock, @unchecked Sendable {
    #if canImport(Darwin)
    // SAFETY: the lock lives at a stable heap address from init to deinit.
    private let unfair: UnsafeMutablePointer<os_unfair_lock>

    @usableFromInline
    init() {
        unfair = .allocate(capacity: 1)
        unfair.initialize(to: os_unfair_lock())
    }

    deinit {
        unfair.deinitialize(count: 1)
        unfair.deallocate()
    }

    @usableFromInline
    func lock() { os_unfair_lock_lock(unfair) }

    @usableFromInline
    func unlock() { os_unfair_lock_unlock(unfair) }
    #else
    private let held = Atomic<Bool>(false)

    @usableFromInline
    init() {}

    @usableFromInline
    func lock() {
        if held.compareExchange(expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
            return
        }
        lockContended()
    }

    /// Spins a little (the holder is usually done within a few dozen instructions),
    /// then yields the processor between tries so a descheduled holder can finish.
    private func lockContended() {
        var tries = 0
        while true {
            if !held.load(ordering: .relaxed),
               held.compareExchange(expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
                return
            }
            tries += 1
            if tries > 100 { sched_yield() }
        }
    }

    @usableFromInline
    func unlock() { held.store(false, ordering: .releasing) }
    #endif
}

/// No lock: for a core that one actor owns.
@usableFromInline
internal struct NoLock: MachineLock {
    @inlinable init() {}
    @inlinable func lock() {}
    @inlinable func unlock() {}
}

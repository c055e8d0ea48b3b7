// The module's C library calls, behind internal wrappers so that this is the only file
// with the platform switch (Glibc on Linux, Musl on static Linux builds, Darwin on macOS).
//
// The machine's lock is a pthread mutex here rather than AutomatonCore's `LockedValue`:
// `fire` is `@inlinable` (so it is specialized for the app's own State and Event types,
// see MachineCore.swift), and inlinable code can only call what this module exposes
// with `@usableFromInline`. pthread rather than `Synchronization.Mutex` for the reason
// LockedValue.swift gives (ThreadSanitizer sees pthread hand-offs).
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

/// A pthread mutex at a stable heap address, freed with its owner.
@usableFromInline
internal final class ThreadLock: MachineLock, @unchecked Sendable {
    // SAFETY: the mutex is initialized in init, destroyed in deinit, and only ever used
    // through lock/unlock in between; its heap address never changes.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @usableFromInline
    func lock() { pthread_mutex_lock(mutex) }

    @usableFromInline
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// No lock: for a core that one actor owns.
@usableFromInline
internal struct NoLock: MachineLock {
    @inlinable init() {}
    @inlinable func lock() {}
    @inlinable func unlock() {}
}

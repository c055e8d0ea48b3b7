#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a new thread; ``join()`` waits for it to end.
///
/// POSIX threads rather than a Dispatch queue: workers block on semaphores for as long
/// as input lasts, which Dispatch's shared pool is not meant for.
struct WorkerThread {
    private var thread: pthread_t

    init(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        #if canImport(Glibc)
        self.thread = thread
        #else
        self.thread = thread!
        #endif
    }

    func join() { pthread_join(thread, nil) }
}

// The module's few C library calls, behind internal wrappers so that this is the only
// file with the platform switch (Glibc on Linux, Musl on static Linux builds, Darwin on
// macOS). Add a wrapper here rather than importing the C library in another file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Turnstile needs a C library (Glibc, Musl or Darwin)")
#endif

/// The natural logarithm (the standard library has none without Foundation).
@inline(__always)
func naturalLog(_ x: Double) -> Double { log(x) }

/// e raised to `x` (the standard library has none without Foundation).
@inline(__always)
func exponential(_ x: Double) -> Double { exp(x) }

/// The address of the first `byte` among the `count` bytes at `start`, or nil (memchr(3)).
@inline(__always)
func findByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
    // SAFETY: the caller passes `count` readable bytes at `start`; memchr reads no further.
    guard let hit = memchr(start, Int32(byte), count) else { return nil }
    return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
}

/// read(2) into `buffer`, retried on `EINTR`: the byte count, 0 at the end of the
/// input, or -1 with the error in ``lastErrno``.
package func readSome(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    while true {
        let n = read(fd, buffer, count)
        if n < 0, errno == EINTR { continue }
        return n
    }
}

/// The `errno` of the last failed call.
var lastErrno: Int32 { errno }

/// Moves `count` bytes from `source` to `destination`; the regions may overlap (memmove(3)).
@inline(__always)
func moveBytes(_ destination: UnsafeMutablePointer<UInt8>, from source: UnsafePointer<UInt8>, count: Int) {
    // SAFETY: the caller passes `count` valid bytes at both addresses; memmove allows overlap.
    memmove(destination, source, count)
}

/// close(2), for the inputs a ``RecordPipeline`` opens (standard input, 0, stays open).
func closeInput(_ fd: Int32) {
    if fd != 0 { _ = close(fd) }
}

/// A POSIX thread running `body`; ``join()`` waits for it to end.
///
/// Threads of their own rather than a Dispatch queue: a threaded run's workers block
/// on locks for as long as input lasts, which a shared pool is not meant for, and the
/// library does not link Dispatch.
struct SystemThread {
    private var thread: pthread_t

    init(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        #if canImport(Darwin)
        self.thread = thread!
        #else
        self.thread = thread
        #endif
    }

    func join() { pthread_join(thread, nil) }
}

/// A value behind a pthread mutex with a condition variable: a thread can wait, lock
/// held, until the value is as it needs (a threaded run's window and output order).
///
/// pthread rather than `Synchronization.Mutex` for the reason `LockedValue` gives:
/// ThreadSanitizer sees pthread hand-offs, so `swift test --sanitize=thread` checks
/// the run for real.
///
/// - Complexity: one lock and unlock per call, plus the waits.
final class Monitor<Value>: @unchecked Sendable {
    // SAFETY: `value` is accessed only between lock and unlock of `mutex`; `mutex`,
    // `condition` and `value` live at stable heap addresses for the object's lifetime.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Behind a pointer, as `LockedValue`'s: the lock makes access exclusive, so no
    /// run-time exclusivity check (`swift_beginAccess`) on every call.
    private let value: UnsafeMutablePointer<Value>
    /// How many threads wait in ``withLock(until:_:)`` (behind the lock too).
    private let waiting: UnsafeMutablePointer<Int>

    init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        waiting = .allocate(capacity: 1)
        waiting.initialize(to: 0)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(condition, nil) == 0)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        mutex.deinitialize(count: 1)
        condition.deallocate()
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
        waiting.deallocate()
    }

    /// Runs `body` with the lock held, once `ready` holds (waiting for other threads'
    /// ``withLock(until:_:)`` calls that change the value).
    ///
    /// The broadcast is skipped when no thread waits, which is most calls of a run
    /// (a few an input of a `grep -r`).
    func withLock<Result>(until ready: (Value) -> Bool = { _ in true }, _ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        while !ready(value.pointee) {
            waiting.pointee += 1
            pthread_cond_wait(condition, mutex)
            waiting.pointee -= 1
        }
        let result = body(&value.pointee)
        if waiting.pointee > 0 { pthread_cond_broadcast(condition) }
        pthread_mutex_unlock(mutex)
        return result
    }
}

/// Whether `fd` is a regular file (fstat(2)), whose bytes can be read again with
/// ``readSome(_:_:_:at:)``.
func isRegularFile(_ fd: Int32) -> Bool {
    var info = stat()
    return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}

/// The size of `fd` when it is a regular file (fstat(2)), else nil.
func regularFileSize(_ fd: Int32) -> Int? {
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(info.st_size)
}

/// Moves `fd`'s file offset to `offset` (lseek(2) `SEEK_SET`).
func setOffset(_ fd: Int32, _ offset: Int) {
    _ = lseek(fd, off_t(offset), SEEK_SET)
}

/// The file offset of `fd` (lseek(2) `SEEK_CUR`), or -1.
func currentOffset(_ fd: Int32) -> Int {
    Int(lseek(fd, 0, SEEK_CUR))
}

/// pread(2) into `buffer` at file offset `offset`, retried on `EINTR`.
func readSome(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int, at offset: Int) -> Int {
    while true {
        let n = pread(fd, buffer, count, off_t(offset))
        if n < 0, errno == EINTR { continue }
        return n
    }
}

/// A new temporary file, already unlinked (so it goes when closed), in `TMPDIR` or
/// `/tmp`: its descriptor, or -1 with the error in ``lastErrno``.
func makeSpoolFile() -> Int32 {
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((directory + "/turnstile-record.XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
    return fd
}

/// write(2) of all of `bytes`, retried on `EINTR` and short writes: false on failure,
/// with the error in ``lastErrno``.
func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard var p = bytes.baseAddress else { return true }
    var left = bytes.count
    while left > 0 {
        let n = write(fd, p, left)
        if n < 0 { if errno == EINTR { continue }; return false }
        p += n
        left -= n
    }
    return true
}

/// close(2).
func closeFile(_ fd: Int32) { _ = close(fd) }

// spamd-load: a load generator speaking spamc's protocol (issue 27). N client threads,
// each sending CHECK requests one connection at a time (spamd's protocol has one
// request per connection), for a fixed time or count; prints messages/s and the
// latency percentiles of whole requests (connect to close). Every answer is checked:
// it must be `SPAMD/1.1 0 EX_OK` with a Spam line, and the same message must always
// get the same verdict; a run with a failed answer exits 1.
//
//   spamd-load --port 7830 --connections 16 --seconds 10 MBOX
//   spamd-load --socket /run/turnstile.sock --requests 10000 MBOX
//
// Sends to 127.0.0.1 (or a Unix socket) only.

#if canImport(Glibc)
import Glibc
#endif
import Foundation

struct Options {
    var port = 783
    var socketPath: String?
    var connections = 16
    var seconds = 10.0
    var requests: Int?
    var mbox = ""
    var warmup = 1.0
}

func parseOptions() -> Options {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    func value() -> String {
        guard args.count >= 2 else { fatalError("\(args[0]) needs a value") }
        let v = args[1]
        args.removeFirst(2)
        return v
    }
    while let a = args.first {
        switch a {
        case "--port": o.port = Int(value())!
        case "--socket": o.socketPath = value()
        case "--connections": o.connections = Int(value())!
        case "--seconds": o.seconds = Double(value())!
        case "--requests": o.requests = Int(value())!
        case "--warmup": o.warmup = Double(value())!
        default:
            o.mbox = a
            args.removeFirst()
        }
    }
    if o.mbox.isEmpty {
        FileHandle.standardError.write("usage: spamd-load [--port P | --socket PATH] [--connections N] [--seconds S | --requests N] MBOX\n".data(using: .utf8)!)
        exit(2)
    }
    return o
}

/// The messages of an mbox file, each as one CHECK request.
func requests(fromMbox path: String) -> [[UInt8]] {
    guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
    let bytes = [UInt8](data)
    var starts: [Int] = []
    var i = 0
    while i < bytes.count {
        if (i == 0 || bytes[i - 1] == 0x0A), bytes[i...].starts(with: Array("From ".utf8)) { starts.append(i) }
        guard let next = bytes[i...].firstIndex(of: 0x0A) else { break }
        i = next + 1
    }
    starts.append(bytes.count)
    return (0..<(starts.count - 1)).map { k in
        let m = Array(bytes[starts[k]..<starts[k + 1]])
        return Array("CHECK SPAMC/1.5\r\nContent-length: \(m.count)\r\nUser: load\r\n\r\n".utf8) + m
    }
}

func now() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// One request on a new connection: the answer, or nil on a socket error.
func exchange(_ request: [UInt8], options: Options, buffer: inout [UInt8]) -> [UInt8]? {
    let fd: Int32
    if let path = options.socketPath {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (k, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[k] = b }
        }
        let r = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        if r != 0 { close(fd); return nil }
    } else {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(options.port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let r = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if r != 0 { close(fd); return nil }
    }
    defer { close(fd) }
    var sent = 0
    while sent < request.count {
        let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n <= 0 { return nil }
        sent += n
    }
    var answer: [UInt8] = []
    while true {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 { return nil }
        if n == 0 { break }
        answer += buffer[0..<n]
    }
    return answer
}

final class Worker: @unchecked Sendable {
    var latencies: [UInt64] = []
    var failures = 0
    var firstFailure: String?
    var verdicts: [Int: [UInt8]] = [:]
    var inconsistent = 0
}

/// Runs the load and prints the figures; the exit status says whether every answer was right.
func runLoad() -> Int32 {
    let options = parseOptions()
    let messages = requests(fromMbox: options.mbox)
    guard !messages.isEmpty else { fatalError("no messages in \(options.mbox)") }
    let workers = (0..<options.connections).map { _ in Worker() }
    let start = now()
    let warmupEnd = start + UInt64(options.warmup * 1e9)
    let end = warmupEnd + UInt64(options.seconds * 1e9)
    let perWorker = options.requests.map { ($0 + options.connections - 1) / options.connections }
    let group = DispatchGroup()
    for (w, worker) in workers.enumerated() {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var k = w
            var done = 0
            while true {
                let t0 = now()
                if let perWorker { if done >= perWorker { break } } else if t0 >= end { break }
                let index = k % messages.count
                k += 1
                guard let answer = exchange(messages[index], options: options, buffer: &buffer),
                      answer.starts(with: Array("SPAMD/1.1 0 EX_OK\r\nSpam: ".utf8)) else {
                    worker.failures += 1
                    if worker.firstFailure == nil { worker.firstFailure = "message \(index): no answer or an error answer" }
                    continue
                }
                let t1 = now()
                // The verdict word (True/False) must not change between requests.
                let verdict = Array(answer.dropFirst(25).prefix(5))
                if let seen = worker.verdicts[index], seen != verdict { worker.inconsistent += 1 } else { worker.verdicts[index] = verdict }
                if perWorker != nil || t0 >= warmupEnd { worker.latencies.append(t1 - t0); done += 1 }
            }
            group.leave()
        }
        thread.stackSize = 1 << 20
        group.enter()
        thread.start()
    }
    group.wait()
    let finished = now()
    let all = workers.flatMap(\.latencies).sorted()
    let failures = workers.map(\.failures).reduce(0, +)
    let inconsistent = workers.map(\.inconsistent).reduce(0, +)
    let measured = perWorker != nil ? Double(finished - start) / 1e9 : options.seconds
    func percentile(_ p: Double) -> Double {
        guard !all.isEmpty else { return 0 }
        return Double(all[min(all.count - 1, Int(Double(all.count) * p))]) / 1e6
    }
    print(String(format: "connections %d, requests %d, %.0f CHECK/s, p50 %.3f ms, p99 %.3f ms, max %.3f ms, failures %d, inconsistent verdicts %d",
                 options.connections, all.count, Double(all.count) / measured, percentile(0.5), percentile(0.99),
                 Double(all.last ?? 0) / 1e6, failures, inconsistent))
    if let f = workers.compactMap(\.firstFailure).first { print("first failure: \(f)") }
    return failures > 0 || inconsistent > 0 || all.isEmpty ? 1 : 0
}

exit(runLoad())

import Foundation
import Synchronization
import Testing
import TurnstileServer

/// The serve log's promises at the edge that matters: a reader that stalls while lines
/// keep coming, then catches up just before the process exits (issue 54: the count of
/// dropped lines and the stopping notice were lost there).
@Suite struct ServerLogTests {
    @Test("a stalled reader: request lines beyond the queue are dropped and counted by flush, notices are never dropped")
    func stalledReaderKeepsNoticesAndCount() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        // Fill the pipe so that the writer thread's first write blocks until the
        // reader below starts: every later line is decided by the queue alone.
        let flags = fcntl(writeEnd, F_GETFL)
        _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
        let filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        var filled = 0
        while true {
            let written = filler.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            filled += written
        }
        _ = fcntl(writeEnd, F_SETFL, flags)

        let log = ServerLog(fd: writeEnd, capacity: 4)
        for index in 1...10 { log.write("request \(index)") }
        log.write("stopping", dropWhenFull: false)
        #expect(log.dropped == 6)

        let received = Mutex([UInt8]())
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.withLock { $0 += buffer[..<count] }
            }
            drained.signal()
        }
        #expect(log.flush(within: .seconds(30)))
        close(writeEnd)
        drained.wait()
        // The count comes before the first line written after the drops: before
        // "request 1" or "request 2", depending on whether the writer thread had taken
        // the first line when the drops happened.
        let output = received.withLock { $0 }
        let lines = String(decoding: output.dropFirst(filled), as: UTF8.self).split(separator: "\n")
        #expect(lines.filter { $0.hasSuffix(" log lines dropped (standard error was not read fast enough)") }
                    == ["turnstile serve: 6 log lines dropped (standard error was not read fast enough)"])
        #expect(lines.filter { !$0.contains("dropped") } == ["request 1", "request 2", "request 3", "request 4", "stopping"])
    }
}

import NIOCore
import Synchronization

// `--max-connections`: at the limit the server stops accepting, and further clients
// wait in the listen backlog (their connection is made by the kernel, and their
// request waits) until a connection closes — none is refused or reset, as spamd's
// clients wait for a free child. A connection that has not sent a byte yet holds its
// slot only while nobody waits: at the limit the one silent longest is closed to make
// room (issue 54: 1,000 silent connections from any local user held every slot, and
// the next spamc waited 29.4 s for the read timeout to free one). spamc writes its
// request as soon as it connects, so a real client is never the one closed.

/// The number of open connections, shared by the accepting handler and the connections.
final class ConnectionCount: Sendable {
    private let count = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    /// The connections that have sent nothing yet, with when each was accepted.
    private let silent = Mutex<[ObjectIdentifier: (since: ContinuousClock.Instant, channel: any Channel)]>([:])
    let maximum: Int

    init(maximum: Int) { self.maximum = maximum }

    var open: Int { count.load(ordering: .acquiring) }
    func opened(_ channel: any Channel) {
        count.add(1, ordering: .acquiringAndReleasing)
        silent.withLock { $0[ObjectIdentifier(channel)] = (.now, channel) }
    }
    func closed(_ channel: any Channel) {
        silent.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(channel)) }
        count.subtract(1, ordering: .acquiringAndReleasing)
    }
    /// `channel` sent its first bytes: it is a client, never closed to make room.
    func spoke(_ channel: any Channel) {
        silent.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
    /// Closes the `count` connections that have been silent longest (fewer when fewer
    /// are silent); how many it closed.
    ///
    /// - Complexity: O(silent connections × log), only at the limit.
    func closeLongestSilent(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        let oldest = silent.withLock { silent -> [any Channel] in
            let chosen = silent.sorted { $0.value.since < $1.value.since }.prefix(count)
            for (key, _) in chosen { silent.removeValue(forKey: key) }
            return chosen.map { $0.value.channel }
        }
        for channel in oldest { channel.close(promise: nil) }
        return oldest.count
    }
    /// The server stops: no more accepts, and the event loops may already be gone.
    var isStopped: Bool { stopped.load(ordering: .acquiring) }
    func stop() { stopped.store(true, ordering: .releasing) }
}

/// On the listening channel: counts accepted connections and holds further accepts
/// while `maximum` are open.
final class AcceptLimiter: ChannelDuplexHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel
    typealias OutboundIn = Never

    private let connections: ConnectionCount
    /// A read (accept) was held at the limit.
    private var heldRead = false

    init(connections: ConnectionCount) { self.connections = connections }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        connections.opened(child)
        let me = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let connections = self.connections
        child.closeFuture.whenComplete { _ in
            connections.closed(child)
            guard !connections.isStopped else { return }
            me.eventLoop.execute { me.value.0.resume(me.value.1) }
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        let open = connections.open
        if open >= connections.maximum {
            heldRead = true
            // One accept takes several connections at once, so the count may be past the
            // maximum: enough silent ones close to bring it under, and the last close
            // resumes the accepts.
            _ = connections.closeLongestSilent(open - connections.maximum + 1)
        } else {
            context.read()
        }
    }

    private func resume(_ context: ChannelHandlerContext) {
        guard heldRead, connections.open < connections.maximum else { return }
        heldRead = false
        context.read()
    }
}

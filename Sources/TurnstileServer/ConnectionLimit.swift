import NIOCore
import Synchronization

// `--max-connections`: at the limit the server stops accepting, and further clients
// wait in the listen backlog (their connection is made by the kernel, and their
// request waits) until a connection closes — none is refused or reset, as spamd's
// clients wait for a free child.

/// The number of open connections, shared by the accepting handler and the connections.
final class ConnectionCount: Sendable {
    private let count = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    let maximum: Int

    init(maximum: Int) { self.maximum = maximum }

    var open: Int { count.load(ordering: .acquiring) }
    func opened() { count.add(1, ordering: .acquiringAndReleasing) }
    func closed() { count.subtract(1, ordering: .acquiringAndReleasing) }
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
        connections.opened()
        let me = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let connections = self.connections
        child.closeFuture.whenComplete { _ in
            connections.closed()
            guard !connections.isStopped else { return }
            me.eventLoop.execute { me.value.0.resume(me.value.1) }
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if connections.open >= connections.maximum { heldRead = true } else { context.read() }
    }

    private func resume(_ context: ChannelHandlerContext) {
        guard heldRead, connections.open < connections.maximum else { return }
        heldRead = false
        context.read()
    }
}

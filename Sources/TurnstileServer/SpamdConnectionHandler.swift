import NIOCore
import NIOPosix
import SpamdProtocol

// One spamc connection: one request, one answer, then the connection closes (spamd's
// protocol has no keep-alive). The handler reads the request head, then the whole
// message — as spamd does, however long its Content-length, up to `maxRequestBytes`
// when that is set — and answers once the whole request was read, so the client never
// gets a reset while it is still writing and never has to read while it writes (spamc
// writes the whole message before it reads: echoing a PROCESS's rest while it still
// arrived filled both socket buffers and stalled every message over about 8 MB until
// the read timeout, issue 46). Only the first `maxMessageBytes` are judged; PROCESS keeps
// the whole message to send it back, the other methods keep only the judged bytes.
// A request that does not arrive whole within the read timeout is answered EX_TIMEOUT:
// a slow-loris client holds a connection slot for at most that long, and never a thread.

/// The limits every connection is held to.
public struct SpamdLimits: Sendable, Hashable {
    /// Messages longer than this are judged on their first `maxMessageBytes` bytes
    /// (spamc's own default limit is 500 KiB); PROCESS still sends the whole message back.
    public var maxMessageBytes: Int
    /// A request whose message is longer is refused (`Bad header line: (Content-Length
    /// N over the server's limit of M bytes)`); nil, spamd's default: no limit.
    public var maxRequestBytes: Int?
    /// The most bytes of request line and headers.
    public var maxHeaderBytes: Int
    /// The whole request must arrive within this.
    public var readTimeout: TimeAmount
    /// A connection that sends no byte within this is closed without an answer (a
    /// client writes its request as it connects; a silent one only holds a slot).
    public var idleTimeout: TimeAmount

    public init(maxMessageBytes: Int = 512_000, maxRequestBytes: Int? = nil, maxHeaderBytes: Int = 8192,
                readTimeout: TimeAmount = .seconds(30), idleTimeout: TimeAmount = .seconds(5)) {
        self.maxMessageBytes = maxMessageBytes
        self.maxRequestBytes = maxRequestBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.readTimeout = readTimeout
        self.idleTimeout = idleTimeout
    }
}

/// TELL: learns or forgets `message` as `head` says (Message-class, Set, Remove) and
/// returns what it did locally. Runs on the server's learning thread, one at a time.
public typealias SpamdTeller = @Sendable (_ head: SpamdRequestHead, _ message: [UInt8]) throws -> (didSet: SpamdTellTargets, didRemove: SpamdTellTargets)

final class SpamdConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// Reading the request line and headers into `buffer`.
        case head
        /// Reading the message; `buffer` holds the bytes kept of it.
        case message(SpamdRequestHead)
        /// Content-length bytes arrived, ending inside a line, and more followed (or may
        /// follow): as spamd reads whole lines, read to the end of that line — then the
        /// request is refused with `got` bytes — or to the end of the input.
        case overrun(SpamdRequestHead, got: Int)
        /// TELL handed to the learning thread.
        case learning
        /// The answer is being written; the connection closes once it was (the end of
        /// the client's input does not cut a long answer short).
        case answering
        /// Refused or skipped; anything more is ignored until the connection closes.
        case closing
    }

    private var state = State.head
    private var buffer: [UInt8] = []
    /// Message bytes received so far (kept or not).
    private var received = 0
    /// The message's last byte at its Content-length (kept or not): whether the
    /// declared length ends a line.
    private var lastByte: UInt8 = 0x0A
    private var timeout: Scheduled<Void>?
    /// Closes a connection that sends nothing (cancelled by its first bytes).
    private var silence: Scheduled<Void>?
    private var hasSpoken = false
    /// The server's connections, told when this one first speaks.
    private let connections: ConnectionCount?
    private let store: JudgeStore
    /// Per-user lists (`serve --db-dir`); nil: `store` judges every request.
    private let userStores: UserJudgeStores?
    private let limits: SpamdLimits
    private let parser: SpamdRequestParser
    private let teller: SpamdTeller?
    private let learningPool: NIOThreadPool?
    /// Where each request's line goes (nil: not logged).
    private let log: RequestLog?
    private var started = ContinuousClock.now
    private var peer = ""
    /// spamd's rhost, raddr and rport for the peer (RequestLog.peerFields).
    private var peerFields = ""
    /// A Unix-socket peer's uid (SO_PEERCRED), once known.
    private var peerUID: UInt32?
    /// The request's head, once read (for the log).
    private var request: SpamdRequestHead?

    private let tellPolicy: TellPolicy
    private let tellLimiter: TellRateLimiter?

    init(store: JudgeStore, userStores: UserJudgeStores? = nil, limits: SpamdLimits, teller: SpamdTeller?, learningPool: NIOThreadPool?, log: RequestLog? = nil,
         tellPolicy: TellPolicy = TellPolicy(), tellLimiter: TellRateLimiter? = nil, connections: ConnectionCount? = nil) {
        self.connections = connections
        self.tellPolicy = tellPolicy
        self.tellLimiter = tellLimiter
        self.store = store
        self.userStores = userStores
        self.limits = limits
        self.parser = SpamdRequestParser(maxHeaderBytes: limits.maxHeaderBytes)
        self.teller = teller
        self.learningPool = learningPool
        self.log = log
    }

    func channelActive(context: ChannelHandlerContext) {
        started = .now
        peer = RequestLog.peer(context.channel.remoteAddress)
        peerFields = RequestLog.peerFields(context.channel.remoteAddress, local: context.channel.localAddress)
        if context.channel.remoteAddress.flatMap(SpamdServer.addressBytes) == nil {
            peerUserID(of: context.channel).assumeIsolated().whenSuccess { [self] uid in
                peerUID = uid
                if let uid { peer = "unix socket uid \(uid)" }
            }
        }
        let seconds = Int(limits.readTimeout.nanoseconds / 1_000_000_000)
        timeout = context.eventLoop.assumeIsolated().scheduleTask(in: limits.readTimeout) { [self] in
            switch state {
            case .head, .message, .overrun: refuse(context, .timeout(seconds: seconds))
            case .closing: context.close(promise: nil)
            case .learning, .answering: break
            }
        }
        if limits.idleTimeout < limits.readTimeout {
            silence = context.eventLoop.assumeIsolated().scheduleTask(in: limits.idleTimeout) { [self] in
                if case .head = state, buffer.isEmpty {
                    state = .closing
                    timeout?.cancel()
                    context.close(promise: nil)
                }
            }
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeout?.cancel()
        silence?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let chunk = unwrapInboundIn(data)
        if !hasSpoken {
            hasSpoken = true
            silence?.cancel()
            connections?.spoke(context.channel)
        }
        switch state {
        case .head:
            let lineEnd = chunk.readableBytesView.contains(0x0A)
            buffer.append(contentsOf: chunk.readableBytesView)
            if lineEnd || buffer.count > limits.maxHeaderBytes { parseHead(context, inputEnded: false) }
        case .message(let head):
            take(context, head, chunk.readableBytesView[...])
        case .overrun(let head, let got):
            overrun(context, head, got: got, chunk.readableBytesView[...])
        case .learning, .answering, .closing:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let event = event as? ChannelEvent, event == .inputClosed else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        switch state {
        case .head:
            parseHead(context, inputEnded: true)
        case .message(let head):
            if let expected = head.contentLength, received < expected {
                refuse(context, .lengthMismatch(expected: expected, got: received))
            } else {
                complete(context, head)
            }
        case .overrun(let head, let got):
            let expected = head.contentLength ?? got
            if got == expected { complete(context, head) } else { refuse(context, .lengthMismatch(expected: expected, got: got)) }
        case .learning, .answering:
            break
        case .closing:
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    // MARK: - Steps

    private func parseHead(_ context: ChannelHandlerContext, inputEnded: Bool) {
        switch parser.parse(buffer, inputEnded: inputEnded) {
        case .needMore:
            return
        case .error(let error):
            refuse(context, error)
        case .head(let head, let bodyStart):
            request = head
            let first = buffer[bodyStart...]
            switch head.method {
            case .ping:
                reply(context, SpamdResponse.pong)
            case .skip:
                state = .closing
                timeout?.cancel()
                context.close(promise: nil)
            default:
                if let expected = head.contentLength, let most = limits.maxRequestBytes, expected > most {
                    refuse(context, .tooLong(expected, limit: most))
                    return
                }
                let rest = Array(first)
                buffer = []
                // PERF: one allocation for a declared length, but never a huge one on a
                // client's word alone (the array grows as bytes really arrive).
                buffer.reserveCapacity(min(head.contentLength ?? 4096, keepLimit(head), 64 << 20))
                state = .message(head)
                if !rest.isEmpty || head.contentLength == 0 { take(context, head, rest[...]) }
                if inputEnded, case .message = state {
                    userInboundEventTriggered(context: context, event: ChannelEvent.inputClosed)
                }
            }
        }
    }

    /// The most message bytes kept for `head`: PROCESS and TELL keep all of it (PROCESS
    /// sends it back, TELL learns from the whole message), the others what is judged.
    private func keepLimit(_ head: SpamdRequestHead) -> Int {
        let judged = head.method == .process || head.method == .tell ? Int.max : limits.maxMessageBytes
        return min(head.contentLength ?? Int.max, judged)
    }

    /// Message bytes arrived: keep what is kept; once Content-length bytes are there, judge.
    private func take<C: Collection<UInt8>>(_ context: ChannelHandlerContext, _ head: SpamdRequestHead, _ bytes: C)
    where C.Index == Int {
        let expected = head.contentLength ?? Int.max
        let inMessage = min(bytes.count, expected - received)
        let room = keepLimit(head) - buffer.count
        buffer.append(contentsOf: bytes.prefix(max(0, min(room, inMessage))))
        if inMessage > 0 { lastByte = bytes[bytes.startIndex + inMessage - 1] }
        received += inMessage
        if head.contentLength == nil, let most = limits.maxRequestBytes, received > most {
            refuse(context, .tooLong(received, limit: most))
            return
        }
        guard received == expected else { return }
        // spamd reads the message a line at a time until it has Content-length bytes: a
        // length that ends inside a line is read past, to the line's end, and refused.
        if expected == 0 || lastByte != 0x0A {
            overrun(context, head, got: expected, bytes.dropFirst(inMessage))
        } else {
            complete(context, head)
        }
    }

    /// The store judging `head`'s request: its user's, when the user has a database.
    private func judgeStore(for head: SpamdRequestHead) -> JudgeStore {
        guard let userStores, let user = head.user else { return store }
        return userStores.store(for: user) ?? store
    }

    /// Bytes past a Content-length that ended inside a line: up to the line's end.
    private func overrun<C: Collection<UInt8>>(_ context: ChannelHandlerContext, _ head: SpamdRequestHead, got: Int, _ bytes: C) {
        if let end = bytes.firstIndex(of: 0x0A) {
            let got = got + bytes.distance(from: bytes.startIndex, to: end) + 1
            refuse(context, .lengthMismatch(expected: head.contentLength ?? got, got: got))
        } else {
            state = .overrun(head, got: got + bytes.count)
        }
    }

    /// The whole message is read (its kept bytes in `buffer`): judge (or learn) and answer.
    private func complete(_ context: ChannelHandlerContext, _ head: SpamdRequestHead) {
        let total = head.contentLength ?? received
        if head.method == .tell {
            tell(context, head)
            return
        }
        let judged = min(buffer.count, limits.maxMessageBytes)
        let answer = buffer.withUnsafeBufferPointer { message in
            judgeStore(for: head).withJudge { $0.answer(head, message: UnsafeBufferPointer(rebasing: message[..<judged]), totalLength: total) }
        }
        if let log, log.everyRequest {
            log.result(head.method, answer.verdict, user: head.user, peerFields: peerFields, peerUID: peerUID, started: started, bytes: total)
        }
        if answer.restFollows {
            // PROCESS of a message longer than the judged bytes: its rest, unchanged.
            var out = context.channel.allocator.buffer(capacity: answer.bytes.count + buffer.count - judged)
            out.writeBytes(answer.bytes)
            buffer.withUnsafeBufferPointer { _ = out.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0)[judged...])) }
            buffer = []
            reply(context, out)
            return
        }
        buffer = []
        reply(context, answer.bytes)
    }

    private func tell(_ context: ChannelHandlerContext, _ head: SpamdRequestHead) {
        guard let teller, let learningPool else {
            // spamd's answer when started without --allow-tell.
            refuse(context, .unavailable("TELL commands have not been enabled."))
            return
        }
        guard head.set.contains(.local) || head.remove.contains(.local) else {
            reply(context, SpamdResponse.tell(didSet: [], didRemove: []))
            return
        }
        if head.set.contains(.local), head.messageClass == nil {
            refuse(context, .protocolError("(Message-class header needed to learn a message)"))
            return
        }
        // Bound to who asks: the peer's uid on the Unix socket, the address over TCP.
        let requestPeer: RequestPeer
        if let address = context.channel.remoteAddress.flatMap(SpamdServer.addressBytes) {
            requestPeer = .network(address: address)
        } else {
            requestPeer = .local(uid: peerUID, name: peerUID.flatMap(userName(of:)))
            if case .local(let uid, let name) = requestPeer { peer = "unix socket " + TellPolicy.describe(uid, name) }
        }
        var named = head
        switch tellPolicy.user(claimed: named.user, peer: requestPeer) {
        case .failure(let refusal):
            refuse(context, .unavailable(refusal.text + "."))
            return
        case .success(let user):
            named.user = user
            request = named
        }
        let told = named
        if let tellLimiter, !tellLimiter.admit(requestPeer.rateKey) {
            refuse(context, SpamdError(code: .tempFail, message: "Service Unavailable: too many TELL requests; try again in a minute."))
            return
        }
        state = .learning
        let message = buffer
        buffer = []
        let done = learningPool.runIfActive(eventLoop: context.eventLoop) { try teller(told, message) }
        let size = message.count
        done.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .success(let did):
                let what = told.set.contains(.local) ? "learned as \(told.messageClass == .spam ? "spam" : "ham")" : "forgot"
                let changed = !did.didSet.isEmpty || !did.didRemove.isEmpty
                log?.request("TELL \(changed ? what : "nothing new (\(what) before)")", user: told.user, peer: peer, started: started, bytes: size)
                reply(context, SpamdResponse.tell(didSet: did.didSet, didRemove: did.didRemove))
            case .failure(let error):
                refuse(context, SpamdError(code: .ioError, message: "Learning failed: \(error)"))
            }
        }
    }

    /// Writes `bytes` and closes the connection.
    private func reply(_ context: ChannelHandlerContext, _ bytes: [UInt8]) {
        reply(context, context.channel.allocator.buffer(bytes: bytes))
    }

    private func reply(_ context: ChannelHandlerContext, _ bytes: ByteBuffer) {
        state = .answering
        timeout?.cancel()
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(bytes), promise: written)
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    /// Answers an error line, closes the output and reads what the client still sends
    /// until it closes (or the timeout), so the line is not lost to a reset.
    private func refuse(_ context: ChannelHandlerContext, _ error: SpamdError) {
        // A connection closed before sending anything (a probe: is the port open?) is not a request.
        if let log, log.everyRequest || request?.method == .tell, request != nil || error != .protocolError("(closed before headers)") {
            let what = (request.map { $0.method.rawValue + " " } ?? "") + "refused (\(error.code.name): \(error.message))"
            log.request(what, user: request?.user, peer: peer, started: started, bytes: received)
        }
        let wasTimeout = error.code == .timeout
        state = .closing
        buffer = []
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: error.response)), promise: written)
        let channel = context.channel
        written.futureResult.whenComplete { _ in
            channel.close(mode: wasTimeout ? .all : .output, promise: nil)
        }
    }
}

import NIOCore
import NIOPosix
import SpamdProtocol

// One spamc connection: one request, one answer, then the connection closes (spamd's
// protocol has no keep-alive). The handler reads the request head, then the message
// — keeping at most `maxMessageBytes` of it, so memory per connection is bounded
// whatever Content-length says — judges it on the event loop (judging is microseconds)
// and answers once the whole request was read, so the client never gets a reset while
// it is still writing. A PROCESS of an oversized message is answered as soon as its
// first bytes are judged, and the rest is passed on as it arrives (BackPressureHandler
// in front stops reading while the client does not read). A request that does not
// arrive whole within the read timeout is answered EX_TIMEOUT: a slow-loris client holds
// a connection slot for at most that long, and never a thread.

/// The limits every connection is held to.
public struct SpamdLimits: Sendable, Hashable {
    /// Messages longer than this are judged on their first `maxMessageBytes` bytes
    /// (spamc's own default limit is 500 KiB).
    public var maxMessageBytes: Int
    /// The most bytes of request line and headers.
    public var maxHeaderBytes: Int
    /// The whole request must arrive within this.
    public var readTimeout: TimeAmount

    public init(maxMessageBytes: Int = 512_000, maxHeaderBytes: Int = 8192, readTimeout: TimeAmount = .seconds(30)) {
        self.maxMessageBytes = maxMessageBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.readTimeout = readTimeout
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
        /// Reading the message; `buffer` holds its first bytes.
        case message(SpamdRequestHead)
        /// PROCESS of an oversized message answered: `remaining` bytes of its rest to pass on.
        case passing(remaining: Int)
        /// Judged: the rest of the message is read and dropped, then `answer` is written.
        case draining(head: SpamdRequestHead, remaining: Int?, answer: [UInt8])
        /// TELL handed to the learning thread.
        case learning
        /// Answered; anything more is ignored until the connection closes.
        case closing
    }

    private var state = State.head
    private var buffer: [UInt8] = []
    /// Message bytes received so far (kept or not).
    private var received = 0
    private var timeout: Scheduled<Void>?
    private let store: JudgeStore
    private let limits: SpamdLimits
    private let parser: SpamdRequestParser
    private let teller: SpamdTeller?
    private let learningPool: NIOThreadPool?

    init(store: JudgeStore, limits: SpamdLimits, teller: SpamdTeller?, learningPool: NIOThreadPool?) {
        self.store = store
        self.limits = limits
        self.parser = SpamdRequestParser(maxHeaderBytes: limits.maxHeaderBytes)
        self.teller = teller
        self.learningPool = learningPool
    }

    func channelActive(context: ChannelHandlerContext) {
        let seconds = Int(limits.readTimeout.nanoseconds / 1_000_000_000)
        timeout = context.eventLoop.assumeIsolated().scheduleTask(in: limits.readTimeout) { [self] in
            switch state {
            case .head, .message, .draining: refuse(context, .timeout(seconds: seconds))
            case .passing, .closing: context.close(promise: nil)
            case .learning: break
            }
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeout?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let chunk = unwrapInboundIn(data)
        switch state {
        case .head:
            let lineEnd = chunk.readableBytesView.contains(0x0A)
            buffer.append(contentsOf: chunk.readableBytesView)
            if lineEnd || buffer.count > limits.maxHeaderBytes { parseHead(context, inputEnded: false) }
        case .message(let head):
            take(context, head, chunk.readableBytesView[...])
        case .passing(let remaining):
            pass(context, chunk.readableBytesView[...], remaining: remaining)
        case .draining(let head, let remaining, let answer):
            guard let remaining else { return }
            let left = remaining - chunk.readableBytes
            received += min(remaining, chunk.readableBytes)
            if left <= 0 { reply(context, answer) } else { state = .draining(head: head, remaining: left, answer: answer) }
        case .learning, .closing:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .passing = state { context.flush() }
        context.fireChannelReadComplete()
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
                complete(context, head, extra: [][...])
            }
        case .passing:
            // The message ended before its Content-length: the answer cannot be whole.
            context.close(promise: nil)
        case .draining(let head, let remaining, let answer):
            if let expected = head.contentLength, let remaining, remaining > 0 {
                refuse(context, .lengthMismatch(expected: expected, got: received))
            } else {
                reply(context, answer)
            }
        case .learning:
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
            let first = buffer[bodyStart...]
            switch head.method {
            case .ping:
                reply(context, SpamdResponse.pong)
            case .skip:
                state = .closing
                timeout?.cancel()
                context.close(promise: nil)
            default:
                let rest = Array(first)
                buffer = []
                buffer.reserveCapacity(min(head.contentLength ?? 4096, limits.maxMessageBytes))
                state = .message(head)
                if !rest.isEmpty || head.contentLength == 0 { take(context, head, rest[...]) }
                if inputEnded, case .message = state {
                    userInboundEventTriggered(context: context, event: ChannelEvent.inputClosed)
                }
            }
        }
    }

    /// The most message bytes kept for `head`.
    private func keepLimit(_ head: SpamdRequestHead) -> Int {
        min(head.contentLength ?? Int.max, limits.maxMessageBytes)
    }

    /// Message bytes arrived: keep what fits; once the kept bytes are all there (and
    /// the length is known), judge.
    private func take<C: Collection<UInt8>>(_ context: ChannelHandlerContext, _ head: SpamdRequestHead, _ bytes: C) {
        let room = keepLimit(head) - buffer.count
        let kept = bytes.prefix(max(0, room))
        buffer.append(contentsOf: kept)
        received += bytes.count
        guard let expected = head.contentLength else {
            if received > buffer.count, head.method == .process || head.method == .headers || head.method == .tell {
                refuse(context, .protocolError("(a message over \(limits.maxMessageBytes) bytes needs a Content-length header)"))
            }
            return
        }
        if buffer.count >= keepLimit(head) {
            received = min(received, expected)
            complete(context, head, extra: Array(bytes.dropFirst(kept.count))[...])
        }
    }

    /// The kept bytes are complete: judge (or learn) and answer, or answer once the
    /// rest was read. `extra`: bytes of the last chunk past the kept ones.
    private func complete(_ context: ChannelHandlerContext, _ head: SpamdRequestHead, extra: ArraySlice<UInt8>) {
        let total = head.contentLength ?? received
        let remaining = total - received
        if head.method == .tell {
            guard remaining <= 0 else {
                // A TELL learns from the whole message or not at all.
                refuse(context, .protocolError("(a TELL message over \(limits.maxMessageBytes) bytes)"))
                return
            }
            tell(context, head)
            return
        }
        let answer = buffer.withUnsafeBufferPointer { message in
            store.withJudge { $0.answer(head, message: message, totalLength: total) }
        }
        if answer.restFollows {
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: answer.bytes)), promise: nil)
            let rest = total - buffer.count
            buffer = []
            pass(context, extra, remaining: rest)
            return
        }
        buffer = []
        if remaining <= 0 { reply(context, answer.bytes) } else {
            state = .draining(head: head, remaining: remaining, answer: answer.bytes)
        }
    }

    /// Passes bytes of an oversized message's rest on, up to `remaining`.
    private func pass<C: Collection<UInt8>>(_ context: ChannelHandlerContext, _ bytes: C, remaining: Int) {
        let n = min(remaining, bytes.count)
        if n > 0 { context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes.prefix(n))), promise: nil) }
        if remaining - n == 0 {
            reply(context, [])
        } else {
            state = .passing(remaining: remaining - n)
        }
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
        state = .learning
        let message = buffer
        buffer = []
        let done = learningPool.runIfActive(eventLoop: context.eventLoop) { try teller(head, message) }
        done.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .success(let did): reply(context, SpamdResponse.tell(didSet: did.didSet, didRemove: did.didRemove))
            case .failure(let error): refuse(context, SpamdError(code: .ioError, message: "Learning failed: \(error)"))
            }
        }
    }

    /// Writes `bytes` (after anything written before) and closes the connection.
    private func reply(_ context: ChannelHandlerContext, _ bytes: [UInt8]) {
        state = .closing
        timeout?.cancel()
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: written)
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    /// Answers an error line, closes the output and reads what the client still sends
    /// until it closes (or the timeout), so the line is not lost to a reset.
    private func refuse(_ context: ChannelHandlerContext, _ error: SpamdError) {
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

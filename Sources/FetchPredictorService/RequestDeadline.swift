import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// A deadline for the whole of each request to arrive, head to end: a client that declares a
/// body and sends it a byte at a time holds no connection past it, whether the service reads
/// the body or refused the request before it (the idle timeout alone is reset by every byte).
/// A request late before any answer is answered 408; the connection is closed either way. The
/// time the service takes to answer is not counted: the deadline ends with the request's end.
///
/// A request the HTTP parser cannot read (a request line or header that is not HTTP/1.1) is
/// answered here too, 400 with the JSON error body every other error has, and the connection
/// closed: Hummingbird's own answer has no body. A framing error inside a body being read reaches
/// the route, which answers it the same way.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// Whether an answer to the request in flight has begun.
    private var answering = false
    /// Whether a request has begun arriving and not ended.
    private var inRequest = false
    /// Whether an answer is being written and has not ended.
    private var writing = false

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            answering = false
            inRequest = true
            timer?.cancel()
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: deadline) {
                let (handler, context) = loopBound.value
                handler.expire(context)
            }
        case .body:
            break
        case .end:
            inRequest = false
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            answering = true
            writing = true
        case .body: break
        case .end: writing = false
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Between requests, nothing is being read or written: the answer is this handler's.
        guard error is HTTPParserError, !inRequest, !writing, context.channel.isActive else {
            context.fireErrorCaught(error)
            return
        }
        timer?.cancel()
        timer = nil
        answering = true
        answer(context, status: .badRequest, error: "the request is not valid HTTP/1.1")
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    private func expire(_ context: ChannelHandlerContext) {
        timer = nil
        guard context.channel.isActive else { return }
        if answering {
            context.close(promise: nil)
            return
        }
        answering = true
        answer(context, status: .requestTimeout, error: "the request did not arrive whole within the read timeout")
    }

    /// Answers with `status` and the JSON error body, then closes the connection.
    private func answer(_ context: ChannelHandlerContext, status: HTTPResponse.Status, error: String) {
        var head = HTTPResponse(status: status)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.connection] = "close"
        let body = APIError.body(error)
        head.headerFields[.contentLength] = String(body.readableBytes)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

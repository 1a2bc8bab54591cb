import Hummingbird
import NIOCore
import NIOHTTPTypes

/// A deadline for the whole of each request to arrive, head to end: a client that declares a
/// body and sends it a byte at a time holds no connection past it, whether the service reads
/// the body or refused the request before it (the idle timeout alone is reset by every byte).
/// A request late before any answer is answered 408; the connection is closed either way. The
/// time the service takes to answer is not counted: the deadline ends with the request's end.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// Whether an answer to the request in flight has begun.
    private var answering = false

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            answering = false
            timer?.cancel()
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: deadline) {
                let (handler, context) = loopBound.value
                handler.expire(context)
            }
        case .body:
            break
        case .end:
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { answering = true }
        context.write(data, promise: promise)
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
        var head = HTTPResponse(status: .requestTimeout)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.connection] = "close"
        let body = #"{"error":"the request did not arrive whole within the read timeout"}"#
        head.headerFields[.contentLength] = String(body.utf8.count)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(string: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

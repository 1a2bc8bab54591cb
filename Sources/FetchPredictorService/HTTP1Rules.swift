import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The service's HTTP/1.1 connections: Hummingbird's `HTTP1Channel`, with ``HTTP1RulesHandler``
/// where the request's HTTP/1 head is still whole (the version-independent types that follow it
/// no longer say which version the client spoke), and the service's own handlers after.
struct ServiceHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    /// The service's handlers, on the version-independent parts: made for each connection.
    let handlers: @Sendable () -> [any RemovableChannelHandler]
    /// How long a connection may sit with nothing read or written.
    let idleTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: .init())
            try pipeline.addHandler(HTTP1RulesHandler())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandlers(handlers())
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// What HTTP/1.1 asks of a server that the parser leaves to it (RFC 9112):
/// - an HTTP/1.0 request that does not ask to keep the connection alive ends it after its
///   answer (section 9.3): the request is passed on with `Connection: close`, which the server
///   honours and the answer carries;
/// - a request whose `Transfer-Encoding` names a coding besides `chunked` (`gzip, chunked`) is
///   answered 501 and its connection closed (section 6.1), its body unread: the service
///   implements no other coding, and reading such a body as plain chunked would store bytes the
///   client meant compressed.
final class HTTP1RulesHandler: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether each request read and not yet answered ends the connection, in order (a client
    /// may send its next request before the answer to the last).
    private var closing: [Bool] = []
    /// Whether a request was refused here: nothing more of the connection is read.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if let coding = Self.unimplementedCoding(head.headers) {
            refused = true
            refuse(context, coding: coding)
            return
        }
        let keepsAlive = head.isKeepAlive
        closing.append(!keepsAlive)
        if !keepsAlive, head.version.major == 1, head.version.minor == 0 {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), !closing.isEmpty, closing.removeFirst() else {
            context.write(data, promise: promise)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    /// The first coding of a `Transfer-Encoding` besides `chunked`, in any case; `nil` when
    /// there is none (or no such header).
    static func unimplementedCoding(_ headers: HTTPHeaders) -> String? {
        headers["transfer-encoding"]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && $0.lowercased() != "chunked" }
    }

    /// Answers 501 with the JSON error body every other error has, then closes the connection.
    private func refuse(_ context: ChannelHandlerContext, coding: String) {
        let body = APIError.body(
            "the transfer coding '\(coding)' is not implemented: send the body as it is, chunked or with a Content-Length",
            field: "Transfer-Encoding")
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(body.readableBytes))
        headers.add(name: "connection", value: "close")
        let head = HTTPResponseHead(version: .http1_1, status: .notImplemented, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

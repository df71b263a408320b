import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A server child channel that adds what HTTP needs before a request reaches Hummingbird: a client
/// must send its request head within a deadline, and a malformed or oversized head is answered
/// (431 or 400) and the connection closed.
///
/// Hummingbird's idle timeout starts only once a first request head has been read, and without
/// NIO's error handler (which Hummingbird leaves out) a head over the size limit fails the upgrade
/// negotiation silently: the connection would stay open, unanswered, forever.
struct GuardedHTTPChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    let requestHeadTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(HTTPRequestGuard(requestHeadTimeout: requestHeadTimeout), position: .after(decoder))
            return value
        }
    }

    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Sits right after the HTTP request decoder: closes a connection whose first request head does not
/// arrive in time, and answers the decoder's errors instead of leaving the client waiting.
final class HTTPRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let requestHeadTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// After the first head the connection may become a WebSocket, whose frames pass here unread.
    private var sawRequestHead = false

    init(requestHeadTimeout: TimeAmount) {
        self.requestHeadTimeout = requestHeadTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: requestHeadTimeout) {
            loopBound.value.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !sawRequestHead, case .head = unwrapInboundIn(data) {
            sawRequestHead = true
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        deadline?.cancel()
        let (status, message): (HTTPResponseStatus, String) = parserError == .headerOverflow
            ? (.requestHeaderFieldsTooLarge, "the request's header is larger than this server accepts\n")
            : (.badRequest, "the request is not valid HTTP/1.1\n")
        var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")])
        headers.add(name: "Content-Length", value: String(message.utf8.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: message)))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}

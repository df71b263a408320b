import Foundation
import Hummingbird
internal import HummingbirdCore
import Logging
internal import NIOCore
internal import NIOHTTP1

/// A server child channel that adds what HTTP needs before a request reaches Hummingbird: a client
/// must send its request head within a deadline, a malformed or oversized head is answered
/// (431 or 400) and the connection closed, and a WebSocket upgrade that ``StudioAccess`` refuses is
/// answered with its status (Hummingbird answers a refused upgrade with a bare 400).
///
/// Hummingbird's idle timeout starts only once a first request head has been read, and without
/// NIO's error handler (which Hummingbird leaves out) a head over the size limit fails the upgrade
/// negotiation silently: the connection would stay open, unanswered, forever.
struct GuardedHTTPChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    let requestHeadTimeout: TimeAmount
    let access: StudioAccess

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(HTTPRequestGuard(requestHeadTimeout: requestHeadTimeout, access: access), position: .after(decoder))
            return value
        }
    }

    func handle(value: Base.Value, logger: Logger) async {
        var connectionLogger = logger
        connectionLogger.handler = ClientFailureLogHandler(base: logger.handler)
        await base.handle(value: value, logger: connectionLogger)
    }
}

/// Logs a connection's events as they are, but for the upgrade negotiation's failure, which is the
/// client's doing (it closed, sent no request in time, or sent one the guard refused): that is
/// debug, not an error. Hummingbird logged an error line for every idle connection that timed out.
struct ClientFailureLogHandler: LogHandler {
    var base: any LogHandler
    static let negotiationFailure = "Error handling upgrade result"

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if event.message.description == Self.negotiationFailure {
            guard base.logLevel <= .debug else { return }
            event.level = .debug
            event.message = "the connection ended before a request was handled"
        }
        base.log(event: event)
    }
}

/// Sits right after the HTTP request decoder: closes a connection whose first request head does not
/// arrive in time, and answers the decoder's errors instead of leaving the client waiting.
final class HTTPRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let requestHeadTimeout: TimeAmount
    private let access: StudioAccess
    private var deadline: Scheduled<Void>?
    /// After the first head the connection may become a WebSocket, whose frames pass here unread.
    private var sawRequestHead = false
    /// A refused upgrade has been answered: the rest of its request is dropped.
    private var refused = false
    /// An upgrade head passed: what follows may be WebSocket frames, which pass unread.
    private var upgrading = false

    init(requestHeadTimeout: TimeAmount, access: StudioAccess) {
        self.requestHeadTimeout = requestHeadTimeout
        self.access = access
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
        guard !refused else { return }
        guard !upgrading else { return context.fireChannelRead(data) }
        if case .head(let head) = unwrapInboundIn(data) {
            if !sawRequestHead {
                sawRequestHead = true
                deadline?.cancel()
                deadline = nil
            }
            if head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" }) {
                // From here on the connection may carry WebSocket frames, not HTTP parts.
                upgrading = true
                guard let refusal = refusal(of: head) else { return context.fireChannelRead(data) }
                refused = true
                respond(context: context, status: HTTPResponseStatus(statusCode: refusal.status),
                        body: StudioHTTPError.Body(error: refusal.message).json,
                        contentType: "application/json; charset=utf-8")
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// The access check of a WebSocket upgrade's head; a repeated Origin or Host is refused.
    private func refusal(of head: HTTPRequestHead) -> StudioAccess.Refusal? {
        func single(_ name: String) -> String? {
            let values = head.headers[name]
            return values.count > 1 ? values.joined(separator: ", ") : values.first
        }
        guard head.headers["host"].count <= 1 else { return StudioAccess.Refusal(status: 400, message: "the request has two Host headers") }
        return access.refusal(authority: single("host"), changesState: true, origin: single("origin"), fetchSite: single("sec-fetch-site"),
                              tokens: [StudioAccess.token(inAuthorization: single("authorization")),
                                       StudioAccess.token(inCookies: head.headers["cookie"].joined(separator: "; "))])
    }

    /// Answers and closes the connection.
    private func respond(context: ChannelHandlerContext, status: HTTPResponseStatus, body: String, contentType: String) {
        var headers = HTTPHeaders([("Content-Type", contentType), ("Connection", "close")])
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        for field in AccessGuardMiddleware<BasicRequestContext>.securityHeaders { headers.add(name: field.name.rawName, value: field.value) }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
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
        respond(context: context, status: status, body: message, contentType: "text/plain; charset=utf-8")
    }
}

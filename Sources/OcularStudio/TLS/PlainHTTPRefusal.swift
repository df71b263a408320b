import Hummingbird
internal import HummingbirdCore
import Logging
internal import NIOCore

/// The HTTPS port's answer to plain HTTP: a browser sent to `http://` on it got 0 bytes and a blank
/// "connection reset" page. A connection whose first byte is an HTTP method's letter (a TLS
/// connection starts with a handshake record, 0x16) is answered 400 in plain text that names the
/// https:// address, then closed; anything else goes on to TLS untouched.
struct PlainHTTPRefusingChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(PlainHTTPRefusal())
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Looks at a connection's first bytes, before TLS does.
final class PlainHTTPRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self), (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        let request = String(decoding: buffer.readableBytesView.prefix(8192), as: UTF8.self)
        let body = "This is Ocular Studio's HTTPS port: open " + Self.address(answering: request) + " (https://, not http://).\n"
        let response = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    /// `https://HOST/` from the request's Host header when it is a host name, else the words.
    static func address(answering request: String) -> String {
        for line in request.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "host" else { continue }
            let host = parts[1].trimmingCharacters(in: .whitespaces)
            guard StudioAccess.hostName(of: host) != nil else { break }
            return "https://\(host)/"
        }
        return "the same address with https://"
    }
}

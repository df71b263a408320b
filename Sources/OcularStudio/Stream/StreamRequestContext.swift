import Hummingbird
internal import HummingbirdWebSocket
internal import NIOCore

/// The context of a `/api/stream` upgrade: Hummingbird's WebSocket context plus the client's address,
/// which says whether there is a network between the page and the studio at all (see ``LinkMeter``).
struct StreamRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }

    /// A client on this machine: its "link" is memory, and what slows its answers is its own work.
    var isLoopback: Bool {
        guard let remoteAddress else { return false }
        guard let address = remoteAddress.ipAddress else { return true }  // a Unix domain socket
        // An IPv4 client of a dual-stack socket arrives as ::ffff:a.b.c.d.
        return StudioAccess.isLoopback(address.hasPrefix("::ffff:") ? String(address.dropFirst(7)) : address)
    }
}

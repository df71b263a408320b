import Hummingbird
import HummingbirdWebSocket
import NIOCore

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
        switch remoteAddress {
        case .v4(let address)?: return withUnsafeBytes(of: address.address.sin_addr.s_addr) { $0[0] == 127 }
        case .v6?: return remoteAddress?.ipAddress == "::1" || remoteAddress?.ipAddress?.hasPrefix("::ffff:127.") == true
        case .unixDomainSocket?: return true
        case nil: return false
        }
    }
}

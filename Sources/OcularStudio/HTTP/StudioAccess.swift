import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who may use the studio: the one user who started it, from the pages it serves.
///
/// Modelled on Jupyter's server, the most trusted local web server of its kind:
/// - **Host allow-list.** Requests must name the studio by a loopback name or address, the address
///   it is bound to, or a name given with `--allow-host`. A page whose DNS name is re-pointed at
///   127.0.0.1 (DNS rebinding) still sends its own name as Host, and is refused. When bound to every
///   interface (0.0.0.0, ::) any IP address is accepted: a rebinding page cannot make a browser
///   send an address as Host.
/// - **Same origin.** The WebSocket and every state-changing request (anything but GET, HEAD and
///   OPTIONS) must come from the studio's own pages: a browser's `Origin` must be the Host asked for,
///   and `Sec-Fetch-Site`, where sent, `same-origin` or `none`. Clients that send neither (curl, the
///   CLI) are not browsers, so no other web page is driving them.
/// - **A token off loopback.** Bound to another address, the studio is open to the network, so
///   every request needs the access token: from the printed address's `?token=`, exchanged at once
///   for an HttpOnly, SameSite=Strict cookie, or as `Authorization: token …`.
public struct StudioAccess: Sendable, Equatable {
    /// The address the studio listens on.
    public var boundHost: String
    /// Further names requests may use as Host (`--allow-host`), lower-cased.
    public var allowedHosts: Set<String>
    /// Required on every request when set; nil on loopback unless given.
    public var token: String?
    /// How the studio is served: its pages' Origin has this scheme.
    public var scheme = "http"

    static let cookieName = "ocular-token"

    /// - Parameters:
    ///   - boundHost: The address the studio listens on.
    ///   - allowedHosts: Further names for the Host header.
    ///   - token: The access token; a random one when nil and `boundHost` is not loopback.
    public init(boundHost: String, allowedHosts: [String] = [], token: String? = nil) {
        self.boundHost = boundHost
        self.allowedHosts = Set(allowedHosts.map { Self.normalisedName($0) })
        self.token = token ?? (Self.isLoopback(boundHost) ? nil : Self.randomToken())
    }

    /// 32 random bytes as 64 hexadecimal digits, from the system's generator.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }.joined()
    }

    /// Why a request may not be served, with the status to answer.
    struct Refusal: Equatable {
        /// 400 (no Host), 401 (no token) or 403 (another site or name).
        var status: Int
        var message: String
    }

    /// Every check in order: Host, token, then (for a state-changing request or a WebSocket) origin.
    /// - Parameters:
    ///   - changesState: Any method but GET, HEAD and OPTIONS, or a WebSocket upgrade.
    ///   - tokens: The token as the request offers it (Authorization header, cookie), if at all.
    func refusal(authority: String?, changesState: Bool, origin: String?, fetchSite: String?, tokens: [String?]) -> Refusal? {
        if let refusal = refusal(ofHost: authority) { return Refusal(status: authority == nil ? 400 : 403, message: refusal) }
        if token != nil, !tokens.contains(where: { accepts(token: $0) }) {
            return Refusal(status: 401, message: "this studio needs its access token: open the address with ?token=… that `ocular studio` printed")
        }
        if changesState, let refusal = refusal(ofOrigin: origin, fetchSite: fetchSite, authority: authority) {
            return Refusal(status: 403, message: refusal)
        }
        return nil
    }

    /// The token of an `Authorization: token …` header.
    static func token(inAuthorization header: String?) -> String? {
        guard let header, header.hasPrefix("token ") else { return nil }
        return String(header.dropFirst(6))
    }

    // MARK: - Host

    /// Why a Host header is refused, or nil when it names this studio.
    func refusal(ofHost authority: String?) -> String? {
        guard let authority, !authority.isEmpty else { return "the request has no Host header" }
        guard let name = Self.hostName(of: authority) else { return "the Host header '\(Self.printable(authority))' is malformed" }
        if Self.isLoopback(name) || name == Self.normalisedName(boundHost) || allowedHosts.contains(name) { return nil }
        if Self.isWildcard(boundHost), Self.isAddress(name) { return nil }
        return "this studio answers only to its own address, not to '\(Self.printable(name))' (start it with --allow-host \(Self.printable(name)) to allow that name)"
    }

    /// The host name of an authority ("name:port", "[v6]:port"), lower-cased, without a final dot;
    /// nil when it is not one.
    public static func hostName(of authority: String) -> String? {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: end)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCII) && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            host = host[host.index(after: host.startIndex)..<end]
        } else if let colon = host.lastIndex(of: ":") {
            let port = host[host.index(after: colon)...]
            guard port.allSatisfy({ $0.isASCII && $0.isNumber }), !host[..<colon].contains(":") else { return nil }
            host = host[..<colon]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else { return nil }
        return normalisedName(String(host))
    }

    static func normalisedName(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Whether a host name or address is this machine: `localhost` (and `*.localhost`), 127.0.0.0/8, `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let name = normalisedName(host)
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }

    /// Whether an address to listen on means every interface (`0.0.0.0`, `::`).
    public static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", ""].contains(normalisedName(host))
    }

    static func isAddress(_ name: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    /// A stranger's text, safe to put in a message: printable ASCII, at most 100 characters.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.prefix(100).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }

    // MARK: - Origin

    /// Why a browser's request is not from the studio's own pages, or nil when it is (or is no
    /// browser's).
    func refusal(ofOrigin origin: String?, fetchSite: String?, authority: String?) -> String? {
        if let fetchSite, !["same-origin", "none"].contains(fetchSite.lowercased()) {
            return "requests from other web pages are refused (Sec-Fetch-Site: \(Self.printable(fetchSite)))"
        }
        guard let origin, !isOwn(origin: origin, authority: authority) else { return nil }
        return "requests from other web pages are refused (Origin: \(Self.printable(origin)))"
    }

    /// Whether an Origin is the studio's own pages' (its scheme, the Host asked for), or a WebSocket
    /// library's "ws://HOST" for the same host.
    private func isOwn(origin: String, authority: String?) -> Bool {
        guard let authority, let url = URL(string: origin), let scheme = url.scheme?.lowercased(),
              let host = url.host, url.path.isEmpty || url.path == "/" else { return false }
        let originAuthority = (host.contains(":") ? "[\(host)]" : host) + (url.port.map { ":\($0)" } ?? "")
        // WebSocket client libraries (not browsers: no page can make a browser send this) put
        // "ws://HOST" without the port in Origin.
        if ["ws", "wss"].contains(scheme) { return Self.hostName(of: originAuthority) == Self.hostName(of: authority) }
        return scheme == self.scheme && (Self.normalisedName(originAuthority) == Self.normalisedName(authority)
            || Self.sameWithDefaultPort(originAuthority, authority, scheme: scheme))
    }

    /// "name" and "name:80" are the same http origin.
    private static func sameWithDefaultPort(_ origin: String, _ authority: String, scheme: String) -> Bool {
        let port = scheme == "https" ? ":443" : ":80"
        return normalisedName(origin + port) == normalisedName(authority) || normalisedName(origin) == normalisedName(authority + port)
    }

    // MARK: - Token

    /// Whether `candidate` is the token, compared in constant time.
    func accepts(token candidate: String?) -> Bool {
        guard let token else { return true }
        guard let candidate, !candidate.isEmpty else { return false }
        let expected = Array(token.utf8), given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in expected.indices { difference |= expected[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }

    /// The token in a Cookie header, if any.
    static func token(inCookies header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == cookieName { return parts[1] }
        }
        return nil
    }
}

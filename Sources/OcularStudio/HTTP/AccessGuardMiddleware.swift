import Foundation
internal import HTTPTypes
import Hummingbird
internal import NIOCore

/// Applies ``StudioAccess`` to every request, WebSocket upgrades included (the WebSocket router
/// runs it too; an upgrade it refuses falls through to the HTTP router, which answers the status),
/// and puts the security headers on every answer, errors included.
///
/// - Host not this studio's: 403; no Host at all: 400.
/// - Token missing or wrong (when the studio has one): 401. `?token=` with the right token answers a
///   redirect to the same address without it, setting the cookie.
/// - A browser's state-changing request or WebSocket from another origin: 403.
struct AccessGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: StudioAccess

    /// Scripts, styles, fonts and connections from the studio itself only; pictures also from data:
    /// and blob: URLs (thumbnails, previews); never framed by another page.
    static var securityHeaders: HTTPFields {
        [
            .contentSecurityPolicy: "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                + "media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                + "frame-ancestors 'none'",
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer",
            .xFrameOptions: "DENY",
            .crossOriginOpenerPolicy: "same-origin",
            .crossOriginResourcePolicy: "same-origin",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await guarded(request, context: context, next: next)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        for field in Self.securityHeaders where response.headers[field.name] == nil {
            response.headers.append(field)
        }
        return response
    }

    private func guarded(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if access.token != nil, access.refusal(ofHost: request.head.authority) == nil,
           let offered = request.uri.queryParameters.get("token"), access.accepts(token: offered) {
            return Self.exchange(offered, request: request, secure: access.scheme == "https")
        }
        let upgrades = request.headers[.upgrade]?.lowercased() == "websocket"
        if let refusal = access.refusal(authority: request.head.authority,
                                        changesState: upgrades || ![.get, .head, .options].contains(request.method),
                                        origin: request.headers[.origin], fetchSite: request.headers[.secFetchSite],
                                        tokens: [StudioAccess.token(inAuthorization: request.headers[.authorization]),
                                                 StudioAccess.token(inCookies: request.headers[.cookie])]) {
            context.logger.notice("refused \(request.method) \(request.uri.path): \(refusal.message)")
            throw StudioHTTPError(HTTPResponse.Status(code: refusal.status), refusal.message)
        }
        return try await next(request, context)
    }

    /// Trades the token in the address for a cookie, and sends the browser to the address without
    /// it, so that it stays out of the history and of what the page can read.
    static func exchange(_ token: String, request: Request, secure: Bool) -> Response {
        let kept = (request.uri.query ?? "").split(separator: "&").filter { !$0.hasPrefix("token=") }
        let query = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        return Response(status: .seeOther, headers: [
            // The exchange runs before the path's own checks: `//evil.example/?token=…` must not send the browser there.
            .location: RequestPathMiddleware<BasicRequestContext>.sameSiteLocation(request.uri.path) + query,
            .setCookie: "\(StudioAccess.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : ""),
            .cacheControl: "no-store",
        ])
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
}

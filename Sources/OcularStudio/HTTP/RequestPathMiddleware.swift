import Foundation
import Hummingbird

/// Refuses request paths that could trick the file server, before any route sees them.
///
/// - A NUL or another control character, raw or percent-encoded, answers 400: the file system reads
///   a path only up to a NUL, so `/gallery.html%00.png` would serve gallery.html typed as a PNG.
/// - Repeated slashes answer a redirect to the same path with single slashes: `//demo` would
///   otherwise be redirected to `//demo/`, which a browser reads as a link to the host "demo".
struct RequestPathMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard let decoded = path.removingPercentEncoding else {
            throw HTTPError(.badRequest, message: "the request path has a malformed percent escape")
        }
        guard !Self.hasControlCharacter(path), !Self.hasControlCharacter(decoded) else {
            throw HTTPError(.badRequest, message: "the request path holds a control character")
        }
        if path.contains("//") {
            var collapsed = Self.sameSiteLocation(path)
            if let query = request.uri.query { collapsed += "?" + query }
            return Response(status: .permanentRedirect, headers: [.location: collapsed])
        }
        return try await next(request, context)
    }

    /// A request path made safe to send back as a Location: single slashes, and backslashes escaped,
    /// since a browser reads `//host/` and `/\host/` as links to another host.
    static func sameSiteLocation(_ path: String) -> String {
        var collapsed = "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        if path.hasSuffix("/"), collapsed != "/" { collapsed += "/" }
        return collapsed.replacingOccurrences(of: "\\", with: "%5C")
    }

    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}

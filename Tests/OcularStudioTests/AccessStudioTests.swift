import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import NIOCore
import Ocular
import OcularGallery
import Testing
@testable import OcularStudio

/// The studio belongs to the user who started it: other web pages (and, off loopback, other
/// machines without the token) can neither read nor change anything. Each test failed before the
/// access guard: every route answered any Host and Origin.
@Suite("Ocular Studio's access guard", .timeLimit(.minutes(1)))
struct AccessStudioTests {
    static func raw(_ port: Int, _ head: String) async throws -> String {
        try await RawConnection.exchange(port: port, sending: Array((head + "Connection: close\r\n\r\n").utf8), waitingAtMost: 10).response
    }

    /// A WebSocket handshake; the answer's head (a 101 keeps the connection open).
    /// - Parameter untilClosed: Read until the server closes (a refusal's body), not only the head.
    static func upgrade(_ port: Int, host: String, origin: String, untilClosed: Bool = false) async throws -> String {
        let head = "GET /api/stream HTTP/1.1\r\nHost: \(host)\r\nOrigin: \(origin)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        return try await RawConnection.exchange(port: port, sending: Array(head.utf8), waitingAtMost: 20, headOnly: !untilClosed).response
    }

    @Test("Host names: loopback, the bound address and --allow-host names pass; others, and none, do not")
    func hostNames() {
        let loopback = StudioAccess(boundHost: "127.0.0.1")
        for host in ["localhost", "localhost:8080", "127.0.0.1:8080", "127.3.4.5", "[::1]:8080", "app.localhost", "LOCALHOST.:80"] {
            #expect(loopback.refusal(ofHost: host) == nil, "\(host)")
        }
        for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "192.168.1.20:8080", "[::2]", "local host", "a:b:c"] {
            #expect(loopback.refusal(ofHost: host) != nil, "\(host)")
        }
        #expect(loopback.refusal(ofHost: nil) == "the request has no Host header")
        let named = StudioAccess(boundHost: "192.168.1.20", allowedHosts: ["studio.lan"])
        #expect(named.refusal(ofHost: "192.168.1.20:8080") == nil && named.refusal(ofHost: "Studio.LAN:8080") == nil)
        #expect(named.refusal(ofHost: "10.0.0.1") != nil)
        let everywhere = StudioAccess(boundHost: "0.0.0.0")
        #expect(everywhere.refusal(ofHost: "10.0.0.1:8080") == nil && everywhere.refusal(ofHost: "[fe80::1]") == nil)
        #expect(everywhere.refusal(ofHost: "rebound.example:8080") != nil, "a name is what DNS rebinding sends")
    }

    @Test("a token is made off loopback only, is random, and is compared whole")
    func tokens() {
        #expect(StudioAccess(boundHost: "127.0.0.1").token == nil)
        #expect(StudioAccess(boundHost: "localhost").token == nil)
        let first = StudioAccess(boundHost: "0.0.0.0"), second = StudioAccess(boundHost: "0.0.0.0")
        #expect(first.token?.count == 64 && first.token != second.token)
        let given = StudioAccess(boundHost: "::", token: "correct-horse-battery")
        #expect(given.accepts(token: "correct-horse-battery"))
        for wrong in [nil, "", "correct-horse-batter", "correct-horse-battery!", "Correct-horse-battery"] {
            #expect(!given.accepts(token: wrong), "\(wrong ?? "nil")")
        }
    }

    @Test("a foreign Host is refused 403 on pages, the API and the WebSocket; no Host is 400")
    func foreignHost() async throws {
        try await Studio.makeApplication(configuration: StudioConfiguration(port: 0)).test(.live) { client in
            let port = try #require(client.port)
            for path in ["/", "/light-work.html", "/api/gallery", "/api/health"] {
                let answer = try await Self.raw(port, "GET \(path) HTTP/1.1\r\nHost: rebound.example:\(port)\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 403"), "\(path): \(answer.prefix(60))")
                #expect(answer.contains("answers only to its own address"))
            }
            let upgrade = try await Self.upgrade(port, host: "rebound.example:\(port)", origin: "http://rebound.example:\(port)", untilClosed: true)
            #expect(upgrade.hasPrefix("HTTP/1.1 403"), "\(upgrade.prefix(60))")
            #expect(upgrade.contains(#"{"error":"this studio answers only to its own address, not to 'rebound.example'"#), "\(upgrade)")
            let deletion = try await Self.raw(port, "DELETE /api/gallery/1 HTTP/1.1\r\nHost: rebound.example\r\n")
            #expect(deletion.hasPrefix("HTTP/1.1 403"))
            let noHost = try await Self.raw(port, "GET /api/health HTTP/1.1\r\n")
            #expect(noHost.hasPrefix("HTTP/1.1 400"), "\(noHost.prefix(60))")
            let own = try await Self.raw(port, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
            #expect(own.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("another origin's WebSocket, upload and delete are refused 403; the studio's own origin passes")
    func foreignOrigin() async throws {
        let folder = NSTemporaryDirectory() + "ocular-access-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gallery = try Gallery(folder: folder)
        try gallery.save(try Image(width: 8, height: 8, format: .bgr8, filledWith: [1, 2, 3]), source: "test")
        let application = try Studio.makeApplication(configuration: StudioConfiguration(port: 0), gallery: gallery)
        try await application.test(.live) { client in
            let port = try #require(client.port)
            // The WebSocket from another page: refused before any message.
            for origin in ["http://evil.example", "null", "http://localhost:\(port + 1)", "https://localhost:\(port)"] {
                let answer = try await Self.upgrade(port, host: "localhost:\(port)", origin: origin)
                #expect(answer.hasPrefix("HTTP/1.1 403"), "\(origin): \(answer.prefix(60))")
            }
            // The studio's own page, and WebSocket libraries (which send ws://HOST).
            for origin in ["http://localhost:\(port)", "ws://localhost"] {
                let answer = try await Self.upgrade(port, host: "localhost:\(port)", origin: origin)
                #expect(answer.hasPrefix("HTTP/1.1 101"), "\(origin): \(answer.prefix(60))")
            }
            let deletion = try await Self.raw(port, "DELETE /api/gallery/1 HTTP/1.1\r\nHost: localhost:\(port)\r\nOrigin: http://evil.example\r\n")
            #expect(deletion.hasPrefix("HTTP/1.1 403"), "\(deletion.prefix(60))")
            let fetchSite = try await Self.raw(port, "DELETE /api/gallery/1 HTTP/1.1\r\nHost: localhost:\(port)\r\nSec-Fetch-Site: cross-site\r\n")
            #expect(fetchSite.hasPrefix("HTTP/1.1 403"))
            #expect(try gallery.count() == 1, "nothing was deleted")
            let upload = try await RawConnection.exchange(port: port, sending: Array(("POST /api/sources HTTP/1.1\r\nHost: localhost:\(port)\r\n"
                + "Origin: http://evil.example\r\nContent-Type: image/png\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd").utf8),
                waitingAtMost: 10).response
            #expect(upload.hasPrefix("HTTP/1.1 403"))
            let ownDeletion = try await Self.raw(port, "DELETE /api/gallery/1 HTTP/1.1\r\nHost: localhost:\(port)\r\n"
                + "Origin: http://localhost:\(port)\r\nSec-Fetch-Site: same-origin\r\n")
            #expect(ownDeletion.hasPrefix("HTTP/1.1 200"), "\(ownDeletion.prefix(60))")
        }
    }

    @Test("uploads must be typed as pictures: a form or text/plain body (what other pages may send unasked) is 415")
    func simpleContentTypes() async throws {
        try await Studio.makeApplication(configuration: StudioConfiguration(port: 0)).test(.router) { client in
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", nil] {
                let headers: HTTPFields = type.map { [.contentType: $0] } ?? [:]
                try await client.execute(uri: "/api/sources", method: .post, headers: headers, body: ByteBuffer(string: "x")) { response in
                    #expect(response.status == .unsupportedMediaType, "\(type ?? "no type")")
                }
            }
        }
    }

    @Test("every answer carries the security headers: pages, files, API errors and refusals")
    func securityHeaders() async throws {
        try await Studio.makeApplication(configuration: StudioConfiguration(port: 0)).test(.live) { client in
            let port = try #require(client.port)
            for (head, status) in [("GET / HTTP/1.1\r\nHost: localhost\r\n", "200"), ("GET /light-work.js HTTP/1.1\r\nHost: localhost\r\n", "200"),
                                   ("GET /api/gallery/x HTTP/1.1\r\nHost: localhost\r\n", "404"), ("GET / HTTP/1.1\r\nHost: evil.example\r\n", "403")] {
                let answer = try await Self.raw(port, head).lowercased()
                #expect(answer.hasPrefix("http/1.1 \(status)"), "\(head): \(answer.prefix(40))")
                #expect(answer.contains("content-security-policy: default-src 'self'; script-src 'self'"), "\(head)")
                #expect(answer.contains("frame-ancestors 'none'"))
                #expect(answer.contains("x-content-type-options: nosniff"))
                #expect(answer.contains("referrer-policy: no-referrer"))
            }
        }
    }

    @Test("off loopback every request needs the token: ?token= sets an HttpOnly SameSite=Strict cookie and redirects without it")
    func tokenOffLoopback() async throws {
        var configuration = StudioConfiguration(port: 0)
        configuration.access = StudioAccess(boundHost: "0.0.0.0", token: "sixteen-letters-token")
        try await Studio.makeApplication(configuration: configuration).test(.live) { client in
            let port = try #require(client.port)
            let host = "Host: 127.0.0.1:\(port)\r\n"
            let bare = try await Self.raw(port, "GET /api/gallery HTTP/1.1\r\n" + host)
            #expect(bare.hasPrefix("HTTP/1.1 401") && bare.contains("access token"), "\(bare.prefix(60))")
            let wrong = try await Self.raw(port, "GET /?token=guess HTTP/1.1\r\n" + host)
            #expect(wrong.hasPrefix("HTTP/1.1 401"))
            let exchanged = try await Self.raw(port, "GET /many-masks.html?token=sixteen-letters-token&x=1 HTTP/1.1\r\n" + host)
            #expect(exchanged.hasPrefix("HTTP/1.1 303"), "\(exchanged.prefix(60))")
            #expect(exchanged.lowercased().contains("location: /many-masks.html?x=1\r\n"))
            #expect(exchanged.contains("ocular-token=sixteen-letters-token; Path=/; HttpOnly; SameSite=Strict"))
            // Never off the studio: a protocol-relative path, or a backslash a browser reads as a slash.
            for (path, location) in [("//evil.example/", "/evil.example/"), ("/\\evil.example/", "/%5Cevil.example/"), ("///a//b", "/a/b")] {
                let answer = try await Self.raw(port, "GET \(path)?token=sixteen-letters-token HTTP/1.1\r\n" + host)
                #expect(answer.hasPrefix("HTTP/1.1 303") && answer.lowercased().contains("location: \(location.lowercased())\r\n"), "\(path): \(answer.prefix(200))")
            }
            let withCookie = try await Self.raw(port, "GET /api/health HTTP/1.1\r\n" + host + "Cookie: a=b; ocular-token=sixteen-letters-token\r\n")
            #expect(withCookie.hasPrefix("HTTP/1.1 200"))
            let withHeader = try await Self.raw(port, "GET /api/health HTTP/1.1\r\n" + host + "Authorization: token sixteen-letters-token\r\n")
            #expect(withHeader.hasPrefix("HTTP/1.1 200"))
            let upgrade = try await Self.upgrade(port, host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)")
            #expect(upgrade.hasPrefix("HTTP/1.1 401"), "\(upgrade.prefix(60))")
        }
    }
}

import Foundation
import OcularStudio

/// What `ocular studio` prints once it listens: the addresses (and a QR code) for a phone on the same
/// network, the certificate's fingerprint, why a phone would get no camera over plain HTTP, and last
/// the address to open here.
struct StudioAddressList {
    let configuration: StudioConfiguration
    let certificateNote: String?

    func announcement(port: Int, terminal: Bool) -> String {
        let scheme = configuration.scheme
        let host = configuration.host
        // The token travels in the address once; the page trades it for a cookie at once.
        let query = configuration.access.token.map { "?token=\($0)" } ?? ""
        let wildcard = StudioAccess.isWildcard(host)
        let here = wildcard ? "127.0.0.1" : host
        var lines: [String] = []
        let network = wildcard ? LocalAddresses.network() : (StudioAccess.isLoopback(host) ? [] : [host])
        if !network.isEmpty {
            let urls = network.map { Self.url(scheme, $0, port, query) }
            lines.append("On this network: " + urls.joined(separator: "  "))
            if scheme == "https", let code = try? QRCode(urls[0]) {
                lines.append("Scan it with a phone on the same network:")
                lines.append(code.terminalText(colours: terminal))
            }
            if scheme == "http" {
                lines.append("Note: other devices get no camera over plain http (browsers allow it only over https or on localhost); "
                             + "add --self-signed to serve https.")
            }
        }
        if let certificateNote { lines.append(certificateNote) }
        if let tls = configuration.tls {
            lines.append("Certificate SHA-256 fingerprint: \(tls.fingerprint)")
            if certificateNote != nil {
                lines.append("The browser warns once about the self-signed certificate: check that the fingerprint it shows is this one, then proceed.")
            }
        }
        // Last, so whatever waits for this line has read the rest.
        lines.append("Ocular Studio is running at \(Self.url(scheme, here, port, query))  (Ctrl-C stops it)")
        return lines.joined(separator: "\n")
    }

    static func url(_ scheme: String, _ host: String, _ port: Int, _ query: String) -> String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)/\(query)"
    }
}

import Foundation
internal import NIOCore

/// This machine's addresses on its networks: what a phone on the same Wi-Fi types (or scans).
public enum LocalAddresses {
    /// IPv4 addresses of interfaces that are up, loopback and link-local left out, in interface
    /// order (the first is usually the wired or Wi-Fi one).
    public static func network() -> [String] {
        guard let devices = try? System.enumerateDevices() else { return [] }
        var found: [String] = []
        for device in devices {
            guard case .v4(let address)? = device.address, let text = device.address?.ipAddress else { continue }
            let octets = withUnsafeBytes(of: address.address.sin_addr.s_addr) { Array($0) }
            // 127/8 is this machine, 169.254/16 is an interface that found no network.
            guard octets[0] != 127, !(octets[0] == 169 && octets[1] == 254), !found.contains(text) else { continue }
            found.append(text)
        }
        return found
    }

    /// The names and addresses a self-signed certificate of the studio should name: loopback, this
    /// machine's host name (and its .local form, which phones resolve by mDNS), and `network()`.
    public static func certificateNames(including host: String? = nil) -> [String] {
        var names = ["localhost", "127.0.0.1", "::1"]
        let hostName = ProcessInfo.processInfo.hostName
        if !hostName.isEmpty, hostName != "localhost", StudioAccess.hostName(of: hostName) != nil {
            names.append(hostName)
            if !hostName.contains(".") { names.append(hostName + ".local") }
        }
        names += network()
        if let host, !StudioAccess.isWildcard(host), !names.contains(host) { names.append(host) }
        return names
    }
}

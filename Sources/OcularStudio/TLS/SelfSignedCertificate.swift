internal import Crypto
import Foundation
import Ocular
internal import SwiftASN1
internal import X509

/// A self-signed certificate for the studio, made once and kept in the user's configuration folder
/// (`$XDG_CONFIG_HOME/ocular/tls`, else `~/.config/ocular/tls`), so a phone that was told to trust
/// it once keeps trusting it: the fingerprint stays the same from one start to the next.
///
/// It is made anew only when it cannot serve: missing or damaged, expiring within a month, or not
/// naming one of this machine's current addresses (a laptop that moved to another network).
public enum SelfSignedCertificate {
    static let certificateFileName = "studio-certificate.pem"
    static let keyFileName = "studio-key.pem"
    /// Browsers refuse server certificates valid for more than 398 days.
    static let validity: TimeInterval = 397 * 24 * 3600
    static let renewalMargin: TimeInterval = 30 * 24 * 3600

    /// Where the pair is kept.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let configuration = environment["XDG_CONFIG_HOME"], configuration.hasPrefix("/") {
            return configuration + "/ocular/tls"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/ocular/tls"
    }

    /// The kept pair when it covers `names`, else a new one written there first.
    /// - Parameters:
    ///   - folder: Where the pair is kept.
    ///   - names: DNS names and IP addresses the certificate must name.
    ///   - now: The time validity is judged at.
    /// - Returns: The pair, and whether it was made now.
    /// - Throws: ``StudioTLSError`` when the folder cannot be written.
    public static func load(folder: String = defaultFolder(), names: [String], now: Date = Date()) throws(StudioTLSError) -> (tls: StudioTLS, made: Bool) {
        let certificatePath = folder + "/" + certificateFileName
        let keyPath = folder + "/" + keyFileName
        if let kept = try? StudioTLS(certificateFile: certificatePath, keyFile: keyPath),
           Set(names).isSubset(of: Set(kept.names)), let leaf = try? Certificate(pemEncoded: kept.certificatePEM),
           leaf.notValidAfter.timeIntervalSince(now) > renewalMargin, leaf.notValidBefore <= now {
            return (kept, false)
        }
        let (certificatePEM, keyPEM) = try make(names: names, now: now)
        try write(certificatePEM: certificatePEM, keyPEM: keyPEM, folder: folder)
        return (try StudioTLS(certificatePEM: certificatePEM, privateKeyPEM: keyPEM, certificateName: certificatePath, keyName: keyPath), true)
    }

    /// A new P-256 key and a certificate for `names`, signed by itself, as PEM.
    static func make(names: [String], now: Date) throws(StudioTLSError) -> (certificate: String, key: String) {
        do {
            let key = P256.Signing.PrivateKey()
            let subject = try DistinguishedName {
                OrganizationName("Ocular Studio")
                CommonName("Ocular Studio on \(ProcessInfo.processInfo.hostName)")
            }
            let alternativeNames = SubjectAlternativeNames(names.map { name in
                if let bytes = addressBytes(name) { GeneralName.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes))) } else { GeneralName.dnsName(name) }
            })
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                alternativeNames
            }
            var serial = SystemRandomNumberGenerator()
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &serial) & 0x7F }),
                publicKey: .init(key.publicKey),
                notValidBefore: now.addingTimeInterval(-3600),  // a phone whose clock is a little behind
                notValidAfter: now.addingTimeInterval(validity),
                issuer: subject,
                subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: extensions,
                issuerPrivateKey: .init(key))
            return (try certificate.serializeAsPEM().pemString + "\n", key.pemRepresentation + "\n")
        } catch {
            throw .cannotMake(folder: "(memory)", reason: "\(error)")
        }
    }

    /// Writes the key readable by its owner alone, each file complete before it takes its name.
    static func write(certificatePEM: String, keyPEM: String, folder: String) throws(StudioTLSError) {
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotMake(folder: folder, reason: "cannot create the folder (\(FileAccess.reason(for: error)))")
        }
        for (name, text, mode) in [(keyFileName, keyPEM, 0o600), (certificateFileName, certificatePEM, 0o644)] {
            let path = folder + "/" + name
            let temporary = path + ".part"
            // A new file every time: a stale one (a FIFO, or a key left 0666 by an interrupted run) would
            // keep its own type and mode under O_TRUNC.
            unlink(temporary)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
            guard descriptor >= 0 else { throw .cannotMake(folder: folder, reason: "cannot write \(name): \(String(cString: strerror(errno)))") }
            // The umask may only take permissions away; the key's are exactly the owner's.
            fchmod(descriptor, mode_t(mode))
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            let synced = fsync(descriptor) == 0
            close(descriptor)
            guard written == bytes.count, synced, rename(temporary, path) == 0 else {
                unlink(temporary)
                throw .cannotMake(folder: folder, reason: "cannot write \(name): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The bytes of an IPv4 or IPv6 address in text, nil for a DNS name.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

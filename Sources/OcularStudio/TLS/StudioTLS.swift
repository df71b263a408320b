internal import Crypto
import Foundation
internal import NIOSSL
import Ocular
internal import SwiftASN1
internal import X509

/// The certificate and key Ocular Studio serves HTTPS (and WSS) with.
///
/// Browsers give the camera only to a secure context, so a phone on the same network needs HTTPS.
/// The pair is read and checked when the studio starts, so a damaged file, a key that
/// belongs to another certificate or a key the user may not read is one clear line before anything
/// listens, not a failed handshake in the browser later.
public struct StudioTLS: Sendable {
    /// The certificate chain, PEM, leaf first.
    public let certificatePEM: String
    /// The private key, PEM.
    public let privateKeyPEM: String
    /// SHA-256 of the leaf certificate's DER bytes, as colon-separated hex pairs (what browsers show).
    public let fingerprint: String
    /// Names and addresses the leaf certificate is valid for (its subject alternative names).
    public let names: [String]

    /// Reads and checks a PEM certificate (chain) and its PEM private key.
    /// - Throws: ``StudioTLSError`` naming the file and what is wrong with it.
    public init(certificateFile: String, keyFile: String) throws(StudioTLSError) {
        let certificateText = try Self.read(certificateFile, what: "certificate")
        let keyText = try Self.read(keyFile, what: "key")
        try self.init(certificatePEM: certificateText, privateKeyPEM: keyText, certificateName: certificateFile, keyName: keyFile)
    }

    /// Checks a PEM certificate (chain) and private key given as text; the names say where they came from.
    init(certificatePEM: String, privateKeyPEM: String, certificateName: String, keyName: String) throws(StudioTLSError) {
        let leaf: Certificate
        do {
            let documents = try PEMDocument.parseMultiple(pemString: certificatePEM).filter { $0.discriminator == "CERTIFICATE" }
            guard let first = documents.first else { throw StudioTLSError.damaged(file: certificateName, what: "certificate", reason: "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)") }
            do {
                leaf = try Certificate(derEncoded: first.derBytes)
            } catch {
                // Whole, but with a key TLS here does not take: say which, not "damaged".
                if let reason = Self.unsupportedKey(inCertificate: first.derBytes) {
                    throw StudioTLSError.unsupported(file: certificateName, reason: reason)
                }
                throw error
            }
        } catch let error as StudioTLSError {
            throw error
        } catch {
            throw .damaged(file: certificateName, what: "certificate", reason: "it is not a readable PEM certificate (cut off, or not DER inside)")
        }
        let key: Certificate.PrivateKey
        do {
            key = try Certificate.PrivateKey(pemEncoded: privateKeyPEM)
        } catch {
            throw .damaged(file: keyName, what: "key", reason: "it is not a readable PEM private key (RSA, EC or Ed25519)")
        }
        guard key.publicKey == leaf.publicKey else {
            throw .mismatched(certificate: certificateName, key: keyName)
        }
        // What NIOSSL (BoringSSL) will load must load now, not at the first connection.
        guard (try? NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))) != nil else {
            throw .damaged(file: certificateName, what: "certificate", reason: "BoringSSL cannot load it")
        }
        guard (try? NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)) != nil else {
            throw .damaged(file: keyName, what: "key", reason: "BoringSSL cannot load it (an encrypted key needs its passphrase removed)")
        }
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.fingerprint = Self.fingerprint(of: leaf)
        self.names = Self.subjectAlternativeNames(of: leaf)
        self.validity = leaf.notValidBefore...max(leaf.notValidBefore, leaf.notValidAfter)
    }

    /// When the leaf certificate is valid, from its first to its last moment.
    public let validity: ClosedRange<Date>

    /// Why browsers will refuse the certificate at `now` (expired, or not yet valid), nil when they will not for its dates.
    public func dateProblem(at now: Date = Date()) -> String? {
        let day = Date.ISO8601FormatStyle().year().month().day()
        if now > validity.upperBound { return "it expired on \(validity.upperBound.formatted(day)): browsers refuse it (renew it, or use --self-signed)" }
        if now < validity.lowerBound { return "it is valid only from \(validity.lowerBound.formatted(day)): browsers refuse it until then (check this machine's clock)" }
        return nil
    }

    /// Why a certificate that swift-certificates would not read holds a key this studio does not serve:
    /// an RSA key under 2048 bits, or an elliptic curve other than P-256, P-384 and P-521. Nil when its
    /// key is neither (it is then damaged some other way). Read from the DER's SubjectPublicKeyInfo.
    static func unsupportedKey(inCertificate der: [UInt8]) -> String? {
        func children(_ node: ASN1Node) -> [ASN1Node]? {
            if case .constructed(let nodes) = node.content { return Array(nodes) }
            return nil
        }
        guard let certificate = try? DER.parse(der), let tbs = children(certificate)?.first, let fields = children(tbs) else { return nil }
        // An explicit [0] version may come first; then serial, signature, issuer, validity, subject, the key.
        let offset = fields.first?.identifier.tagClass == .contextSpecific ? 1 : 0
        guard fields.count > offset + 5, let keyInfo = children(fields[offset + 5]), keyInfo.count == 2,
              let algorithm = children(keyInfo[0]), let algorithmNode = algorithm.first,
              let algorithmID = try? ASN1ObjectIdentifier(derEncoded: algorithmNode) else { return nil }
        let rsa: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1], ellipticCurve: ASN1ObjectIdentifier = [1, 2, 840, 10045, 2, 1]
        if algorithmID == rsa {
            guard let bits = try? ASN1BitString(derEncoded: keyInfo[1]), let publicKey = try? DER.parse(bits.bytes),
                  let modulusNode = children(publicKey)?.first, case .primitive(let modulus) = modulusNode.content else { return nil }
            let significant = modulus.drop { $0 == 0 }
            let size = significant.isEmpty ? 0 : significant.count * 8 - significant.first!.leadingZeroBitCount
            return size < 2048 ? "its key is RSA of \(size) bits, which is too weak to serve: use RSA of 2048 bits or more, or an EC key on P-256" : nil
        }
        if algorithmID == ellipticCurve, algorithm.count == 2, let curve = try? ASN1ObjectIdentifier(derEncoded: algorithm[1]) {
            let supported: [ASN1ObjectIdentifier] = [[1, 2, 840, 10045, 3, 1, 7], [1, 3, 132, 0, 34], [1, 3, 132, 0, 35]]
            guard !supported.contains(curve) else { return nil }
            let named: [ASN1ObjectIdentifier: String] = [[1, 3, 132, 0, 10]: "secp256k1", [1, 3, 36, 3, 3, 2, 8, 1, 1, 7]: "brainpoolP256r1",
                                                         [1, 3, 36, 3, 3, 2, 8, 1, 1, 11]: "brainpoolP384r1", [1, 3, 132, 0, 33]: "P-224"]
            return "its key is on the curve \(named[curve] ?? "with OID " + curve.description), which browsers do not take for TLS: use P-256, P-384 or P-521"
        }
        return nil
    }

    /// The server side of TLS: this pair, TLS 1.2 or newer, HTTP/1.1 offered by ALPN.
    func serverConfiguration() throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["http/1.1"]
        return configuration
    }

    static func fingerprint(of certificate: Certificate) -> String {
        var serializer = DER.Serializer()
        try? serializer.serialize(certificate)
        return SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    static func subjectAlternativeNames(of certificate: Certificate) -> [String] {
        guard let names = try? certificate.extensions.subjectAlternativeNames else { return [] }
        return names.compactMap { name in
            switch name {
            case .dnsName(let dns): dns
            case .ipAddress(let bytes): Self.addressText(Array(bytes.bytes))
            default: nil
            }
        }
    }

    static func addressText(_ bytes: [UInt8]) -> String? {
        switch bytes.count {
        case 4: return bytes.map(String.init).joined(separator: ".")
        case 16:
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return nil }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        default: return nil
        }
    }

    /// Reads a file, saying which one and why it cannot be read.
    static func read(_ path: String, what: String) throws(StudioTLSError) -> String {
        // O_NONBLOCK: a FIFO in the file's place must be refused, not waited on for a writer that never comes.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason: String
            switch errno {
            case EACCES, EPERM: reason = "permission denied"
            case ENOENT: reason = "no such file"
            case let code: reason = String(cString: strerror(code))
            }
            throw .unreadable(file: path, what: what, reason: reason)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(file: path, what: what, reason: String(cString: strerror(errno))) }
        if let kind = FileAccess.kind(of: status.st_mode) {
            throw .notAFile(file: path, what: what, kind: kind)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        // A certificate chain or key is a few kilobytes; a huge file is not one.
        guard let data = try? handle.read(upToCount: 1 << 20), let text = String(data: data, encoding: .utf8) else {
            throw .damaged(file: path, what: what, reason: "it is not PEM text")
        }
        return text
    }
}

/// Why the studio cannot serve HTTPS with the files it was given.
public enum StudioTLSError: CodedError, Equatable {
    case unreadable(file: String, what: String, reason: String)
    /// A whole certificate whose key this studio does not serve (too weak, or an unsupported curve).
    case unsupported(file: String, reason: String)
    /// A FIFO, device, socket or folder where a PEM file was expected.
    case notAFile(file: String, what: String, kind: String)
    case damaged(file: String, what: String, reason: String)
    case mismatched(certificate: String, key: String)
    case cannotMake(folder: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let what, let reason): "cannot read the TLS \(what) '\(file)': \(reason)"
        case .notAFile(let file, let what, let kind): "cannot read the TLS \(what) '\(file)': it is \(kind), not a file"
        case .unsupported(let file, let reason): "the TLS certificate '\(file)' is not supported: \(reason)"
        case .damaged(let file, let what, let reason): "the TLS \(what) '\(file)' is damaged: \(reason)"
        case .mismatched(let certificate, let key): "the TLS key '\(key)' does not belong to the certificate '\(certificate)' (their public keys differ)"
        case .cannotMake(let folder, let reason): "cannot keep a self-signed certificate in '\(folder)': \(reason)"
        }
    }

    public var code: ErrorCode {
        switch self {
        case .unreadable(_, _, let reason): ErrorCode("tls.unreadable", reason == "no such file" ? .notFound : .ioFailure)
        case .notAFile: ErrorCode("tls.notAFile", .badInput)
        case .unsupported: ErrorCode("tls.unsupported", .badInput)
        case .damaged: ErrorCode("tls.damaged", .badInput)
        case .mismatched: ErrorCode("tls.mismatched", .badInput)
        case .cannotMake: ErrorCode("tls.cannotMake", .ioFailure)
        }
    }
}

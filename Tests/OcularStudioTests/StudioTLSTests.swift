import Foundation
import Ocular
import Testing
import SwiftASN1
import X509
@testable import OcularStudio

@Suite("HTTPS and the phone's way in")
struct StudioTLSTests {
    /// The terminal picture read back into light and dark modules (half blocks, light painted, as
    /// printed without colours). Tests/browser/test_phone.py reads the printed code with a QR decoder.
    static func modules(ofTerminalText text: String) -> [[Bool]] {
        var dark: [[Bool]] = []
        for line in text.split(separator: "\n") {
            dark.append(line.map { !($0 == "█" || $0 == "▀") })
            dark.append(line.map { !($0 == "█" || $0 == "▄") })
        }
        return dark
    }

    @Test("the QR code's terminal picture is its modules inside a light quiet zone, in either colouring")
    func qrCodeTerminalPicture() throws {
        let address = "https://192.168.1.23:8080/?token=" + String(repeating: "0123456789abcdef", count: 4)
        let code = try QRCode(address)
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0, "a QR code has 17 + 4·version modules a side")
        // The three finder patterns: a dark 7×7 ring with a dark 3×3 centre, at three corners.
        for (left, top) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            for y in 0..<7 { for x in 0..<7 {
                let ring = x == 0 || y == 0 || x == 6 || y == 6, centre = (2...4).contains(x) && (2...4).contains(y)
                #expect(code.isDark(x: left + x, y: top + y) == (ring || centre))
            } }
        }
        let quiet = 2
        let picture = Self.modules(ofTerminalText: code.terminalText(quietZone: quiet, colours: false))
        for y in 0..<(code.size + 2 * quiet) {
            for x in 0..<(code.size + 2 * quiet) {
                #expect(picture[y][x] == code.isDark(x: x - quiet, y: y - quiet))
            }
        }
        // With colours the glyphs paint the dark modules: the same picture, inverted.
        let coloured = code.terminalText(quietZone: quiet, colours: true)
        #expect(coloured.hasPrefix("\u{1B}[30;107m"))
        let glyphs = coloured.replacingOccurrences(of: "\u{1B}[30;107m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        let inverted = String(glyphs.map { ["█": " ", " ": "█", "▀": "▄", "▄": "▀"][$0] ?? $0 })
        #expect(Array(Self.modules(ofTerminalText: inverted).prefix(code.size + 2 * quiet)) == Array(picture.prefix(code.size + 2 * quiet)))
        #expect(throws: QRCodeError.tooLong(8000)) { try QRCode(String(repeating: "x", count: 8000)) }
    }

    static func temporaryFolder() -> String {
        NSTemporaryDirectory() + "ocular-tls-" + UUID().uuidString
    }

    @Test("a self-signed pair is made once, kept with the key private, reused, and made anew for a new address")
    func selfSignedIsKept() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names = ["localhost", "127.0.0.1", "::1", "192.0.2.77"]
        let (first, made) = try SelfSignedCertificate.load(folder: folder, names: names)
        #expect(made)
        #expect(Set(first.names) == Set(names))
        #expect(first.fingerprint.count == 32 * 3 - 1 && first.fingerprint.allSatisfy { $0.isHexDigit || $0 == ":" })
        let keyMode = try FileManager.default.attributesOfItem(atPath: folder + "/studio-key.pem")[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: folder + "/studio-key.pem.part"))
        let (again, madeAgain) = try SelfSignedCertificate.load(folder: folder, names: ["127.0.0.1"])
        #expect(!madeAgain && again.fingerprint == first.fingerprint, "a subset of its names: the kept one")
        let (moved, madeForMove) = try SelfSignedCertificate.load(folder: folder, names: names + ["10.0.0.9"])
        #expect(madeForMove && moved.fingerprint != first.fingerprint && moved.names.contains("10.0.0.9"))
        let (late, madeLate) = try SelfSignedCertificate.load(folder: folder, names: ["127.0.0.1"], now: Date().addingTimeInterval(380 * 24 * 3600))
        #expect(madeLate && late.fingerprint != moved.fingerprint, "within a month of expiry it is renewed")
        // The kept files are a pair the studio reads like any other.
        let read = try StudioTLS(certificateFile: folder + "/studio-certificate.pem", keyFile: folder + "/studio-key.pem")
        #expect(read.fingerprint == late.fingerprint)
        #expect(throws: Never.self) { _ = try read.serverConfiguration() }
    }

    @Test("a FIFO as the certificate, the key, or where the self-signed pair is kept is refused or replaced at once, never waited on")
    func fifosAreNotWaitedOn() throws {
        let folder = Self.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (pair, _) = try SelfSignedCertificate.load(folder: folder + "/kept", names: ["localhost"])
        let certificate = folder + "/cert.pem", key = folder + "/key.pem", pipe = folder + "/pipe.pem"
        try pair.certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
        try pair.privateKeyPEM.write(toFile: key, atomically: true, encoding: .utf8)
        #expect(mkfifo(pipe, 0o600) == 0)
        #expect(throws: StudioTLSError.notAFile(file: pipe, what: "certificate", kind: "a FIFO (named pipe)")) {
            try StudioTLS(certificateFile: pipe, keyFile: key)
        }
        #expect(throws: StudioTLSError.notAFile(file: pipe, what: "key", kind: "a FIFO (named pipe)")) {
            try StudioTLS(certificateFile: certificate, keyFile: pipe)
        }
        #expect(throws: StudioTLSError.notAFile(file: folder, what: "key", kind: "a directory")) {
            try StudioTLS(certificateFile: certificate, keyFile: folder)
        }
        // The self-signed pair's own places taken by FIFOs, and a stale key part left world-writable:
        // a new pair is made, and its key is the owner's alone.
        let kept = folder + "/fifos"
        try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
        for name in [SelfSignedCertificate.certificateFileName, SelfSignedCertificate.keyFileName] { #expect(mkfifo(kept + "/" + name, 0o600) == 0) }
        let stale = kept + "/" + SelfSignedCertificate.keyFileName + ".part"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data("old".utf8)))
        #expect(chmod(stale, 0o666) == 0)
        let (made, isNew) = try SelfSignedCertificate.load(folder: kept, names: ["localhost"])
        #expect(isNew && made.names == ["localhost"])
        var status = stat()
        #expect(lstat(kept + "/" + SelfSignedCertificate.keyFileName, &status) == 0)
        #expect((status.st_mode & S_IFMT) == S_IFREG && (status.st_mode & 0o777) == 0o600, "mode \(String(status.st_mode & 0o777, radix: 8))")
        #expect(lstat(kept + "/" + SelfSignedCertificate.certificateFileName, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/tls").path

    @Test("a whole certificate with a key TLS here does not serve (RSA-1024, secp256k1) is called unsupported with its key, not damaged")
    func unsupportedKeys() throws {
        for (name, reason) in [("rsa1024", "its key is RSA of 1024 bits, which is too weak to serve: use RSA of 2048 bits or more, or an EC key on P-256"),
                               ("secp256k1", "its key is on the curve secp256k1, which browsers do not take for TLS: use P-256, P-384 or P-521")] {
            let certificate = Self.fixtures + "/\(name)-cert.pem", key = Self.fixtures + "/\(name)-key.pem"
            #expect(throws: StudioTLSError.unsupported(file: certificate, reason: reason)) {
                try StudioTLS(certificateFile: certificate, keyFile: key)
            }
        }
        // A P-256 pair of Ocular's own is supported.
        let (certificate, key) = try SelfSignedCertificate.make(names: ["localhost"], now: Date())
        let der = try #require(try PEMDocument(pemString: certificate).derBytes as [UInt8]?)
        #expect(StudioTLS.unsupportedKey(inCertificate: der) == nil)
        _ = try StudioTLS(certificatePEM: certificate, privateKeyPEM: key, certificateName: "c", keyName: "k")
    }

    @Test("plain HTTP sent to the HTTPS port is answered 400 naming the https:// address (it got 0 bytes); HTTPS is served")
    func plainHTTPOnTheHTTPSPort() async throws {
        var configuration = StudioConfiguration(port: 0)
        let (certificate, key) = try SelfSignedCertificate.make(names: ["localhost", "127.0.0.1"], now: Date())
        configuration.tls = try StudioTLS(certificatePEM: certificate, privateKeyPEM: key, certificateName: "c", keyName: "k")
        try await Studio.makeApplication(configuration: configuration).test(.live) { client in
            let port = try #require(client.port)
            let plain = try await RawConnection.exchange(port: port, sending: Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8),
                                                         waitingAtMost: 10)
            #expect(plain.response.hasPrefix("HTTP/1.1 400 Bad Request"), "\(plain.response)")
            #expect(plain.response.contains("open https://127.0.0.1:\(port)/ (https://, not http://)"), "\(plain.response)")
            #expect(plain.closedByServer)
            // A TLS client still gets its handshake: a ClientHello is answered with TLS records (0x16), not text.
            // On a thread of its own: blocking one of the cooperative pool's two would starve the server under test.
            let status = await withCheckedContinuation { continuation in
                Thread {
                    let curl = Process()
                    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                    curl.arguments = ["-sk", "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(port)/api/health"]
                    let output = Pipe()
                    curl.standardOutput = output
                    guard (try? curl.run()) != nil else { return continuation.resume(returning: "curl did not run") }
                    let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    curl.waitUntilExit()
                    continuation.resume(returning: status)
                }.start()
            }
            #expect(status == "200")
        }
    }

    @Test("an expired or not yet valid certificate is told by its dates")
    func certificateDates() throws {
        let made = Date(timeIntervalSince1970: 1_600_000_000)  // 2020-09-13
        let (certificate, key) = try SelfSignedCertificate.make(names: ["localhost"], now: made)
        let tls = try StudioTLS(certificatePEM: certificate, privateKeyPEM: key, certificateName: "old.pem", keyName: "old-key.pem")
        #expect(tls.dateProblem(at: made) == nil)
        let expiry = tls.validity.upperBound.formatted(Date.ISO8601FormatStyle().year().month().day())
        #expect(tls.dateProblem(at: tls.validity.upperBound.addingTimeInterval(86400))
            == "it expired on \(expiry): browsers refuse it (renew it, or use --self-signed)")
        #expect(tls.dateProblem(at: made.addingTimeInterval(-2 * 86400))?.hasPrefix("it is valid only from 2020-09-1") == true)
    }

    @Test("damaged, mismatched, missing and cut-off pairs are refused with what and why")
    func badPairs() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let one = try SelfSignedCertificate.make(names: ["localhost"], now: Date())
        let other = try SelfSignedCertificate.make(names: ["localhost"], now: Date())
        #expect(throws: StudioTLSError.mismatched(certificate: "c", key: "k")) {
            try StudioTLS(certificatePEM: one.certificate, privateKeyPEM: other.key, certificateName: "c", keyName: "k")
        }
        #expect(throws: StudioTLSError.self) {
            try StudioTLS(certificatePEM: String(one.certificate.prefix(200)), privateKeyPEM: one.key, certificateName: "c", keyName: "k")
        }
        #expect(throws: StudioTLSError.damaged(file: "k", what: "key", reason: "it is not a readable PEM private key (RSA, EC or Ed25519)")) {
            try StudioTLS(certificatePEM: one.certificate, privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
                          certificateName: "c", keyName: "k")
        }
        #expect(throws: StudioTLSError.unreadable(file: folder + "/none.pem", what: "certificate", reason: "no such file")) {
            try StudioTLS(certificateFile: folder + "/none.pem", keyFile: folder + "/none.key")
        }
        let error = StudioTLSError.mismatched(certificate: "c.pem", key: "k.pem")
        #expect(error.description == "the TLS key 'k.pem' does not belong to the certificate 'c.pem' (their public keys differ)")
        #expect(error.code.kind == .badInput)
    }

    @Test("the key check reads damaged certificates' DER without a crash: each answer is nil or a reason (deterministic mutations)")
    func mutatedKeyInfo() throws {
        var generator = SeededGenerator(seed: 1024)
        var reasons = 0, none = 0
        for name in ["rsa1024", "secp256k1"] {
            let pem = try String(contentsOfFile: Self.fixtures + "/\(name)-cert.pem", encoding: .utf8)
            let der = try PEMDocument(pemString: pem).derBytes
            #expect(StudioTLS.unsupportedKey(inCertificate: der) != nil)
            for round in 0..<400 {
                var bytes = der
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch round % 3 {
                case 0: bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                case 1: bytes[position] = [0x00, 0x7F, 0x80, 0x81, 0x84, 0xFF].randomElement(using: &generator)!  // forged lengths
                default: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...64, using: &generator)))
                }
                if let reason = StudioTLS.unsupportedKey(inCertificate: bytes) {
                    reasons += 1
                    #expect(reason.hasPrefix("its key is "), "\(reason)")
                } else {
                    none += 1
                }
            }
        }
        #expect(reasons >= 100 && none >= 100, "\(reasons) reasons, \(none) none")
    }

    @Test("damaged PEM certificates and keys are refused with a StudioTLSError, never a crash (deterministic mutations)")
    func mutatedPairs() throws {
        let pair = try SelfSignedCertificate.make(names: ["localhost", "127.0.0.1"], now: Date())
        let original = try StudioTLS(certificatePEM: pair.certificate, privateKeyPEM: pair.key, certificateName: "c", keyName: "k").fingerprint
        var generator = SeededGenerator(seed: 443)
        var refused = 0, accepted = 0
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-\n ")
        for round in 0..<800 {
            let mutateKey = round.isMultiple(of: 2)
            var characters = Array(mutateKey ? pair.key : pair.certificate)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<characters.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: characters[position] = alphabet.randomElement(using: &generator)!
                case 1: characters.removeSubrange(position..<min(characters.count, position + Int.random(in: 1...40, using: &generator)))
                default: characters.insert(contentsOf: Array(repeating: alphabet.randomElement(using: &generator)!, count: Int.random(in: 1...8, using: &generator)), at: position)
                }
                if characters.isEmpty { characters = ["-"] }
            }
            let text = String(characters)
            let result = Result { () throws(StudioTLSError) in
                try StudioTLS(certificatePEM: mutateKey ? pair.certificate : text, privateKeyPEM: mutateKey ? text : pair.key,
                              certificateName: "c.pem", keyName: "k.pem")
            }
            switch result {
            case .success(let tls):
                // Accepted only when what changed leaves a certificate that parses, whose public key is
                // still the key's (a changed signature or name can); a key that still loads is the key.
                accepted += 1
                if mutateKey { #expect(tls.fingerprint == original) }
                #expect(try Certificate(pemEncoded: tls.certificatePEM).publicKey == Certificate.PrivateKey(pemEncoded: tls.privateKeyPEM).publicKey)
            case .failure(let error):
                refused += 1
                #expect(error.description.contains(mutateKey ? "'k.pem'" : "'c.pem'"), "\(error)")
            }
        }
        #expect(refused >= 600, "\(refused) refused, \(accepted) accepted")
    }
}

import Foundation
import Testing

@Suite("ocular studio over HTTPS")
struct StudioTLSCLITests {
    /// A pair made the way `--self-signed` makes it, in `folder`'s configuration folder.
    static func makePair(in folder: Folder) throws -> (certificate: String, key: String) {
        let environment = ["XDG_CONFIG_HOME": folder.file("config")]
        let printed = try studioAnnouncement(["--self-signed", "--gallery", folder.file("gallery")], environment: environment)
        #expect(printed.contains("https://127.0.0.1:"))
        return (folder.file("config/ocular/tls/studio-certificate.pem"), folder.file("config/ocular/tls/studio-key.pem"))
    }

    /// Starts `ocular studio` on a free port, returns everything it printed once it listens, stops it.
    static func studioAnnouncement(_ arguments: [String], environment: [String: String]) throws -> String {
        try withStudio(["--port", "0"] + arguments, environment: environment) { $0 }
    }

    @Test("--self-signed makes a pair once in the configuration folder, prints its fingerprint, and keeps it")
    func selfSigned() throws {
        let folder = try Folder()
        let environment = ["XDG_CONFIG_HOME": folder.file("config")]
        let arguments = ["--host", "0.0.0.0", "--self-signed", "--gallery", folder.file("gallery")]
        let first = try Self.studioAnnouncement(arguments, environment: environment)
        #expect(first.contains(#/Ocular Studio is running at https://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64} /#), "\(first)")
        #expect(first.contains("Made a self-signed certificate in \(folder.file("config"))/ocular/tls for localhost, 127.0.0.1, ::1"))
        let fingerprint = try #require(first.firstMatch(of: #/fingerprint: ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})/#)?.1)
        let second = try Self.studioAnnouncement(arguments, environment: environment)
        #expect(second.contains("Using the self-signed certificate") && second.contains(String(fingerprint)), "kept: the phone's trust holds")
        #expect(!FileManager.default.fileExists(atPath: folder.file("gallery/studio-key.pem")), "nothing beside the gallery")
    }

    @Test("a damaged, mismatched, missing or unreadable certificate or key is one line and a failing status")
    func badPairs() throws {
        let folder = try Folder()
        let pair = try Self.makePair(in: folder)
        let otherFolder = try Folder()
        let other = try Self.makePair(in: otherFolder)
        let damaged = folder.file("damaged.pem")
        try "not a certificate\n".write(toFile: damaged, atomically: true, encoding: .utf8)
        let cut = folder.file("cut.pem")
        try String(try String(contentsOfFile: pair.certificate, encoding: .utf8).prefix(300)).write(toFile: cut, atomically: true, encoding: .utf8)
        let gallery = ["--gallery", folder.file("gallery")]
        func studio(_ arguments: String...) throws -> Run { try ocular(["studio", "--port", "0"] + arguments + gallery) }

        let mismatched = try studio("--tls-cert", pair.certificate, "--tls-key", other.key)
        expectCleanFailure(mismatched, mentioning: "the TLS key '\(other.key)' does not belong to the certificate '\(pair.certificate)'")
        #expect(mismatched.status == 65 && mismatched.errors.split(separator: "\n").count == 1, "\(mismatched.errors)")
        expectCleanFailure(try studio("--tls-cert", damaged, "--tls-key", pair.key), mentioning: "the TLS certificate '\(damaged)' is damaged: it holds no PEM certificate")
        expectCleanFailure(try studio("--tls-cert", cut, "--tls-key", pair.key), mentioning: "the TLS certificate '\(cut)' is damaged")
        expectCleanFailure(try studio("--tls-cert", pair.certificate, "--tls-key", damaged), mentioning: "the TLS key '\(damaged)' is damaged")
        let missing = try studio("--tls-cert", folder.file("none.pem"), "--tls-key", pair.key)
        expectCleanFailure(missing, mentioning: "cannot read the TLS certificate '\(folder.file("none.pem"))': no such file")
        #expect(missing.status == 66)
        // A FIFO is refused by its type at once (the start hung on it forever).
        let pipe = folder.file("pipe.pem")
        #expect(mkfifo(pipe, 0o600) == 0)
        let fromPipe = try studio("--tls-cert", pipe, "--tls-key", pair.key)
        expectCleanFailure(fromPipe, mentioning: "cannot read the TLS certificate '\(pipe)': it is a FIFO (named pipe), not a file")
        #expect(fromPipe.status == 65)
        expectCleanFailure(try studio("--tls-cert", pair.certificate, "--tls-key", pipe), mentioning: "cannot read the TLS key '\(pipe)': it is a FIFO")
        expectCleanFailure(try studio("--tls-cert", pair.certificate), mentioning: "--tls-cert needs --tls-key")
        expectCleanFailure(try studio("--self-signed", "--tls-cert", pair.certificate, "--tls-key", pair.key), mentioning: "give one")
        withExtendedLifetime(otherFolder) {}
    }

    @Test("an expired certificate is served with a warning naming its date (it was served without a word)")
    func expiredCertificateWarned() throws {
        let folder = try Folder()
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/tls").path
        let studio = try RunningStudio(["--port", "0", "--tls-cert", fixtures + "/expired-cert.pem", "--tls-key", fixtures + "/expired-key.pem",
                                        "--gallery", folder.file("gallery")], keepingErrors: true)
        studio.end(with: SIGTERM)
        let warned = studio.errorsWritten
        #expect(studio.printed.contains("running at https://"), "\(studio.printed)")
        #expect(warned.contains("Warning: the TLS certificate '\(fixtures)/expired-cert.pem': it expired on 2021-01-01: browsers refuse it"), "\(warned)")
    }

    /// Root reads every file, so the test runs the studio as nobody; that needs the executable to be
    /// reachable by nobody (a clone under /root is not).
    static let canTestPermissions: Bool = {
        guard getuid() == 0 else { return true }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        probe.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", ocularExecutable, "--version"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test("a key the user may not read is refused by name", .enabled(if: canTestPermissions, "root here, and nobody cannot run the built executable"))
    func unreadableKey() throws {
        let folder = try Folder()
        let pair = try Self.makePair(in: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: pair.key)
        var arguments = [ocularExecutable, "studio", "--port", "0", "--tls-cert", pair.certificate, "--tls-key", pair.key, "--gallery", folder.file("gallery")]
        // Root reads every file: drop to nobody, who may run the executable but not read the key.
        if getuid() == 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.file("config/ocular/tls"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.file("config/ocular"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.file("config"))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pair.certificate)
            arguments = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + arguments
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        expectCleanFailure(Run(status: process.terminationStatus, output: "", errors: text),
                           mentioning: "cannot read the TLS key '\(pair.key)': permission denied")
        #expect(process.terminationStatus == 74)
    }

    @Test("a second HTTPS studio on a taken port says the port is in use")
    func portInUse() throws {
        let folder = try Folder()
        let environment = ["XDG_CONFIG_HOME": folder.file("config")]
        let port = Int.random(in: 20000...40000)
        let printed = try Self.studioAnnouncement(["--self-signed", "--gallery", folder.file("g1")], environment: environment)
        #expect(printed.contains("https://"))
        // The first studio has stopped; hold the port with a second one while a third tries it.
        try withStudio(["--port", String(port), "--gallery", folder.file("g2")]) { _ in
            let run = try ocular(["studio", "--port", String(port), "--self-signed", "--gallery", folder.file("g3")], environment: environment)
            expectCleanFailure(run, mentioning: "cannot listen on 127.0.0.1:\(port): the port is in use")
            #expect(run.status == 69 && run.errors.split(separator: "\n").count == 1)
        }
    }
}

import ArgumentParser
import Foundation
import Logging
import Ocular
import OcularStudio

struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Serve Ocular Studio: the browser's camera, processed live by this server.",
        discussion: """
            Open the printed address in a browser. The page asks for the camera; with none, or when \
            permission is refused, it streams a built-in still image instead. Browsers give the camera \
            only to https pages or to localhost, so for a phone on the same network serve HTTPS: \
            `ocular studio --host 0.0.0.0 --self-signed` prints the address and a QR code of it, and \
            the certificate's fingerprint to compare with what the phone shows.
            """)

    /// The studio's defaults live in its configuration; the options start from them.
    private static let defaults = StudioConfiguration()

    @Option(help: "Address to listen on; 0.0.0.0 listens on every network interface.")
    var host = Self.defaults.host

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = Self.defaults.port

    @Option(help: "Largest frame accepted, in megabytes.")
    var maxFrameMegabytes = Self.defaults.maxFrameBytes >> 20

    @Option(help: "JPEG quality of processed frames, 1 to 100.")
    var quality = Self.defaults.jpegQuality

    @Option(name: .customLong("public"), help: "Serve the web app from this folder instead of the built-in one.")
    var publicFolder: String?

    @Option(name: .customLong("gallery"), help: ArgumentHelp("The gallery's folder, where Save puts frames (default: $XDG_DATA_HOME/ocular or ~/.local/share/ocular).",
                                                             valueName: "folder"))
    var galleryFolder: String?

    @Option(help: ArgumentHelp("The Bean Counter's training list, JSON or property list (default: the demo coins and beans).",
                               valueName: "file"))
    var training: String?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("Another name this studio may be reached by (the Host header); repeatable. Loopback names and the bound address are always allowed.",
                                                                valueName: "name"))
    var allowedHosts: [String] = []

    @Option(help: ArgumentHelp("The access token required when listening off loopback (default: a random one, printed in the address).",
                               valueName: "token"))
    var token: String?

    @Option(help: "Saves are refused once the gallery's files take this many megabytes.")
    var galleryQuotaMegabytes = Int(Self.defaults.galleryQuotaBytes >> 20)

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this PEM certificate (chain); needs --tls-key.", valueName: "file"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Flag(help: ArgumentHelp("Serve HTTPS with a self-signed certificate for localhost and this machine's addresses, made once and kept in $XDG_CONFIG_HOME/ocular/tls (or ~/.config/ocular/tls)."))
    var selfSigned = false

    @Flag(help: "Keep the frame size and JPEG quality at their best whatever the link holds (by default a slow link gets smaller frames so the rate keeps up).")
    var fixedQuality = false

    @Option(help: "Longest recording a page may make, in seconds (its recorder stops there; the server refuses longer clips).")
    var maxRecordingSeconds = Int(Self.defaults.maxRecordingSeconds)

    @Option(help: "Largest recorded clip accepted, in megabytes.")
    var maxClipMegabytes = Self.defaults.maxClipBytes >> 20

    @Option(help: "Most processing one stream frame may cost, in seconds: a heavier frame (a huge one, a heavy recipe) is processed shrunk to fit.")
    var maxFrameSeconds = Self.defaults.maxFrameWorkSeconds

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .notice

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be from 1 to 100, got \(quality)") }
        guard (1...30).contains(maxFrameMegabytes) else { throw ValidationError("--max-frame-megabytes must be from 1 to 30") }
        guard (1...(24 * 3600)).contains(maxRecordingSeconds) else { throw ValidationError("--max-recording-seconds must be from 1 to 86400, got \(maxRecordingSeconds)") }
        guard maxFrameSeconds.isFinite, (0.01...60).contains(maxFrameSeconds) else { throw ValidationError("--max-frame-seconds must be from 0.01 to 60, got \(maxFrameSeconds)") }
        guard (1...(1 << 20)).contains(maxClipMegabytes) else { throw ValidationError("--max-clip-megabytes must be from 1 to 1048576, got \(maxClipMegabytes)") }
        guard (1...(1 << 30)).contains(galleryQuotaMegabytes) else { throw ValidationError("--gallery-quota-megabytes must be from 1 to 1073741824") }
        if let token {
            guard token.count >= 16, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) else {
                throw ValidationError("--token must be at least 16 letters, digits or - _ . ~")
            }
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError(tlsCertificate == nil ? "--tls-key needs --tls-cert, the certificate it belongs to" : "--tls-cert needs --tls-key, its private key")
        }
        if selfSigned, tlsCertificate != nil {
            throw ValidationError("--self-signed and --tls-cert both choose the certificate; give one")
        }
        for name in allowedHosts where StudioAccess.hostName(of: name) == nil {
            throw ValidationError("--allow-host '\(name)' is not a host name")
        }
    }

    func run() async throws {
        var logger = Logger(label: "ocular.studio")
        logger.logLevel = logLevel
        var configuration = StudioConfiguration(
            host: host, port: port, maxFrameBytes: maxFrameMegabytes << 20, jpegQuality: quality, publicFolder: publicFolder,
            galleryFolder: galleryFolder, trainingList: training, allowedHosts: allowedHosts, token: token,
            galleryQuotaBytes: Int64(galleryQuotaMegabytes) << 20)
        // A list that cannot be read is said now, not only on the Bean Counter page.
        if let training { _ = try TrainingList(contentsOfFile: training) }
        configuration.adaptsToLink = !fixedQuality
        configuration.maxRecordingSeconds = Double(maxRecordingSeconds)
        configuration.maxFrameWorkSeconds = maxFrameSeconds
        configuration.maxClipBytes = maxClipMegabytes << 20
        var certificateNote: String?
        if let tlsCertificate, let tlsKey {
            let tls = try StudioTLS(certificateFile: tlsCertificate, keyFile: tlsKey)
            if let problem = tls.dateProblem() {
                FileHandle.standardError.write(Data("Warning: the TLS certificate '\(tlsCertificate)': \(problem)\n".utf8))
            }
            configuration.tls = tls
        } else if selfSigned {
            let folder = SelfSignedCertificate.defaultFolder()
            let (tls, made) = try SelfSignedCertificate.load(folder: folder, names: LocalAddresses.certificateNames(including: host))
            configuration.tls = tls
            certificateNote = "\(made ? "Made a self-signed certificate" : "Using the self-signed certificate") in \(folder) for \(tls.names.joined(separator: ", "))."
        }
        let addresses = StudioAddressList(configuration: configuration, certificateNote: certificateNote)
        try await Studio.run(configuration: configuration, logger: logger) { port in
            print(addresses.announcement(port: port, terminal: isatty(STDOUT_FILENO) == 1))
            fflush(nil)  // the address must reach a pipe or log right away, not when the buffer fills
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

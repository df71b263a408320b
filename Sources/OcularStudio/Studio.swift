import Foundation
import Hummingbird
internal import HummingbirdCore
internal import HummingbirdTLS
internal import HummingbirdWebSocket
import Logging
internal import NIOCore
internal import NIOPosix
internal import NIOSSL
import Ocular
import OcularGallery

/// Ocular Studio: the web app in which a browser's camera streams frames to the server and gets them
/// back processed.
///
/// Routes, one controller per resource: the pages' files at `/` (``FileMiddleware``; the root page and
/// the pages' former addresses by ``PageAddressMiddleware``),
/// `GET /api/health` (``HealthController``), `GET /api/pages.js` (``PagesController``), `GET /api/protocol.js` (``ProtocolController``), `POST /api/sources` (``SourcesController``), `/api/gallery`
/// (``GalleryController``), `POST /api/gallery/clips` (``ClipsController``), `GET /api/bean-counter` (``BeanCounterController``), and the WebSocket
/// `/api/stream` (``StreamController``).
/// Connections must send their request head in time and stay within the header size limit; idle
/// keep-alive connections are closed (see ``StudioConfiguration``).
public enum Studio {
    /// Builds the studio application, ready to run.
    /// - Parameters:
    ///   - configuration: Address, limits and encoding settings.
    ///   - registry: The stages clients may use.
    ///   - gallery: Where saves go; when nil, the gallery in the configuration's folder, opened on
    ///     first use.
    ///   - logger: Where the server logs.
    ///   - onServerRunning: Called with the bound port once the server listens (useful with port 0).
    /// - Throws: ``StudioError`` when the web app's files cannot be found.
    public static func makeApplication(
        configuration: StudioConfiguration = StudioConfiguration(),
        registry: StageRegistry = .standard,
        gallery: Gallery? = nil,
        logger: Logger = Logger(label: "ocular.studio"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(StudioError) -> some ApplicationProtocol {
        try makeApplication(configuration: configuration, registry: registry, actions: .standard, gallery: gallery, logger: logger,
                            onServerRunning: onServerRunning)
    }

    /// Builds the studio application with the page actions of `actions` (tests add their own).
    static func makeApplication(
        configuration: StudioConfiguration,
        registry: StageRegistry,
        actions: PageActionRegistry,
        gallery: Gallery?,
        logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) throws(StudioError) -> some ApplicationProtocol {
        let publicFolder: String
        if let folder = configuration.publicFolder {
            publicFolder = folder
        } else {
            publicFolder = try StudioResources.publicFolder()
        }
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: AccessGuardMiddleware(access: configuration.access))
        router.add(middleware: RequestPathMiddleware())
        router.add(middleware: PageAddressMiddleware())
        router.add(middleware: FileMiddleware(publicFolder, cacheControl: .init([(MediaType(type: .any), [.noCache])]),
                                              searchForIndexHtml: true, logger: logger))
        let sources = UploadedSources(capacity: configuration.maxSources, byteLimit: configuration.maxSourcePixelBytes)
        let studioGallery = gallery.map(StudioGallery.init) ?? StudioGallery(folder: configuration.galleryFolder)
        // The shipped training list lies beside the web app, not in it; its model goes to the cache folder.
        let trainingList: String
        if let chosen = configuration.trainingList {
            trainingList = chosen
        } else {
            trainingList = try StudioResources.trainingList()
        }
        let beanCounter = BeanCounter(trainingList: trainingList)
        let pictures = StudioPictures(uploads: sources, gallery: studioGallery,
                                      readOptions: ImageReadOptions(pixelLimit: configuration.maxFramePixels), beanCounter: beanCounter)
        let stream = StreamController(configuration: configuration, registry: registry, actions: actions, images: pictures, gallery: studioGallery,
                                      beanCounter: beanCounter)
        HealthController(activity: stream.activity).addRoutes(to: router)
        PagesController().addRoutes(to: router)
        ProtocolController(actions: actions).addRoutes(to: router)
        BeanCounterController(beanCounter: beanCounter).addRoutes(to: router)
        SourcesController(configuration: configuration, sources: sources).addRoutes(to: router)
        let converter = ClipConverter.make(configuration: configuration, logger: logger)
        // Conversions a stopped studio left undone (its FFmpeg ended with it) are made again.
        if let converter, let gallery { converter.enqueueUnconverted(in: gallery) }
        GalleryController(gallery: studioGallery, converter: converter).addRoutes(to: router)
        ClipsController(configuration: configuration, registry: registry, gallery: studioGallery, converter: converter).addRoutes(to: router)
        stream.addRoutes(to: router)

        let webSocketRouter = Router(context: StreamRequestContext.self)
        // A refused upgrade falls through to `router`, whose guard answers the status.
        webSocketRouter.add(middleware: AccessGuardMiddleware(access: configuration.access))
        stream.addRoutes(to: webSocketRouter)
        let webSocketResponder = webSocketRouter.buildResponder()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: .init(configuration.idleTimeout),
                         httpDecoderConfiguration: .init(maxHeaderFieldSize: configuration.maxHeaderBytes,
                                                         maxHeaderListSize: configuration.maxHeaderBytes)),
            ws: .init(maxFrameSize: configuration.maxMessageBytes))
        let requestHeadTimeout = TimeAmount(configuration.requestHeadTimeout)
        let tlsConfiguration: TLSConfiguration?
        do {
            tlsConfiguration = try configuration.tls?.serverConfiguration()
        } catch {
            throw .unusableTLS("\(error)")
        }
        let server = HTTPServerBuilder { responder in
            let http = GuardedHTTPChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                   configuration: channelConfiguration),
                requestHeadTimeout: requestHeadTimeout, access: configuration.access)
            // TLS first: the guard's request-head deadline and limits then apply to the decrypted stream.
            guard let tlsConfiguration else { return http }
            return PlainHTTPRefusingChannel(base: try TLSChannel(http, tlsConfiguration: tlsConfiguration))
        }
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Ocular Studio"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// Opens the gallery (logging what reconciling it found), builds the studio and serves until the
    /// process is told to stop (SIGINT, SIGTERM).
    /// - Throws: ``StudioError`` when the web app is missing, the gallery cannot be used or the
    ///   address cannot be bound.
    public static func run(
        configuration: StudioConfiguration,
        registry: StageRegistry = .standard,
        logger: Logger = Logger(label: "ocular.studio"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let gallery: Gallery
        do {
            gallery = try Gallery(folder: configuration.galleryFolder)
        } catch {
            throw StudioError.unusableGallery(error)
        }
        for finding in gallery.reconciliation.findings { logger.warning("gallery: \(finding)") }
        if gallery.isReadOnly {
            logger.warning("the gallery '\(gallery.folder)' is read-only (its folder cannot be written): saving is off")
        }
        let application = try makeApplication(configuration: configuration, registry: registry, gallery: gallery, logger: logger,
                                              onServerRunning: onServerRunning)
        do {
            try await application.runService()
        } catch let error as IOError {
            let reason = error.errnoCode == EADDRINUSE ? "the port is in use; choose another with --port"
                : error.errnoCode == EADDRNOTAVAIL ? "this machine has no such address" : "\(error)"
            throw StudioError.cannotListen(host: configuration.host, port: configuration.port, reason: reason)
        }
    }
}

/// Why the studio cannot start.
public enum StudioError: CodedError {
    case missingWebApp(String)
    case cannotListen(host: String, port: Int, reason: String)
    case unusableGallery(GalleryError)
    case unusableTLS(String)

    public var description: String {
        switch self {
        case .unusableGallery(let error): "cannot open the gallery: \(error)"
        case .unusableTLS(let detail): "cannot serve HTTPS: \(detail)"
        case .missingWebApp(let detail): "cannot find Ocular Studio's web app: \(detail)"
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        }
    }

    public var code: ErrorCode {
        switch self {
        case .unusableGallery(let error): error.code
        case .missingWebApp: ErrorCode("studio.missingWebApp", .unavailable)
        case .unusableTLS: ErrorCode("studio.unusableTLS", .badInput)
        case .cannotListen: ErrorCode("studio.cannotListen", .unavailable)
        }
    }
}

/// Locates the web app shipped as a package resource.
enum StudioResources {
    static let bundleName = "Ocular_OcularStudio.resources"

    /// The web app's folder, which the studio serves.
    static func publicFolder() throws(StudioError) -> String {
        try resource("Public", containing: StudioPage.root.file)
    }

    /// The Bean Counter's shipped training list, outside the folder the studio serves.
    static func trainingList() throws(StudioError) -> String {
        try resource("TrainingList", containing: "labels.json") + "/labels.json"
    }

    private static func resource(_ name: String, containing file: String) throws(StudioError) -> String {
        // Beside the executable first: SwiftPM's generated `Bundle.module` stops the process when the
        // bundle was moved, and a missing folder deserves a message instead.
        let executableFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            executableFolder.appendingPathComponent(bundleName).path,
            Bundle.main.bundleURL.appendingPathComponent(bundleName).path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(bundleName).path,
        ].map { $0 + "/" + name }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0 + "/" + file) }) {
            return found
        }
        throw .missingWebApp("looked in \(candidates.joined(separator: ", ")); pass --public FOLDER or run from the build folder")
    }
}

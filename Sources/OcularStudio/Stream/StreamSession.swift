import Foundation
internal import NIOCore
import Ocular
import Synchronization

/// One client's stream: its settings, the processing of its frames, and its page's actions.
final class StreamSession: Sendable {
    enum Reply {
        /// The processed frame, JPEG-encoded, and the messages that follow it: what detection stages
        /// found in it (when the recipe has one), then what page actions answer to it (a save that
        /// waited for it).
        case frame([UInt8], annotations: StreamMessage.Outbound?, answers: [StreamMessage.Outbound])
        /// Why the frame was refused.
        case refused(String)
    }

    /// What the client has chosen: the pipeline and the JPEG quality of answers.
    struct Settings {
        var pipeline: Pipeline
        var quality: Int
    }

    /// The message types the session takes itself (``StreamMessage/Own``); every other is a page action's.
    static let ownTypes = StreamMessage.Own.declarations.map(\.type)
    /// How often the link's figures go to the page when its level stays.
    static let linkReportIntervalMs = 1000.0

    private let configuration: StudioConfiguration
    private let registry: StageRegistry
    private let images: any ImageCatalog
    private let settings: Mutex<Settings>
    private let gallery: StudioGallery
    /// The actions of the stream's page, made for this stream.
    let actions: [any PageAction]
    /// Each message type an action takes: the action and the message's declaration.
    private let routes: [String: any PageAction]
    private let started = ContinuousClock.now
    /// The link's measurements and level, and when the page last heard of them.
    private let link: Mutex<(meter: LinkMeter, reportedAt: Double)>
    /// Seconds of processing per pixel of the current recipe, measured on its frames; nil until one is done.
    private let workRate = Mutex<Double?>(nil)
    /// Set when the client has gone: a frame not yet started is then not processed.
    let closed = Atomic<Bool>(false)

    /// - Parameters:
    ///   - page: The page the stream serves (`manyMasks`), whose actions are live; nil for every action.
    ///   - adaptsToLink: Whether the link's level may move (not for a page on this machine).
    init(configuration: StudioConfiguration, registry: StageRegistry = .standard, actions actionRegistry: PageActionRegistry = .standard,
         page: String? = nil, images: any ImageCatalog = NoImages(), gallery: StudioGallery? = nil, beanCounter: BeanCounter? = nil,
         adaptsToLink: Bool = true) throws(StageError) {
        self.configuration = configuration
        self.registry = registry
        self.images = images
        let gallery = gallery ?? StudioGallery(folder: configuration.galleryFolder)
        self.gallery = gallery
        self.link = Mutex((meter: LinkMeter(adapts: configuration.adaptsToLink && adaptsToLink, framesPerSecond: configuration.framesPerSecond), reportedAt: -Double.infinity))
        self.settings = Mutex(Settings(pipeline: try Pipeline(Recipe(), registry: registry), quality: configuration.jpegQuality))
        let context = PageActionContext(configuration: configuration, saves: GallerySaves(configuration: configuration, gallery: gallery), beanCounter: beanCounter)
        actions = actionRegistry.actions.filter { $0.serves(page: page) }.map { $0.init(context: context) }
        var routes: [String: any PageAction] = [:]
        for action in actions {
            for type in type(of: action).messageTypes { routes[type] = action }
        }
        self.routes = routes
    }

    /// The stream's action of a type, if its page has one.
    func action<Action: PageAction>(_ type: Action.Type) -> Action? {
        actions.lazy.compactMap { $0 as? Action }.first
    }

    var currentSettings: Settings { settings.withLock { $0 } }

    /// The message types this stream takes, its own first.
    var messageTypes: [String] {
        Self.ownTypes + actions.flatMap { type(of: $0).messageTypes }
    }

    /// Milliseconds since the stream opened, the link meter's clock.
    private var now: Double {
        let elapsed = (ContinuousClock.now - started).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }

    var linkMeter: LinkMeter { link.withLock { $0.meter } }

    /// The answer to a frame has been handed to the connection.
    func answerWritten(bytes: Int) {
        let time = now
        link.withLock { $0.meter.answerWritten(bytes: bytes, at: time) }
    }

    /// A frame has arrived whole.
    func frameArrived(bytes: Int) {
        let time = now
        link.withLock { $0.meter.frameArrived(bytes: bytes, at: time) }
    }

    /// The link's figures for the page: when its level changed, and once a second.
    private func acknowledge(sendingNext: Bool) -> StreamMessage.Outbound? {
        let time = now
        let chosenQuality = currentSettings.quality  // read first: one lock at a time
        return link.withLock { state -> StreamMessage.Outbound? in
            let changed = state.meter.answerReceived(at: time, sendingNext: sendingNext)
            guard changed || time - state.reportedAt >= Self.linkReportIntervalMs else { return nil }
            state.reportedAt = time
            return .link(LinkReport(state.meter, chosenQuality: chosenQuality))
        }
    }

    /// The message that opens the stream.
    var hello: StreamMessage.Outbound {
        let current = currentSettings
        let actions: [PageActionRegistry.Description] = actions.map { type(of: $0).description }
        return .hello(StreamMessage.Hello(stages: registry.descriptions, messages: StreamMessage.Own.declarations.map(\.description),
                            actions: actions,
                            recipe: current.pipeline.recipe, quality: current.quality,
                            maxFrameBytes: configuration.maxFrameBytes, maxTextMessageBytes: configuration.maxTextMessageBytes,
                            recording: .init(maxSeconds: configuration.maxRecordingSeconds, maxBytes: configuration.maxClipBytes),
                            link: .init(framesPerSecond: configuration.framesPerSecond,
                                        levels: LinkLevel.ladder),
                            notice: gallery.readOnlyNotice))
    }

    /// Applies a text message: the session's own (the settings, all or nothing; the link's
    /// acknowledgements) or an action's, decoded once.
    /// - Returns: The reply: the new settings, an action's answer, or an error about the message's
    ///   type naming what is wrong (about "message" for a text that is no message the studio takes:
    ///   too long, no JSON object, no type, a type it does not know); nil when the answer
    ///   comes after the next frame (a save).
    func receive(_ text: String) -> StreamMessage.Outbound? {
        // Refused by its size before a byte is parsed: a JSON decoder's time grows with what it reads.
        let bytes = text.utf8.count
        guard bytes <= configuration.maxTextMessageBytes else {
            return .error(about: StreamMessage.unreadable, message: "a text message of \(bytes) bytes refused: the limit is \(configuration.maxTextMessageBytes) bytes")
        }
        let data = Data(text.utf8)
        let envelope: StreamMessage.Envelope
        do throws(StreamMessageError) {
            envelope = try StreamMessage.Envelope.read(data)
        } catch {
            return .error(about: StreamMessage.unreadable, message: error.reason)
        }
        let action = routes[envelope.type]
        let own = StreamMessage.Own.declaration(of: envelope.type)
        guard own != nil || action != nil else {
            let reason = "unknown message type \(StageError.quoted(envelope.type)); the types are \(messageTypes.joined(separator: ", "))"
            return .error(about: StreamMessage.unreadable, message: reason)
        }
        do throws(StreamMessageError) {
            if let own { return try receive(own.message(in: envelope, data: data)) }
            return try action?.receive(envelope, data: data)
        } catch {
            return .error(about: envelope.type, message: error.reason)
        }
    }

    private func receive(_ message: StreamMessage.Own) throws(StreamMessageError) -> StreamMessage.Outbound? {
        switch message {
        case .settings(let settings):
            return apply(recipe: settings.recipe, quality: settings.quality)
        case .received(let next):
            return acknowledge(sendingNext: next)
        case .upload:
            let time = now
            link.withLock { $0.meter.uploadStarts(at: time) }
            return nil
        }
    }

    /// Applies a settings message: both parts or neither.
    private func apply(recipe: Recipe?, quality: Int?) -> StreamMessage.Outbound {
        if let quality, !(1...100).contains(quality) {
            return .error(about: "settings", message: "quality must be a whole number from 1 to 100, got \(quality)")
        }
        let pipeline: Pipeline?
        do throws(StageError) {
            pipeline = try recipe.map { (recipe) throws(StageError) in try Pipeline(recipe, registry: registry, images: images) }
        } catch {
            return .error(about: "settings", message: error.description)
        }
        let updated = settings.withLock { current in
            if let pipeline { current.pipeline = pipeline }
            if let quality { current.quality = quality }
            return current
        }
        if pipeline != nil { workRate.withLock { $0 = nil } }  // a new recipe's rate is measured anew
        return .settings(StreamMessage.AppliedSettings(recipe: updated.pipeline.recipe, quality: updated.quality))
    }

    /// Decodes a frame, runs the pipeline on it at the stream's time, encodes the result as a JPEG of
    /// the same size, and shows the result to the page's actions.
    func process(_ frame: ByteBuffer) -> Reply {
        let settings = currentSettings
        let startedAt = now
        defer {
            let time = now
            link.withLock { $0.meter.processed(milliseconds: time - startedAt) }
        }
        // The link's level may lower the answers' quality below the chosen one, never raise it.
        let quality = min(settings.quality, link.withLock { $0.meter.current.answerQuality })
        let elapsed = ContinuousClock.now - started
        // A recipe of no stages does no work to bound; otherwise a frame to be shrunk is decoded
        // already shrunk inside the JPEG decoder as far as it can be.
        let fits = !settings.pipeline.recipe.stages.isEmpty
        let options = ImageReadOptions(pixelLimit: configuration.maxFramePixels, jpegScaledToAtLeastPixels: fits ? allowedFramePixels() : nil)
        do {
            let decoded = try frame.withUnsafeReadableBytes { try Image(decoding: $0, name: "frame", options: options) }
            let image = fits ? try fittedToWorkBudget(decoded) : decoded
            let work = ContinuousClock.now
            let processed = try settings.pipeline.process(Frame(image: image, timestamp: elapsed))
            let seconds = Self.seconds(ContinuousClock.now - work)
            workRate.withLock { $0 = seconds / Double(max(1, image.width * image.height)) }
            let jpeg = try processed.image.encoded(as: .jpeg(quality: quality))
            // Whatever kinds the recipe's stages declare go out, known to the studio or not.
            let annotations = !settings.pipeline.annotationKinds.isEmpty
                ? StreamMessage.Outbound.annotations(processed.annotationGroups(listing: settings.pipeline.annotationKinds)) : nil
            return .frame(jpeg, annotations: annotations, answers: actions.compactMap { $0.observe(processed, recipe: settings.pipeline.recipe) })
        } catch {
            return .refused("\(error)")
        }
    }
}

extension StreamSession {
    /// The frame as the recipe may take it within ``StudioConfiguration/maxFrameWorkSeconds``: as it
    /// is, or shrunk (pixels averaged) to the pixels the recipe's measured rate allows; before the rate
    /// is known, to at most ``StudioConfiguration/unmeasuredFramePixels``. The answer then comes back
    /// at that size, and what the stages found is in its pixels.
    func fittedToWorkBudget(_ image: Image) throws(OcularError) -> Image {
        let pixels = Double(image.width) * Double(image.height)
        let allowed = Double(allowedFramePixels())
        guard pixels > allowed else { return image }
        let scale = (allowed / pixels).squareRoot()
        return try image.resized(width: max(1, Int(Double(image.width) * scale)), height: max(1, Int(Double(image.height) * scale)), averaging: true)
    }

    /// The most pixels a frame may have for the recipe to take it within the work budget (see
    /// ``fittedToWorkBudget(_:)``).
    func allowedFramePixels() -> Int {
        let allowed = workRate.withLock { rate in
            rate.map { configuration.maxFrameWorkSeconds / max($0, 1e-12) } ?? Double(configuration.unmeasuredFramePixels)
        }
        return allowed >= Double(Int.max) ? Int.max : max(1, Int(allowed))
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// The link's level and figures, as the page gets them (`{"type":"link", …}`): what size and quality
/// to send frames at, and what the server measured.
struct LinkReport: AnswerBody {
    struct Upload: Encodable, Sendable {
        /// The longest side to send frames at; nil for the camera's own size.
        let longSide: Int?
        let quality: Double
    }

    let level: Int
    let levels: Int
    let upload: Upload
    let answerQuality: Int
    let processingMs: Double?
    let answerRoundTripMs: Double?
    let uploadMs: Double?
    let budgetMs: Double
    /// Megabits per second down (answers) and up (frames), as the last frames crossed.
    let downloadMbps: Double?
    let uploadMbps: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case level, levels, upload, answerQuality, processingMs, answerRoundTripMs, uploadMs, budgetMs, downloadMbps, uploadMbps
    }

    static func describe(_ field: CodingKeys) -> MessageField {
        switch field {
        case .level: MessageField(.integer, required: true, "the link's rung, 0 the best")
        case .levels: MessageField(.integer, required: true, "how many rungs there are")
        case .upload: MessageField(.object, required: true, "longSide (null for the camera's own) and quality to send frames at")
        case .answerQuality: MessageField(.integer, required: true, "the JPEG quality answers come at")
        case .processingMs: MessageField(.number, "milliseconds the last frames took to process")
        case .answerRoundTripMs: MessageField(.number, "milliseconds from an answer sent to its receipt")
        case .uploadMs: MessageField(.number, "milliseconds a frame took to arrive")
        case .budgetMs: MessageField(.number, required: true, "milliseconds a frame may take at the rate cap")
        case .downloadMbps: MessageField(.number, "megabits a second down, as answers crossed")
        case .uploadMbps: MessageField(.number, "megabits a second up, as frames crossed")
        }
    }

    init(_ meter: LinkMeter, chosenQuality: Int) {
        let level = meter.current
        self.level = meter.level
        levels = LinkLevel.ladder.count
        upload = Upload(longSide: level.longSide, quality: level.uploadQuality)
        answerQuality = min(level.answerQuality, chosenQuality)
        processingMs = meter.processingMs.map(Self.rounded)
        answerRoundTripMs = meter.answerRoundTripMs.map(Self.rounded)
        uploadMs = meter.uploadMs.map(Self.rounded)
        budgetMs = Self.rounded(meter.budgetMs)
        // 1 byte/ms = 8 kbit/s.
        downloadMbps = meter.downloadRate.map { Self.rounded($0 * 8 / 1000) }
        uploadMbps = meter.uploadRate.map { Self.rounded($0 * 8 / 1000) }
    }

    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}

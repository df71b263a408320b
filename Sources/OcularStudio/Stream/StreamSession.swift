import NIOCore
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

    /// The one message type the session takes itself; every other is a page action's.
    static let settingsType = "settings"

    private let configuration: StudioConfiguration
    private let registry: StageRegistry
    private let images: any ImageCatalog
    private let settings: Mutex<Settings>
    private let gallery: StudioGallery
    /// The actions of the stream's page, made for this stream.
    let actions: [any PageAction]
    /// Each message type an action takes: the action and the message's declaration.
    private let routes: [String: (action: any PageAction, message: PageMessage)]
    private let started = ContinuousClock.now

    /// - Parameter page: The page the stream serves (`manyMasks`), whose actions are live; nil for
    ///   every action.
    init(configuration: StudioConfiguration, registry: StageRegistry = .standard, actions actionRegistry: PageActionRegistry = .standard,
         page: String? = nil, images: any ImageCatalog = NoImages(), gallery: StudioGallery? = nil, beans: BeanCounter? = nil) throws(StageError) {
        self.configuration = configuration
        self.registry = registry
        self.images = images
        let gallery = gallery ?? StudioGallery(folder: configuration.galleryFolder)
        self.gallery = gallery
        self.settings = Mutex(Settings(pipeline: try Pipeline(Recipe(), registry: registry), quality: configuration.jpegQuality))
        let context = PageActionContext(configuration: configuration, saves: GallerySaves(configuration: configuration, gallery: gallery), beans: beans)
        actions = actionRegistry.actions.filter { $0.serves(page: page) }.map { $0.init(context: context) }
        var routes: [String: (action: any PageAction, message: PageMessage)] = [:]
        for action in actions {
            for message in type(of: action).messages { routes[message.type] = (action, message) }
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
        [Self.settingsType] + actions.flatMap { type(of: $0).messages.map(\.type) }
    }

    /// The message that opens the stream.
    var hello: StreamMessage.Outbound {
        let current = currentSettings
        return .hello(stages: registry.descriptions, actions: actions.map { PageActionRegistry.Description(of: type(of: $0)) },
                      recipe: current.pipeline.recipe, quality: current.quality,
                      maxFrameBytes: configuration.maxFrameBytes, notice: gallery.readOnlyNotice)
    }

    /// Applies a text message: the settings, all or nothing, or an action's.
    /// - Returns: The reply: the new settings, an action's answer, or an error naming what is wrong;
    ///   nil when the answer comes after the next frame (a save).
    func receive(_ text: String) -> StreamMessage.Outbound? {
        do throws(StreamMessageError) {
            let envelope = try StreamMessage.Envelope.read(text)
            if envelope.type == Self.settingsType {
                try envelope.refuseUnknownKeys(allowed: ["recipe", "quality"], has: "recipe and quality")
                let (recipe, quality) = try StreamMessage.settings(from: text)
                return apply(recipe: recipe, quality: quality)
            }
            guard let route = routes[envelope.type] else {
                throw StreamMessageError("unknown message type \(StageError.quoted(envelope.type)); the types are \(messageTypes.joined(separator: ", "))")
            }
            try envelope.refuseUnknownKeys(allowed: route.message.fields, has: route.message.has)
            return try route.action.receive(InboundMessage(type: envelope.type, text: text))
        } catch {
            return .error(about: "settings", message: error.reason)
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
        return .settings(recipe: updated.pipeline.recipe, quality: updated.quality)
    }

    /// Decodes a frame, runs the pipeline on it at the stream's time, encodes the result as a JPEG of
    /// the same size, and shows the result to the page's actions.
    func process(_ frame: ByteBuffer) -> Reply {
        let settings = currentSettings
        let elapsed = ContinuousClock.now - started
        let options = ImageReadOptions(pixelLimit: configuration.maxFramePixels)
        do {
            let image = try frame.withUnsafeReadableBytes { try Image(decoding: $0, name: "frame", options: options) }
            let processed = try settings.pipeline.process(Frame(image: image, timestamp: elapsed))
            let jpeg = try processed.image.encoded(as: .jpeg(quality: settings.quality))
            // Whatever kinds the recipe's stages declare go out, known to the studio or not.
            let annotations = !settings.pipeline.annotationKinds.isEmpty
                ? StreamMessage.Outbound.annotations(processed.annotationGroups(listing: settings.pipeline.annotationKinds)) : nil
            return .frame(jpeg, annotations: annotations, answers: actions.compactMap { $0.observe(processed, recipe: settings.pipeline.recipe) })
        } catch {
            return .refused("\(error)")
        }
    }
}

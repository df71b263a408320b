import NIOCore
import Ocular
import Synchronization

/// One client's stream: its settings, and the processing of its frames.
final class StreamSession: Sendable {
    enum Reply {
        /// The processed frame, JPEG-encoded.
        case frame([UInt8])
        /// Why the frame was refused.
        case refused(String)
    }

    /// What the client has chosen: the pipeline and the JPEG quality of answers.
    struct Settings {
        var pipeline: Pipeline
        var quality: Int
    }

    private let configuration: StudioConfiguration
    private let registry: StageRegistry
    private let images: any ImageCatalog
    private let settings: Mutex<Settings>
    private let started = ContinuousClock.now

    init(configuration: StudioConfiguration, registry: StageRegistry = .standard, images: any ImageCatalog = NoImages()) throws(StageError) {
        self.configuration = configuration
        self.registry = registry
        self.images = images
        self.settings = Mutex(Settings(pipeline: try Pipeline(Recipe(), registry: registry), quality: configuration.jpegQuality))
    }

    var currentSettings: Settings { settings.withLock { $0 } }

    /// The message that opens the stream.
    var hello: StreamMessage.Outbound {
        let current = currentSettings
        return .hello(stages: registry.descriptions, recipe: current.pipeline.recipe, quality: current.quality,
                      maxFrameBytes: configuration.maxFrameBytes)
    }

    /// Applies a text message, all or nothing.
    /// - Returns: The reply: the new settings, or an error naming what is wrong.
    func receive(_ text: String) -> StreamMessage.Outbound {
        do throws(StreamMessageError) {
            switch try StreamMessage.Inbound.decode(text) {
            case .settings(let recipe, let quality):
                if let quality, !(1...100).contains(quality) {
                    throw StreamMessageError("quality must be a whole number from 1 to 100, got \(quality)")
                }
                let pipeline: Pipeline?
                do throws(StageError) {
                    pipeline = try recipe.map { (recipe) throws(StageError) in try Pipeline(recipe, registry: registry, images: images) }
                } catch {
                    throw StreamMessageError(error.description)
                }
                let updated = settings.withLock { current in
                    if let pipeline { current.pipeline = pipeline }
                    if let quality { current.quality = quality }
                    return current
                }
                return .settings(recipe: updated.pipeline.recipe, quality: updated.quality)
            }
        } catch {
            return .error(about: "settings", message: error.reason)
        }
    }

    /// Decodes a frame, runs the pipeline on it at the stream's time, and encodes the result as a
    /// JPEG of the same size.
    func process(_ frame: ByteBuffer) -> Reply {
        let settings = currentSettings
        let elapsed = ContinuousClock.now - started
        let options = ImageReadOptions(pixelLimit: configuration.maxFramePixels)
        do {
            let image = try frame.withUnsafeReadableBytes { try Image(decoding: $0, name: "frame", options: options) }
            let processed = try settings.pipeline.process(image, at: elapsed)
            return .frame(try processed.encoded(as: .jpeg(quality: settings.quality)))
        } catch {
            return .refused("\(error)")
        }
    }
}

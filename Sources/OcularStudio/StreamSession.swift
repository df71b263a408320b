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

    private let configuration: StudioConfiguration
    private let settings: Mutex<StreamSettings>
    private let started = ContinuousClock.now

    init(configuration: StudioConfiguration) {
        self.configuration = configuration
        self.settings = Mutex(StreamSettings(quality: configuration.jpegQuality))
    }

    var currentSettings: StreamSettings { settings.withLock { $0 } }

    /// Applies a text message; returns the JSON reply (the new settings, or an error).
    func applySettings(_ text: String) -> String {
        do throws(StreamSettingsError) {
            let updated = try settings.withLock { (current) throws(StreamSettingsError) in
                current = try current.updated(with: text)
                return current
            }
            return StreamMessage.json(StreamMessage.Settings(settings: updated))
        } catch {
            return StreamMessage.json(StreamMessage.Failure(about: "settings", message: error.reason))
        }
    }

    /// Decodes a frame, applies the effect and encodes the result as a JPEG of the same size.
    func process(_ frame: ByteBuffer) -> Reply {
        let settings = currentSettings
        let elapsed = ContinuousClock.now - started
        let processor = FrameProcessor(effect: settings.effect, tints: TintSequence(seed: settings.seed))
        let options = ImageReadOptions(pixelLimit: configuration.maxFramePixels)
        do {
            let image = try frame.withUnsafeReadableBytes { try Image(decoding: $0, name: "frame", options: options) }
            let processed = try processor.process(image, at: elapsed)
            return .frame(try processed.encoded(as: .jpeg(quality: settings.quality)))
        } catch {
            return .refused("\(error)")
        }
    }
}

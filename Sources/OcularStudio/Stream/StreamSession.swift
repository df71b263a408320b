import NIOCore
import Ocular
import Synchronization

/// One client's stream: its settings, and the processing of its frames.
final class StreamSession: Sendable {
    enum Reply {
        /// The processed frame, JPEG-encoded; what detection stages found in it (when the recipe has
        /// one); and, when a save was waiting for it, how saving went.
        case frame([UInt8], annotations: StreamMessage.Outbound?, saved: StreamMessage.Outbound?)
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
    private let gallery: StudioGallery
    /// The caption of a save waiting for the next processed frame.
    private let pendingSave = Mutex<String?>(nil)
    /// The faces seen, picked and merged (the Many Masks page).
    let booth = FaceBooth()
    /// The blobs seen and classified (the Bean Counter page), and the studio's classifier.
    let blobBooth = BlobBooth()
    private let beans: BeanCounter?
    private let started = ContinuousClock.now
    /// Saves this connection may still make now (a token bucket: `savesPerMinute` at most at once,
    /// refilled at that rate), so that one page cannot fill the disk in a loop.
    private let saveAllowance: Mutex<(saves: Double, at: ContinuousClock.Instant)>

    init(configuration: StudioConfiguration, registry: StageRegistry = .standard, images: any ImageCatalog = NoImages(),
         gallery: StudioGallery? = nil, beans: BeanCounter? = nil) throws(StageError) {
        self.configuration = configuration
        self.beans = beans
        self.registry = registry
        self.images = images
        self.gallery = gallery ?? StudioGallery(folder: configuration.galleryFolder)
        self.settings = Mutex(Settings(pipeline: try Pipeline(Recipe(), registry: registry), quality: configuration.jpegQuality))
        self.saveAllowance = Mutex((Double(configuration.savesPerMinute), ContinuousClock.now))
    }

    /// Takes one save from the allowance, or says why not.
    private func takeSave() -> StreamMessage.Outbound? {
        let perMinute = Double(configuration.savesPerMinute)
        let allowed = saveAllowance.withLock { allowance in
            let now = ContinuousClock.now
            let elapsed = (now - allowance.at) / .seconds(1)
            allowance = (min(perMinute, allowance.saves + elapsed * perMinute / 60), now)
            guard allowance.saves >= 1 else { return false }
            allowance.saves -= 1
            return true
        }
        return allowed ? nil : .error(about: "save", message: "too many saves: one page may save \(configuration.savesPerMinute) pictures a minute; wait a moment")
    }

    var currentSettings: Settings { settings.withLock { $0 } }

    /// The message that opens the stream.
    var hello: StreamMessage.Outbound {
        let current = currentSettings
        return .hello(stages: registry.descriptions, recipe: current.pipeline.recipe, quality: current.quality,
                      maxFrameBytes: configuration.maxFrameBytes, notice: gallery.readOnlyNotice)
    }

    /// Applies a text message, all or nothing.
    /// - Returns: The reply: the new settings, or an error naming what is wrong; nothing for a save,
    ///   which is answered after the next frame.
    func receive(_ text: String) -> StreamMessage.Outbound? {
        let message: StreamMessage.Inbound
        do throws(StreamMessageError) {
            message = try StreamMessage.Inbound.decode(text)
        } catch {
            return .error(about: "settings", message: error.reason)
        }
        switch message {
        case .save(let caption):
            if let refusal = takeSave() { return refusal }
            let accepted = pendingSave.withLock { pending in
                guard pending == nil else { return false }
                pending = caption ?? ""
                return true
            }
            return accepted ? nil : .error(about: "save", message: "a save is already waiting for the next frame")
        case .settings(let recipe, let quality):
            return apply(recipe: recipe, quality: quality)
        case .tap(let tap):
            let answer = tap.answer
            return .tapped(preview: answer.preview, pointOfInterest: answer.point)
        case .capture(let slot):
            do {
                let face = try booth.capture(slot: slot)
                return .captured(slot: slot, face: face, thumbnail: try face.image.jpegDataURL(longestSide: 160, quality: 85))
            } catch let error as StreamMessageError {
                return .error(about: "capture", message: error.reason)
            } catch {
                return .error(about: "capture", message: "the face could not be encoded: \(error)")
            }
        case .merge:
            do {
                let merged = try booth.merge()
                return .merged(face: merged, image: try merged.image.jpegDataURL(longestSide: 1024, quality: 92))
            } catch let error as StreamMessageError {
                return .error(about: "merge", message: error.reason)
            } catch {
                return .error(about: "merge", message: "the merge could not be encoded: \(error)")
            }
        case .saveMerge(let caption):
            guard let merged = booth.merged else { return .error(about: "save", message: "nothing to save: merge two faces first") }
            if let refusal = takeSave() { return refusal }
            return save(merged.image, named: "merge", recipe: Recipe(), source: "many masks", caption: caption ?? merged.species.rawValue)
        case .classify:
            do {
                guard let beans else { throw StreamMessageError("this studio has no classifier") }
                let blob = try blobBooth.classify(with: try beans.classifier())
                return .classified(blob: blob, image: try blob.image.jpegDataURL(longestSide: 1024, quality: 92))
            } catch let error as StreamMessageError {
                return .error(about: "classify", message: error.reason)
            } catch {
                return .error(about: "classify", message: "the blob could not be encoded: \(error)")
            }
        case .saveBlob(let caption):
            guard let blob = blobBooth.classified else { return .error(about: "save", message: "nothing to save: classify a blob first") }
            if let refusal = takeSave() { return refusal }
            return save(blob.image, named: "blob", recipe: Recipe(), source: "bean counter",
                        caption: caption ?? blob.classification?.description ?? "unidentified")
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

    /// Decodes a frame, runs the pipeline on it at the stream's time, and encodes the result as a
    /// JPEG of the same size.
    func process(_ frame: ByteBuffer) -> Reply {
        let settings = currentSettings
        let elapsed = ContinuousClock.now - started
        let options = ImageReadOptions(pixelLimit: configuration.maxFramePixels)
        do {
            let image = try frame.withUnsafeReadableBytes { try Image(decoding: $0, name: "frame", options: options) }
            let processed = try settings.pipeline.process(Frame(image: image, timestamp: elapsed))
            let jpeg = try processed.image.encoded(as: .jpeg(quality: settings.quality))
            let annotations = settings.pipeline.detects
                ? StreamMessage.Outbound.annotations(processed.annotationGroups(listing: settings.pipeline.annotationKinds)) : nil
            booth.saw(processed.annotations(of: Face.self))
            blobBooth.saw(processed.annotations(of: Blob.self))
            return .frame(jpeg, annotations: annotations, saved: saveIfAsked(processed.image, recipe: settings.pipeline.recipe))
        } catch {
            return .refused("\(error)")
        }
    }

    /// Saves the processed frame, losslessly, when a save is waiting.
    private func saveIfAsked(_ processed: Image, recipe: Recipe) -> StreamMessage.Outbound? {
        guard let caption = pendingSave.withLock({ pending in defer { pending = nil }; return pending }) else { return nil }
        return save(processed, named: "frame", recipe: recipe, source: "studio", caption: caption)
    }

    /// Saves a picture (what the person calls it: "frame", "merge") in the gallery: `saved` with the
    /// item, or an error about "save".
    private func save(_ picture: Image, named name: String, recipe: Recipe, source: String, caption: String) -> StreamMessage.Outbound {
        guard picture.width * picture.height <= configuration.maxFramePixels else {
            return .error(about: "save", message: "the \(name) is \(picture.width)×\(picture.height), more than the studio's limit of \(configuration.maxFramePixels) pixels")
        }
        do throws(GalleryError) {
            let item = try gallery.open().save(picture, recipe: recipe, source: source, caption: caption, withinBytes: configuration.galleryQuotaBytes)
            return .saved(GalleryItemResource(item: item))
        } catch {
            return .error(about: "save", message: "the \(name) could not be saved: \(gallery.clientMessage(for: error))")
        }
    }
}

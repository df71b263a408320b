import Ocular
import OcularGallery
import Synchronization

/// `{"type":"save","caption":"…"}` on every page: saves the next processed frame in the gallery,
/// losslessly, with the recipe that made it; that frame's answer is followed by `saved` (or an error
/// about "save").
final class SaveFrameAction: PageAction {
    static let name = "saveFrame"

    enum Message: InboundMessages {
        case save(Caption)
        static let declarations: [MessageDeclaration<Message>] = [.init("save", Caption.self, Message.save)]
    }

    private let saves: GallerySaves
    /// The caption of a save waiting for the next processed frame.
    private let pendingCaption = Mutex<String?>(nil)

    init(context: PageActionContext) {
        saves = context.saves
    }

    func receive(_ message: Message) throws(StreamMessageError) -> StreamMessage.Outbound? {
        switch message {
        case .save(let caption):
            try saves.takeOne()
            let accepted = pendingCaption.withLock { pending in
                guard pending == nil else { return false }
                pending = caption.caption ?? ""
                return true
            }
            guard accepted else { throw StreamMessageError("a save is already waiting for the next frame") }
            return nil
        }
    }

    func observe(_ frame: Frame, recipe: Recipe) -> StreamMessage.Outbound? {
        guard let caption = pendingCaption.withLock({ pending in defer { pending = nil }; return pending }) else { return nil }
        do throws(StreamMessageError) {
            return try saves.save(frame.image, named: "frame", recipe: recipe, source: "studio", caption: caption)
        } catch {
            // Answered after the frame, for the message that asked for it.
            return .error(about: "save", message: error.reason)
        }
    }
}

/// One stream's saves into the gallery, shared by its save actions: the allowance (a token bucket:
/// `savesPerMinute` at most at once, refilled at that rate, so that one page cannot fill the disk in
/// a loop), the size and quota limits, and the answer.
final class GallerySaves: Sendable {
    private let configuration: StudioConfiguration
    let gallery: StudioGallery
    private let allowance: Mutex<(saves: Double, at: ContinuousClock.Instant)>

    init(configuration: StudioConfiguration, gallery: StudioGallery) {
        self.configuration = configuration
        self.gallery = gallery
        allowance = Mutex((Double(configuration.savesPerMinute), ContinuousClock.now))
    }

    /// Takes one save from the allowance.
    /// - Throws: Saying why not.
    func takeOne() throws(StreamMessageError) {
        let perMinute = Double(configuration.savesPerMinute)
        let allowed = allowance.withLock { allowance in
            let now = ContinuousClock.now
            let elapsed = (now - allowance.at) / .seconds(1)
            allowance = (min(perMinute, allowance.saves + elapsed * perMinute / 60), now)
            guard allowance.saves >= 1 else { return false }
            allowance.saves -= 1
            return true
        }
        guard allowed else {
            throw StreamMessageError("too many saves: one page may save \(configuration.savesPerMinute) pictures a minute; wait a moment")
        }
    }

    /// Saves a picture (what the person calls it: "frame", "merge") in the gallery.
    /// - Returns: The `saved` answer, with the item saved.
    /// - Throws: Why it was not.
    func save(_ picture: Image, named name: String, recipe: Recipe, source: String, caption: String) throws(StreamMessageError) -> StreamMessage.Outbound {
        guard picture.width * picture.height <= configuration.maxFramePixels else {
            throw StreamMessageError("the \(name) is \(picture.width)×\(picture.height), more than the studio's limit of \(configuration.maxFramePixels) pixels")
        }
        do throws(GalleryError) {
            let item = try gallery.open().save(picture, recipe: recipe, source: source, caption: caption, withinBytes: configuration.galleryQuotaBytes)
            return .saved(StreamMessage.Saved(item: GalleryItemResource(item: item)))
        } catch {
            throw StreamMessageError("the \(name) could not be saved: \(gallery.clientMessage(for: error))")
        }
    }
}

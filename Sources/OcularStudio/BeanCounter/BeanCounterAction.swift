import Ocular
import Synchronization

/// The Bean Counter page's blobs in one stream: those of the frame just processed, and the
/// one classified for review. The blobs are the server's own values, pixels included, so Classify
/// names exactly the blob that was boxed.
///
/// `{"type":"classify"}` classifies the biggest blob of the frame just answered with the studio's
/// classifier, answered `classified` with the blob (label, description, distance) and its picture as
/// a JPEG `data:` URL; `{"type":"saveBlob","caption":"…"}` saves that blob in the gallery, the caption
/// defaulting to its label's description.
final class BeanCounterAction: PageAction {
    static let name = "beanCounter"
    static let pages: [StudioPage] = [.beanCounter]
    static let classified = ActionAnswerType<Classified>("classified")
    static let answers = [classified.declaration]

    enum Message: InboundMessages {
        case classify
        case saveBlob(Caption)
        static let declarations: [MessageDeclaration<Message>] = [.init("classify", .classify), .init("saveBlob", Caption.self, Message.saveBlob)]
    }

    private struct Contents {
        var seen: [Blob] = []
        var classified: Blob?
    }

    private let contents = Mutex(Contents())
    private let saves: GallerySaves
    private let beanCounter: BeanCounter?

    init(context: PageActionContext) {
        saves = context.saves
        beanCounter = context.beanCounter
    }

    func observe(_ frame: Frame, recipe: Recipe) -> StreamMessage.Outbound? {
        let blobs = frame.annotations(of: Blob.self)
        contents.withLock { $0.seen = blobs }
        return nil
    }

    func receive(_ message: Message) throws(StreamMessageError) -> StreamMessage.Outbound? {
        switch message {
        case .classify:
            guard let beanCounter else { throw StreamMessageError("this studio has no classifier") }
            let blob = try classify(with: try beanCounter.classifier())
            do throws(OcularError) {
                return Self.classified(Classified(blob: blob, image: try blob.image.jpegDataURL(longestSide: 1024, quality: 92)))
            } catch {
                throw StreamMessageError("the blob could not be encoded: \(error)")
            }
        case .saveBlob(let caption):
            guard let blob = classified else { throw StreamMessageError("nothing to save: classify a blob first") }
            try saves.takeOne()
            return try saves.save(blob.image, named: "blob", recipe: Recipe(), source: "bean counter",
                                         caption: caption.caption ?? blob.classification?.description ?? "unidentified")
        }
    }

    /// `{"type":"classified","blob":{…},"image":"data:…"}`.
    struct Classified: AnswerBody {
        let blob: Blob
        let image: String

        enum CodingKeys: String, CodingKey, CaseIterable { case blob, image }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .blob: MessageField(.object, required: true, "the blob: its box, outline, features and classification")
            case .image: MessageField(.text, required: true, "a JPEG data: URL of it")
            }
        }
    }

    /// Classifies the biggest blob of the frame just processed, and keeps it for saving.
    func classify(with classifier: BlobClassifier) throws(StreamMessageError) -> Blob {
        guard let biggest = contents.withLock({ Blob.biggest(of: $0.seen) }) else {
            throw StreamMessageError("no blob in the frame just shown: classify while a blob is boxed")
        }
        let classified: Blob
        do {
            classified = try classifier.classified(biggest)
        } catch {
            throw StreamMessageError("the blob could not be classified: \(error)")
        }
        contents.withLock { $0.classified = classified }
        return classified
    }

    /// The last blob classified, until the next.
    var classified: Blob? { contents.withLock { $0.classified } }
}

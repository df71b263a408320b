import Ocular
import Synchronization

/// The blobs of one stream (the Bean Counter page): those of the frame just processed, and the one
/// classified for review. The blobs are the server's own values, pixels included, so Classify
/// names exactly the blob that was boxed.
final class BlobBooth: Sendable {
    private struct Contents {
        var seen: [Blob] = []
        var classified: Blob?
    }

    private let contents = Mutex(Contents())

    /// The blobs of the frame just processed (none while no blobs stage runs).
    func saw(_ blobs: [Blob]) {
        contents.withLock { $0.seen = blobs }
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

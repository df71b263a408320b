import Foundation
import Ocular
import Synchronization

/// The Many Masks page's faces in one stream (SPEC §4): the faces of the frame just processed, the
/// two the person picked ("Face 1", "Face 2", from different frames), and their merge while it is
/// reviewed. The faces are the server's own values, pixels included, so a capture is exactly what
/// was found and listed, and a merge needs no upload.
///
/// `{"type":"capture","slot":1}` keeps the biggest face of the frame just answered as face 1 (or 2),
/// answered `captured` with the face and a small JPEG `data:` URL of it; `{"type":"merge"}` merges
/// face 1 and face 2, answered `merged` with the face and its picture; `{"type":"saveMerge",
/// "caption":"…"}` saves the merge under review in the gallery, the caption defaulting to its species.
final class FaceMergeAction: PageAction {
    static let name = "faceMerge"
    static let pages = ["manyMasks"]
    static let messages = [PageMessage("capture", fields: ["slot"]), PageMessage("merge"),
                           PageMessage("saveMerge", fields: ["caption"])]
    static let slots = 1...2

    private struct Contents {
        var seen: [Face] = []
        var picked: [Int: Face] = [:]
        var merged: Face?
    }

    private let contents = Mutex(Contents())
    private let saves: GallerySaves

    init(context: PageActionContext) {
        saves = context.saves
    }

    func observe(_ frame: Frame, recipe: Recipe) -> StreamMessage.Outbound? {
        let faces = frame.annotations(of: Face.self)
        contents.withLock { $0.seen = faces }
        return nil
    }

    func receive(_ message: InboundMessage) throws(StreamMessageError) -> StreamMessage.Outbound? {
        switch message.type {
        case "capture":
            guard let slot = try message.field("slot", as: Int.self, otherwise: "a capture message's slot must be 1 or 2") else {
                throw StreamMessageError("a capture message needs a slot, 1 or 2")
            }
            do {
                let face = try capture(slot: slot)
                return .answer("captured", Captured(slot: slot, face: face, thumbnail: try face.image.jpegDataURL(longestSide: 160, quality: 85)))
            } catch let error as StreamMessageError {
                return .error(about: "capture", message: error.reason)
            } catch {
                return .error(about: "capture", message: "the face could not be encoded: \(error)")
            }
        case "merge":
            do {
                let merged = try merge()
                return .answer("merged", Merged(face: merged, image: try merged.image.jpegDataURL(longestSide: 1024, quality: 92)))
            } catch let error as StreamMessageError {
                return .error(about: "merge", message: error.reason)
            } catch {
                return .error(about: "merge", message: "the merge could not be encoded: \(error)")
            }
        default:
            let caption = try message.caption()
            guard let merged else { return .error(about: "save", message: "nothing to save: merge two faces first") }
            if let refusal = saves.takeOne() { return refusal }
            return saves.save(merged.image, named: "merge", recipe: Recipe(), source: "many masks", caption: caption ?? merged.species.rawValue)
        }
    }

    private struct Captured: Encodable {
        let slot: Int
        let face: Face
        let thumbnail: String
    }

    private struct Merged: Encodable {
        let face: Face
        let image: String
    }

    /// Keeps the biggest face of the frame just processed as face `slot`.
    /// - Throws: When the slot is not 1 or 2, or no face was in that frame.
    func capture(slot: Int) throws(StreamMessageError) -> Face {
        guard Self.slots.contains(slot) else { throw StreamMessageError("slot must be 1 or 2, got \(slot)") }
        return try contents.withLock { (contents) throws(StreamMessageError) in
            guard let face = Face.biggest(of: contents.seen) else {
                throw StreamMessageError("no face in the frame just shown: capture while a face is listed")
            }
            contents.picked[slot] = face
            return face
        }
    }

    /// Merges face 1 and face 2, and keeps the merge for saving.
    func merge() throws(StreamMessageError) -> Face {
        try contents.withLock { (contents) throws(StreamMessageError) in
            let missing = Self.slots.filter { contents.picked[$0] == nil }.map { "Face \($0)" }
            guard missing.isEmpty, let first = contents.picked[1], let second = contents.picked[2] else {
                throw StreamMessageError("capture \(missing.joined(separator: " and ")) first")
            }
            do {
                let merged = try first.merged(with: second)
                contents.merged = merged
                return merged
            } catch {
                throw StreamMessageError("the faces could not be merged: \(error)")
            }
        }
    }

    /// The last merge, until the next one.
    var merged: Face? { contents.withLock { $0.merged } }
}

extension Image {
    /// The picture as a `data:` URL for an `<img>` (a face picked or merged, a blob classified):
    /// JPEG, at most `longestSide` pixels across.
    func jpegDataURL(longestSide: Int, quality: Int) throws(OcularError) -> String {
        let scale = min(1, Double(longestSide) / Double(max(width, height)))
        let shown = scale < 1 ? try scaled(by: scale, averaging: true) : self
        return "data:image/jpeg;base64," + Data(try shown.encoded(as: .jpeg(quality: quality))).base64EncodedString()
    }
}

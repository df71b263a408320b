import Foundation
import Ocular
import Synchronization

/// The Many Masks page's faces in one stream (SPEC §4): the faces of the frame just processed, the
/// two the person picked ("Face 1", "Face 2", from different frames), and their merge while it is
/// reviewed. The faces are the server's own values, pixels included, so a capture is exactly what
/// was found and listed, and a merge needs no upload.
final class FaceBooth: Sendable {
    static let slots = 1...2

    private struct Contents {
        var seen: [Face] = []
        var picked: [Int: Face] = [:]
        var merged: Face?
    }

    private let contents = Mutex(Contents())

    /// The faces of the frame just processed (none while no detection stage runs).
    func saw(_ faces: [Face]) {
        contents.withLock { $0.seen = faces }
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

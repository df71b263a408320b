import Foundation
import Ocular
import Synchronization

/// The Many Masks page's faces in one stream: the faces of the frame just processed, the
/// two the person picked ("Face 1", "Face 2", from different frames), and their merge while it is
/// reviewed. The faces are the server's own values, pixels included, so a capture is exactly what
/// was found and listed, and a merge needs no upload.
///
/// `{"type":"capture","slot":1}` keeps the biggest face of the frame just answered as face 1 (or 2),
/// answered `captured` with the face and a small JPEG `data:` URL of it; with `"at":[x,y]` (0…1 of the
/// frame, as a tap's point of interest gives it) the face under that point instead;
/// `{"type":"captureBiggest"}` keeps the frame's two biggest faces as face 1 and face 2 (a group in
/// one frame), answered `capturedBiggest` with both; `{"type":"merge"}` merges
/// face 1 and face 2, answered `merged` with the face and its picture; `{"type":"saveMerge",
/// "caption":"…"}` saves the merge under review in the gallery, the caption defaulting to its species.
final class ManyMasksAction: PageAction {
    static let name = "manyMasks"
    static let pages: [StudioPage] = [.manyMasks]
    static let slots = 1...2

    enum Message: InboundMessages {
        case capture(Capture)
        case captureBiggest
        case merge
        case saveMerge(Caption)

        static let declarations: [MessageDeclaration<Message>] = [
            .init("capture", Capture.self, Message.capture),
            .init("captureBiggest", .captureBiggest),
            .init("merge", .merge),
            .init("saveMerge", Caption.self, Message.saveMerge),
        ]
    }

    /// `{"type":"capture","slot":1,"at":[0.4,0.5]}`.
    struct Capture: MessageBody {
        let slot: Int
        let at: [Double]?

        enum CodingKeys: String, CodingKey, CaseIterable { case slot, at }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .slot: MessageField(.integer, required: true, "1 or 2")
            case .at: MessageField(.numbers, "[x, y], fractions of the frame")
            }
        }

        func check(as type: String) throws(StreamMessageError) {
            if let at, at.count != 2 || !at.allSatisfy({ $0.isFinite && (0...1).contains($0) }) {
                // What came is described, not quoted: it may be millions of numbers long.
                let got = at.count == 2 ? "[\(at[0]), \(at[1])]" : "\(at.count) numbers"
                throw StreamMessageError("a capture message's at must be [x, y], each 0 to 1 of the frame, got \(got)")
            }
        }

        /// The point it names, in fractions of the frame.
        var point: Point? { at.map { Point(x: $0[0], y: $0[1]) } }
    }

    private struct Contents {
        var seen: [Face] = []
        /// The size of the frame `seen` was found in (a tap's point is a fraction of it).
        var frameSize: (width: Int, height: Int)?
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
        let size = (width: frame.image.width, height: frame.image.height)
        contents.withLock {
            $0.seen = faces
            $0.frameSize = size
        }
        return nil
    }

    func receive(_ message: Message) throws(StreamMessageError) -> StreamMessage.Outbound? {
        do {
            switch message {
            case .capture(let request):
                let face = try capture(slot: request.slot, at: request.point)
                return Self.captured(try Captured(slot: request.slot, face: face))
            case .captureBiggest:
                let faces = try captureBiggest()
                return Self.capturedBiggest(CapturedBoth(faces: try zip(Self.slots, faces).map { try Captured(slot: $0, face: $1) }))
            case .merge:
                let merged = try merge()
                return Self.merged(Merged(face: merged, image: try merged.image.jpegDataURL(longestSide: 1024, quality: 92)))
            case .saveMerge(let caption):
                guard let merged else { throw StreamMessageError("nothing to save: merge two faces first") }
                try saves.takeOne()
                return try saves.save(merged.image, named: "merge", recipe: Recipe(), source: "many masks",
                                             caption: caption.caption ?? merged.species.rawValue)
            }
        } catch let error as StreamMessageError {
            throw error
        } catch {
            throw StreamMessageError("the picture could not be encoded: \(error)")
        }
    }

    static let captured = ActionAnswerType<Captured>("captured")
    static let capturedBiggest = ActionAnswerType<CapturedBoth>("capturedBiggest")
    static let merged = ActionAnswerType<Merged>("merged")
    static let answers = [captured.declaration, capturedBiggest.declaration, merged.declaration]

    /// `{"type":"captured","slot":1,"face":{…},"thumbnail":"data:…"}`.
    struct Captured: AnswerBody {
        let slot: Int
        let face: Face
        let thumbnail: String

        enum CodingKeys: String, CodingKey, CaseIterable { case slot, face, thumbnail }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .slot: MessageField(.integer, required: true, "1 or 2")
            case .face: MessageField(.object, required: true, "the face kept: its box, landmarks and species")
            case .thumbnail: MessageField(.text, required: true, "a small JPEG data: URL of it")
            }
        }

        init(slot: Int, face: Face) throws(OcularError) {
            self.slot = slot
            self.face = face
            thumbnail = try face.image.jpegDataURL(longestSide: 160, quality: 85)
        }
    }

    /// `{"type":"capturedBiggest","faces":[…]}`: face 1 and face 2, each as `captured` has it.
    struct CapturedBoth: AnswerBody {
        let faces: [Captured]

        enum CodingKeys: String, CodingKey, CaseIterable { case faces }

        static func describe(_ field: CodingKeys) -> MessageField {
            MessageField(.list, required: true, "the two faces kept, each with its slot, face and thumbnail")
        }
    }

    /// `{"type":"merged","face":{…},"image":"data:…"}`.
    struct Merged: AnswerBody {
        let face: Face
        let image: String

        enum CodingKeys: String, CodingKey, CaseIterable { case face, image }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .face: MessageField(.object, required: true, "the merged face: face 2's box, landmarks and species")
            case .image: MessageField(.text, required: true, "a JPEG data: URL of the merge")
            }
        }
    }

    /// Keeps a face of the frame just processed as face `slot`: the one under `point` (fractions of
    /// the frame; the smallest box holding it, as a face in front of another is the nearer one), or
    /// the biggest.
    /// - Throws: When the slot is not 1 or 2, no face was in that frame, or none under the point.
    func capture(slot: Int, at point: Point? = nil) throws(StreamMessageError) -> Face {
        guard Self.slots.contains(slot) else { throw StreamMessageError("slot must be 1 or 2, got \(slot)") }
        return try contents.withLock { (contents) throws(StreamMessageError) in
            guard let biggest = Face.biggest(of: contents.seen) else {
                throw StreamMessageError("no face in the frame just shown: capture while a face is listed")
            }
            var face = biggest
            if let point {
                let under = contents.seen.filter { face in
                    guard let frame = contents.frameSize else { return false }
                    let x = point.x * Double(frame.width), y = point.y * Double(frame.height)
                    return x >= Double(face.bounds.x) && x < Double(face.bounds.x + face.bounds.width)
                        && y >= Double(face.bounds.y) && y < Double(face.bounds.y + face.bounds.height)
                }
                guard let smallest = under.min(by: { $0.bounds.width * $0.bounds.height < $1.bounds.width * $1.bounds.height }) else {
                    throw StreamMessageError("no face where you tapped: tap inside a face's box")
                }
                face = smallest
            }
            contents.picked[slot] = face
            return face
        }
    }

    /// Keeps the two biggest faces of the frame just processed as face 1 and face 2, the bigger first.
    /// - Throws: When the frame had fewer than two faces.
    func captureBiggest() throws(StreamMessageError) -> [Face] {
        try contents.withLock { (contents) throws(StreamMessageError) in
            let biggest = contents.seen.sorted { $0.bounds.width * $0.bounds.height > $1.bounds.width * $1.bounds.height }.prefix(2)
            guard biggest.count == 2 else {
                throw StreamMessageError("\(contents.seen.isEmpty ? "no face" : "one face") in the frame just shown: two are needed to pick both")
            }
            for (slot, face) in zip(Self.slots, biggest) { contents.picked[slot] = face }
            return Array(biggest)
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

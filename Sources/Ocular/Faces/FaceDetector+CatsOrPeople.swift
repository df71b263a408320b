import Foundation

// Cats and people told apart where both searches claim one face: the face networks score many cats'
// faces as people's (YuNet up to 0.97), and the cat cascade fires on some people's faces too.
extension FaceDetector {
    /// The network's faces that are people's, and the cat windows (search coordinates) that are cats:
    /// a network face a cat window covers (IoU ≥ ``FaceDetectionProfile/catOverNetworkFace``) is the
    /// cat's unless the human face cascade, run on it turned upright, sees a person there; a cat window
    /// touching any remaining person's face is the person's.
    func catsAndPeople(cats: [Candidate], people: [Face], boxes: [PixelRectangle],
                       in image: Image) throws(OcularError) -> (cats: [Candidate], people: [Face]) {
        var kept: [(face: Face, box: PixelRectangle)] = []
        for (face, box) in zip(people, boxes) {
            let covered = cats.contains { $0.box.intersectionOverUnion(box) >= profile.catOverNetworkFace }
            if covered, try !humanCascadeSees(face, in: image) { continue }
            kept.append((face, box))
        }
        return (Self.cats(cats, besides: kept.map(\.box), at: \.box), kept.map(\.face))
    }

    /// Whether the human face cascade finds a face where `face` is, on a copy turned upright by its
    /// eye line with the face ``personCheckWidth`` pixels wide and a third of its size around it.
    func humanCascadeSees(_ face: Face, in image: Image) throws(OcularError) -> Bool {
        let width = Double(Self.personCheckWidth)
        let scale = width / Double(max(face.bounds.width, 1))
        let side = Int((width * 5 / 3).rounded())
        let gray = try Self.uprightGray(of: image, around: face.bounds, tilt: face.angle, scale: scale, width: side, height: side)
            .equalized(.histogram)
        let sizes = max(humanFace.windowWidth, Int(width * 0.6))...Int(width * 1.5)
        return try !humanFace.detect(in: gray, scaleStep: 1.1, minimumNeighbours: 3, sizes: sizes).isEmpty
    }

    /// The width a contested face is brought to for the human cascade: its 20-pixel window fits a
    /// face there at every step of a 1.1 search, for a few milliseconds.
    static let personCheckWidth = 80
}

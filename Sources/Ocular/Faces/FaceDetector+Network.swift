import Foundation

extension FaceDetector {
    /// Below this width (frame pixels) a face's smile is not sought: the smile cascade's 36 × 18 window
    /// then spans more than the mouth it would be enlarged from.
    static let smallestSmilingFace = 40

    /// People's faces the profile's network finds in the whole picture, each with the network's eyes,
    /// nose and mouth, and a smile where the face is big enough for the smile cascade.
    /// - Parameter longestSide: The long side the picture is shrunk to; nil: the profile's.
    func networkFaces(in image: Image, _ network: FaceNetwork, longestSide: Int? = nil) throws(OcularError) -> [Face] {
        guard let settings = profile.network else { return [] }
        let (width, height) = Self.networkInput(width: image.width, height: image.height, longestSide: longestSide ?? settings.longestSide)
        let found = try network.faces(in: image, width: width, height: height, threshold: settings.threshold, overlap: settings.overlap)
        var faces: [Face] = []
        for face in found { if let face = try self.face(from: face, in: image, settings: settings) { faces.append(face) } }
        return faces
    }

    /// The network's input for a picture: shrunk (never enlarged) until its long side is at most
    /// `longestSide`, each side then rounded up to a multiple of 32 as the network's strides need.
    static func networkInput(width: Int, height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let shrink = min(1, Double(longestSide) / Double(max(width, height, 1)))
        func multipleOf32(_ side: Int) -> Int { max(32, (Int((Double(side) * shrink).rounded()) + 31) / 32 * 32) }
        return (multipleOf32(width), multipleOf32(height))
    }

    /// A face the network found, as Ocular reports faces: the square box the cascades and the labels
    /// use, its pixels, landmarks in face coordinates; nil when the box lies outside the picture.
    func face(from found: NetworkFace, in image: Image, settings: FaceDetectionProfile.NetworkSearch) throws(OcularError) -> Face? {
        let side = found.box.width * settings.boxScale
        let centreX = found.box.x + found.box.width / 2, centreY = found.box.y + found.box.height / 2 - settings.boxRise * found.box.height
        let square = PixelRectangle(x: Int((centreX - side / 2).rounded()), y: Int((centreY - side / 2).rounded()),
                                    width: max(1, Int(side.rounded())), height: max(1, Int(side.rounded())))
        guard let bounds = square.clipped(toWidth: image.width, height: image.height) else { return nil }
        let pixels = try image.cropped(to: bounds)
        let marks = found.landmarks.map { Point(x: $0.x - Double(bounds.x), y: $0.y - Double(bounds.y)) }
        let mouth = Point(x: (marks[3].x + marks[4].x) / 2, y: (marks[3].y + marks[4].y) / 2)
        var smiles = false
        if smile != nil, bounds.width >= Self.smallestSmilingFace {
            let gray = try pixels.converted(to: .gray8).equalized(.histogram)
            smiles = try findMouth(gray: gray, grayBox: PixelRectangle(x: 0, y: 0, width: gray.width, height: gray.height), scale: 1).1
        }
        return Face(species: .human, image: pixels, bounds: bounds, leftEye: marks[0], rightEye: marks[1], nose: marks[2], mouth: mouth,
                    smile: smiles, confidence: found.score)
    }

    /// A followed person's face looked for again around where it was: the network run on the square
    /// `margin` of the face's size beyond it on each side, shrunk to the profile's follow side. The
    /// face nearest the old one (IoU ≥ 0.3) is the same face; nil when there is none.
    func networkFace(near previous: PixelRectangle, margin: Double, in image: Image, _ network: FaceNetwork) throws(OcularError) -> Face? {
        guard let settings = profile.network, previous.width > 0 else { return nil }
        let side = Double(max(previous.width, previous.height)) * (1 + 2 * margin)
        let centreX = Double(previous.x) + Double(previous.width) / 2, centreY = Double(previous.y) + Double(previous.height) / 2
        let around = PixelRectangle(x: Int((centreX - side / 2).rounded()), y: Int((centreY - side / 2).rounded()),
                                    width: Int(side.rounded()), height: Int(side.rounded()))
        guard let region = around.clipped(toWidth: image.width, height: image.height), region.width >= 8, region.height >= 8 else { return nil }
        let crop = try image.cropped(to: region)
        let (width, height) = Self.networkInput(width: region.width, height: region.height, longestSide: settings.followSide)
        let found = try network.faces(in: crop, width: width, height: height, threshold: settings.threshold, overlap: settings.overlap)
        var faces: [Face] = []
        for face in found {
            var inFrame = face
            inFrame.box.x += Double(region.x)
            inFrame.box.y += Double(region.y)
            inFrame.landmarks = face.landmarks.map { Point(x: $0.x + Double(region.x), y: $0.y + Double(region.y)) }
            if let face = try self.face(from: inFrame, in: image, settings: settings) { faces.append(face) }
        }
        let best = faces.max { $0.bounds.intersectionOverUnion(previous) < $1.bounds.intersectionOverUnion(previous) }
        guard let best, best.bounds.intersectionOverUnion(previous) >= 0.3 else { return nil }
        return best
    }
}

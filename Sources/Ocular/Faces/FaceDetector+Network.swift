import Foundation

extension FaceDetector {
    /// Below this width (frame pixels) a face's smile is not sought: the smile cascade's 36 × 18 window
    /// then spans more than the mouth it would be enlarged from.
    static let smallestSmilingFace = 40

    /// People's faces the profile's network finds in the whole picture, each with the network's eyes,
    /// nose and mouth, and a smile where the face is big enough for the smile cascade. With a check
    /// (``FaceDetectionProfile/NetworkCheck``), the network's unsure faces are kept only where the
    /// checking network finds a face too.
    /// - Parameter longestSide: The long side the picture is shrunk to; nil: the profile's.
    func networkFaces(in image: Image, _ network: FaceNetwork, longestSide: Int? = nil) throws(OcularError) -> [Face] {
        guard let settings = profile.network else { return [] }
        let check = checkNetwork.flatMap { checker in profile.networkCheck.map { (checker, $0) } }
        let (width, height) = Self.networkInput(width: image.width, height: image.height, longestSide: longestSide ?? settings.longestSide)
        let found = try network.faces(in: image, width: width, height: height, threshold: check?.1.candidates ?? settings.threshold,
                                      overlap: settings.overlap)
        var faces: [Face] = []
        // Surest first: a face the check sees beside an unsure one may be a face already kept, which
        // confirms nothing about the unsure one (a box on a tilted head's cheek, beside the head).
        for var face in found.sorted(by: { $0.score > $1.score }) {
            if let (checker, check) = check {
                guard let square = Self.square(of: face, settings).clipped(toWidth: image.width, height: image.height) else { continue }
                // The check's run on the square around the face: what it sees there that is not a face kept already.
                func seen(side: Int) throws(OcularError) -> [(found: NetworkFace, square: PixelRectangle)] {
                    var settings = check.network
                    settings.followSide = side
                    return try networkFaces(near: square, margin: check.margin, in: image, checker, settings).filter { seen in
                        seen.square.intersectionOverUnion(square) >= Self.sameFace
                            && !faces.contains { $0.bounds.intersectionOverUnion(seen.square) >= Self.sameFace }
                    }
                }
                if face.score < check.sure, try seen(side: check.network.followSide).isEmpty { continue }
                if abs(Self.eyeLineAngle(face)) >= check.turnedEyes,
                   let best = try seen(side: check.landmarkSide).max(by: { $0.square.intersectionOverUnion(square) < $1.square.intersectionOverUnion(square) }) {
                    face.landmarks = best.found.landmarks
                }
            }
            if let face = try self.face(from: face, in: image, settings: settings) { faces.append(face) }
        }
        return faces
    }

    /// The turn of the line from the viewer's left eye to the right one, in degrees clockwise on screen.
    static func eyeLineAngle(_ face: NetworkFace) -> Double {
        atan2(face.landmarks[1].y - face.landmarks[0].y, face.landmarks[1].x - face.landmarks[0].x) * 180 / .pi
    }

    /// Two networks' squares (or a followed face's old and new) this close (IoU) are one face.
    static let sameFace = 0.3

    /// The network's input for a picture: shrunk (never enlarged) until its long side is at most
    /// `longestSide`, each side then rounded up to a multiple of 32 as the network's strides need.
    static func networkInput(width: Int, height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let shrink = min(1, Double(longestSide) / Double(max(width, height, 1)))
        func multipleOf32(_ side: Int) -> Int { max(32, (Int((Double(side) * shrink).rounded()) + 31) / 32 * 32) }
        return (multipleOf32(width), multipleOf32(height))
    }

    /// The square box the cascades and the labels use around a face the network boxed its own way.
    static func square(of found: NetworkFace, _ settings: FaceDetectionProfile.NetworkSearch) -> PixelRectangle {
        let side = found.box.width * settings.boxScale
        let centreX = found.box.x + found.box.width / 2, centreY = found.box.y + found.box.height / 2 - settings.boxRise * found.box.height
        return PixelRectangle(x: Int((centreX - side / 2).rounded()), y: Int((centreY - side / 2).rounded()),
                              width: max(1, Int(side.rounded())), height: max(1, Int(side.rounded())))
    }

    /// A face the network found, as Ocular reports faces: the square box (``square(of:_:)``), its
    /// pixels, landmarks in face coordinates; nil when the box lies outside the picture.
    func face(from found: NetworkFace, in image: Image, settings: FaceDetectionProfile.NetworkSearch) throws(OcularError) -> Face? {
        guard let bounds = Self.square(of: found, settings).clipped(toWidth: image.width, height: image.height) else { return nil }
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

    /// The faces `network` finds on the square `margin` of `box`'s size beyond it on each side, shrunk
    /// to the settings' follow side, in frame coordinates with their squares clipped to the frame
    /// (a face whose square lies outside it is left out).
    func networkFaces(near box: PixelRectangle, margin: Double, in image: Image, _ network: FaceNetwork,
                      _ settings: FaceDetectionProfile.NetworkSearch) throws(OcularError) -> [(found: NetworkFace, square: PixelRectangle)] {
        guard box.width > 0 else { return [] }
        let side = Double(max(box.width, box.height)) * (1 + 2 * margin)
        let centreX = Double(box.x) + Double(box.width) / 2, centreY = Double(box.y) + Double(box.height) / 2
        let around = PixelRectangle(x: Int((centreX - side / 2).rounded()), y: Int((centreY - side / 2).rounded()),
                                    width: Int(side.rounded()), height: Int(side.rounded()))
        guard let region = around.clipped(toWidth: image.width, height: image.height), region.width >= 8, region.height >= 8 else { return [] }
        let crop = try image.cropped(to: region)
        let (width, height) = Self.networkInput(width: region.width, height: region.height, longestSide: settings.followSide)
        return try network.faces(in: crop, width: width, height: height, threshold: settings.threshold, overlap: settings.overlap).compactMap { face in
            var inFrame = face
            inFrame.box.x += Double(region.x)
            inFrame.box.y += Double(region.y)
            inFrame.landmarks = face.landmarks.map { Point(x: $0.x + Double(region.x), y: $0.y + Double(region.y)) }
            return Self.square(of: inFrame, settings).clipped(toWidth: image.width, height: image.height).map { (inFrame, $0) }
        }
    }

    /// A followed person's face looked for again around where it was (``networkFaces(near:margin:in:_:_:)``),
    /// by the network that found it: CenterFace boxes a face otherwise than YuNet does, and checking
    /// YuNet's faces with it lost the motion sweep's loosely labelled faces (666 of 676, 22 false boxes,
    /// against YuNet's 676 and 12). The face nearest the old one (IoU ≥ ``sameFace``) is the same face;
    /// nil when there is none.
    func networkFace(near previous: PixelRectangle, margin: Double, in image: Image) throws(OcularError) -> Face? {
        guard let network, let settings = profile.network else { return nil }
        let found = try networkFaces(near: previous, margin: margin, in: image, network, settings)
        guard let best = found.max(by: { $0.square.intersectionOverUnion(previous) < $1.square.intersectionOverUnion(previous) }),
              best.square.intersectionOverUnion(previous) >= Self.sameFace else { return nil }
        return try face(from: best.found, in: image, settings: settings)
    }
}

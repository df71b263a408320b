import Foundation

// A found face's landmarks: eyes by their cascades (or by proportion), the nose from the eye line, the
// mouth and smile by the smile cascade.
extension FaceDetector {
    /// The face at `box` (search coordinates) with its landmarks, its pixels cut from `image`.
    /// - Parameter tilt: How far the face leans (degrees clockwise), as the search that found it says.
    func face(_ species: Species, at box: PixelRectangle, tilt: Double = 0, in search: SearchImage, of image: Image,
              confidence: Double = 1) throws(OcularError) -> Face {
        if species == .cat {
            // A cat is boxed as the Cat Dataset boxes it, ears and all, not as the cascade's window.
            return try catFace(around: profile.layout.catFace(inWindow: box).scaled(by: 1 / search.scale), of: image).with(confidence: confidence)
        }
        let bounds = search.inFrame(box)
        guard profile.landmarkFaceWidth == nil else {
            return try face(species, bounds: bounds, tilt: tilt, of: image).with(confidence: confidence)
        }
        // The textbook's way: eyes sought in the detection copy itself.
        let searchBox = box.clipped(toWidth: search.gray.width, height: search.gray.height) ?? box
        return try humanFace(bounds: bounds, pixels: try image.cropped(to: bounds), gray: search.gray, grayBox: searchBox,
                             scale: search.scale).with(confidence: confidence)
    }

    /// The face at `bounds` (frame pixels) with its landmarks searched in its own gray copy, turned
    /// upright by `tilt`: at the profile's landmark width, or else at its detection scale.
    func face(_ species: Species, bounds: PixelRectangle, tilt: Double = 0, of image: Image) throws(OcularError) -> Face {
        guard species == .human else { return try catFace(around: bounds, of: image) }
        let pixels = try image.cropped(to: bounds)
        let width = profile.landmarkFaceWidth ?? max(1, Int((Double(bounds.width) * profile.detectionScale).rounded()))
        let scale = Double(width) / Double(bounds.width)
        let height = max(1, Int((Double(bounds.height) * scale).rounded()))
        // Landmarks are found in an upright copy; equalised there, as the eyes fill much of it.
        let landmarkEqualization = profile.equalization == .none ? .histogram : profile.equalization
        let gray: Image
        if tilt == 0 {
            gray = try pixels.converted(to: .gray8).resized(width: width, height: height).equalized(landmarkEqualization)
        } else {
            gray = try Self.uprightGray(of: image, around: bounds, tilt: tilt, scale: scale, width: width, height: height)
                .equalized(landmarkEqualization)
        }
        let upright = try humanFace(bounds: bounds, pixels: pixels, gray: gray,
                                    grayBox: PixelRectangle(x: 0, y: 0, width: gray.width, height: gray.height), scale: scale)
        return tilt == 0 ? upright : upright.landmarksTurned(by: tilt)
    }

    /// A gray copy `width` × `height` of `image` around `box`'s centre, turned back by `tilt` (degrees
    /// clockwise) so that a face leaning by it stands upright, and scaled by `scale`.
    static func uprightGray(of image: Image, around box: PixelRectangle, tilt: Double, scale: Double, width: Int,
                            height: Int) throws(OcularError) -> Image {
        let centre = Point(x: Double(box.x) + Double(box.width) / 2, y: Double(box.y) + Double(box.height) / 2)
        let turn = AffineMatrix.rotation(by: -tilt, about: centre).coefficients
        let toCopy = try AffineMatrix(coefficients: [
            turn[0] * scale, turn[1] * scale, (turn[2] - centre.x) * scale + Double(width) / 2,
            turn[3] * scale, turn[4] * scale, (turn[5] - centre.y) * scale + Double(height) / 2,
        ])
        return try image.converted(to: .gray8).warped(by: toCopy, width: width, height: height, replicatingEdges: true)
    }

    /// The cat whose whole face box (frame pixels, ears and all) is `whole`, cut to the frame. The cat
    /// cascade finds no eyes: a cat's face is laid out well enough by proportion, of the whole box, as
    /// the frame cuts a close-up's ears.
    func catFace(around whole: PixelRectangle, of image: Image) throws(OcularError) -> Face {
        let bounds = whole.clipped(toWidth: image.width, height: image.height) ?? whole
        let layout = profile.layout
        func inFace(_ point: Point) -> Point {
            Point(x: point.x * Double(whole.width) + Double(whole.x - bounds.x), y: point.y * Double(whole.height) + Double(whole.y - bounds.y))
        }
        return Face(species: .cat, image: try image.cropped(to: bounds), bounds: bounds, leftEye: inFace(layout.catLeftEye),
                    rightEye: inFace(layout.catRightEye), nose: inFace(layout.catNose), mouth: inFace(layout.catMouth))
    }

    /// A human face with its landmarks.
    /// - Parameters:
    ///   - bounds: The face in frame pixels.
    ///   - pixels: The face cut from the frame.
    ///   - gray: An equalised gray image holding the face at `grayBox`, `scale` of the frame's size.
    func humanFace(bounds: PixelRectangle, pixels: Image, gray: Image, grayBox: PixelRectangle, scale: Double) throws(OcularError) -> Face {
        let width = Double(bounds.width), height = Double(bounds.height)
        // Eyes: the viewer's left eye in the face's left half, the right eye in its right half.
        let half = grayBox.width / 2
        let top = grayBox.y + Int(Double(grayBox.height) * profile.eyeRows.lowerBound)
        let rows = max(1, Int(Double(grayBox.height) * profile.eyeRows.upperBound) - (top - grayBox.y))
        let leftHalf = PixelRectangle(x: grayBox.x, y: top, width: half, height: rows)
        let rightHalf = PixelRectangle(x: grayBox.x + half, y: top, width: grayBox.width - half, height: rows)
        let smallestEye = max(1, Int(Double(grayBox.width) * profile.eyes.minimumSize))
        let eyeSizes = smallestEye...max(smallestEye, profile.largestEye.map { Int(Double(grayBox.width) * $0) } ?? Int.max)
        func eye(_ cascade: Cascade, in half: PixelRectangle) throws(OcularError) -> PixelRectangle? {
            let found = try cascade.detect(in: gray, region: half, scaleStep: profile.eyes.scaleStep,
                                           minimumNeighbours: profile.eyes.minimumNeighbours, sizes: eyeSizes)
            guard let best = found.max(by: { $0.neighbours < $1.neighbours }) else { return nil }
            return faceBox(best.bounds, grayBox: grayBox, scale: scale)
        }
        let leftEyeBox = try eye(leftEye, in: leftHalf)
        let rightEyeBox = try eye(rightEye, in: rightHalf)
        // The centre of an eye within its box; a missed eye is placed by proportion.
        let layout = profile.layout
        func centre(_ box: PixelRectangle?, missed: Point) -> Point {
            guard let box else { return Point(x: missed.x * width, y: missed.y * height) }
            return Point(x: Double(box.x) + layout.eyeInBox.x * Double(box.width), y: Double(box.y) + layout.eyeInBox.y * Double(box.height))
        }
        let left = centre(leftEyeBox, missed: layout.missedLeftEye), right = centre(rightEyeBox, missed: layout.missedRightEye)
        // The nose tip: from between the eyes along the eye line's normal.
        let dx = right.x - left.x, dy = right.y - left.y
        let length = (dx * dx + dy * dy).squareRoot()
        let normal = length > 0 ? Point(x: -dy / length, y: dx / length) : Point(x: 0, y: 1)
        let nose = Point(x: (left.x + right.x) / 2 + normal.x * layout.noseDrop * height,
                         y: (left.y + right.y) / 2 + normal.y * layout.noseDrop * height)
        let (mouth, smiles) = try findMouth(gray: gray, grayBox: grayBox, scale: scale)
        return Face(species: .human, image: pixels, bounds: bounds, leftEye: left, rightEye: right, nose: nose,
                    leftEyeBounds: leftEyeBox, rightEyeBounds: rightEyeBox, mouth: mouth, smile: smiles)
    }

    /// The mouth (face coordinates) in the lower face, and whether it smiles.
    func findMouth(gray: Image, grayBox: PixelRectangle, scale: Double) throws(OcularError) -> (Point?, Bool) {
        guard let smile else { return (nil, false) }
        let width = profile.layout.mouthFaceWidth
        let shrink = Double(width) / Double(grayBox.width)
        let face = try gray.cropped(to: grayBox).resized(width: width, height: max(1, Int((Double(grayBox.height) * shrink).rounded())))
        let lower = PixelRectangle(x: width / 10, y: face.height * 11 / 20, width: width * 8 / 10, height: face.height - face.height * 11 / 20)
        guard lower.width >= smile.windowWidth, lower.height >= smile.windowHeight else { return (nil, false) }
        let found = try smile.detect(in: face, region: lower, scaleStep: 1.2, minimumNeighbours: profile.layout.mouthNeighbours,
                                     sizes: smile.windowWidth...max(smile.windowWidth, width * 7 / 10))
        guard let best = found.max(by: { $0.neighbours < $1.neighbours }) else { return (nil, false) }
        // From the shrunken face to the frame's scale.
        let toFace = 1 / (shrink * scale)
        let centre = Point(x: (Double(best.bounds.x) + 0.5 * Double(best.bounds.width)) * toFace,
                           y: (Double(best.bounds.y) + 0.5 * Double(best.bounds.height)) * toFace)
        return (centre, best.neighbours >= profile.layout.smileNeighbours)
    }

    /// A box found in the search image, in face coordinates at frame scale.
    func faceBox(_ box: PixelRectangle, grayBox: PixelRectangle, scale: Double) -> PixelRectangle {
        box.offsetBy(dx: -grayBox.x, dy: -grayBox.y).scaled(by: 1 / scale)
    }
}

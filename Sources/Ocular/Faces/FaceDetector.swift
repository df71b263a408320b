/// Finds human and cat faces in a picture with OpenCV's cascades (SPEC §4), each frame on its own.
/// For streams, ``FaceTracker`` follows faces between frames instead.
///
/// Loading is done once per cascade file and process; a detector is cheap to make after that and
/// may be shared between threads (searches of one cascade take turns).
public struct FaceDetector: Sendable {
    public let profile: FaceDetectionProfile
    let humanFace: Cascade
    let catFace: Cascade?
    /// For the eye on the viewer's left and the one on the viewer's right.
    let leftEye: Cascade
    let rightEye: Cascade
    let smile: Cascade?

    /// - Parameters:
    ///   - profile: The numbers to search with.
    ///   - cascades: The files; by default OpenCV's shipped ones of the profile's kind.
    /// - Throws: ``OcularError/unusableCascade(role:path:reason:)`` naming a missing or unreadable file.
    public init(profile: FaceDetectionProfile = .standard, cascades: FaceCascades? = nil) throws(OcularError) {
        let files = cascades ?? .shipped(profile.cascadeKind)
        self.profile = profile
        humanFace = try Cascade.load(files.humanFace, role: "human face")
        catFace = profile.catFaces == nil ? nil : try Cascade.load(files.catFace, role: "cat face")
        // The eye on the viewer's left is the subject's right eye.
        leftEye = try Cascade.load(files.subjectsRightEye, role: "right eye")
        rightEye = try Cascade.load(files.subjectsLeftEye, role: "left eye")
        smile = profile.findsMouth ? try Cascade.load(files.smile, role: "smile") : nil
    }

    /// Every face in `image`, humans first, each kind in the cascade's order.
    public func faces(in image: Image) throws(OcularError) -> [Face] {
        try faces(in: image, closeUpCats: profile.findsCloseUpCats)
    }

    /// - Parameter closeUpCats: Whether to look for a close-up cat when nothing else is found.
    func faces(in image: Image, closeUpCats lookForCloseUps: Bool) throws(OcularError) -> [Face] {
        let search = try SearchImage(image, profile: profile)
        var found = try wholeImageFaces(in: search)
        if found.isEmpty, lookForCloseUps {
            found = try closeUpCats(in: search)
        }
        return try found.map { (species, box) throws(OcularError) in
            try face(species, at: box, in: search, of: image)
        }
    }

    /// The biggest face by area: "the" face of a picture (SPEC §4), or nil when there is none.
    public func biggestFace(in image: Image) throws(OcularError) -> Face? {
        Face.biggest(of: try faces(in: image))
    }

    /// The biggest face of a picture that must have one.
    /// - Throws: ``OcularError/noFace(in:)`` with `name` (e.g. "'me.png'") when it has none.
    public func biggestFace(in image: Image, named name: String) throws(OcularError) -> Face {
        guard let face = try biggestFace(in: image) else { throw .noFace(in: name) }
        return face
    }

    // MARK: - Searching

    /// The frame as the cascades see it: gray, scaled by the profile's detection scale, equalised.
    struct SearchImage {
        let gray: Image
        /// The same before equalisation.
        let unequalized: Image
        /// Search pixels per frame pixel.
        let scale: Double
        let frameWidth: Int
        let frameHeight: Int

        init(_ image: Image, profile: FaceDetectionProfile) throws(OcularError) {
            // Gray first: one channel to shrink instead of three, and YUV frames give their Y plane.
            let shortSide = Double(min(image.width, image.height))
            let floor = min(1, Double(profile.minimumDetectionShortSide) / max(shortSide, 1))
            let gray = try image.converted(to: .gray8).scaled(by: max(profile.detectionScale, floor))
            unequalized = gray
            self.gray = try gray.equalized(profile.equalization)
            scale = Double(gray.width) / Double(image.width)
            frameWidth = image.width
            frameHeight = image.height
        }

        /// A box of the search image in frame pixels, clipped to the frame.
        func inFrame(_ box: PixelRectangle) -> PixelRectangle {
            let frame = box.scaled(by: 1 / scale)
            return frame.clipped(toWidth: frameWidth, height: frameHeight) ?? frame
        }
    }

    /// Human faces, then cat faces that touch no human face (the human cascade is the more reliable).
    func wholeImageFaces(in search: SearchImage) throws(OcularError) -> [(Species, PixelRectangle)] {
        let shortSide = min(search.gray.width, search.gray.height)
        let humans = try Self.boxes(humanFace, in: search.gray, search: profile.humanFaces, shortSide: shortSide)
        var found = humans.map { (Species.human, $0) }
        if let catFace, let cats = profile.catFaces {
            let catBoxes = try Self.boxes(catFace, in: search.gray, search: cats, shortSide: shortSide)
            found += catBoxes.filter { cat in !humans.contains { $0.intersects(cat) } }.map { (Species.cat, $0) }
        }
        return found
    }

    /// How close-up cats are sought: the gray frame shrunk to `shortSides`, each inside grey borders
    /// of `borders` (fractions of the short side); the cat cascade, trained on whole heads, answers a
    /// face whose ears are cut off only weakly and only at some sizes, so a face counts where at
    /// least `votes` of the searches agree (IoU ≥ 0.5). Boxes from 0.6 to 1.25 of the short side.
    /// Measured on the shared pictures: chelsea.png 4 votes (steps of 1.1 find nothing), the others
    /// none; about 30 ms a picture, so streams run it only now and then (``FaceTracker``).
    struct CloseUpSearch {
        var shortSides = [48, 56, 64, 72]
        var borders = [0.25, 0.5]
        var votes = 3
        var scaleStep = 1.05
    }

    /// Cat faces that fill the frame (chelsea.png), found by shrinking the frame inside a grey border
    /// so the cascade sees room where the ears would be. Boxes are in the search image's coordinates
    /// and may reach past its edges; they are clipped when turned into frame coordinates.
    func closeUpCats(in search: SearchImage, _ closeUp: CloseUpSearch = CloseUpSearch()) throws(OcularError) -> [(Species, PixelRectangle)] {
        guard let catFace, profile.catFaces != nil else { return [] }
        let gray = search.unequalized
        let shortSide = Double(min(gray.width, gray.height))
        var candidates: [PixelRectangle] = []
        for side in closeUp.shortSides {
            let shrink = Double(side) / shortSide
            guard shrink < 1 else { continue }
            let small = try gray.scaled(by: shrink, averaging: true)
            for border in closeUp.borders {
                let pad = Int(border * Double(side))
                let padded = try small.padded(left: pad, top: pad, right: pad, bottom: pad, value: 128)
                let found = try catFace.detect(in: padded, scaleStep: closeUp.scaleStep, minimumNeighbours: 2,
                                               sizes: max(catFace.windowWidth, side * 6 / 10)...max(catFace.windowWidth, side * 5 / 4))
                candidates += found.map { $0.bounds.offsetBy(dx: -pad, dy: -pad).scaled(by: 1 / shrink) }
            }
        }
        // The best-supported box, averaged over the searches that agree with it.
        let supported = candidates.map { box in candidates.filter { $0.intersectionOverUnion(box) >= 0.5 } }
        guard let agreeing = supported.max(by: { $0.count < $1.count }), agreeing.count >= closeUp.votes else { return [] }
        func mean(_ value: (PixelRectangle) -> Int) -> Int { (agreeing.map(value).reduce(0, +) + agreeing.count / 2) / agreeing.count }
        return [(.cat, PixelRectangle(x: mean(\.x), y: mean(\.y), width: mean(\.width), height: mean(\.height)))]
    }

    static func boxes(_ cascade: Cascade, in gray: Image, search: FaceDetectionProfile.CascadeSearch,
                      shortSide: Int) throws(OcularError) -> [PixelRectangle] {
        let smallest = max(cascade.windowWidth, Int(Double(shortSide) * search.minimumSize))
        return try cascade.detect(in: gray, scaleStep: search.scaleStep, minimumNeighbours: search.minimumNeighbours,
                                  sizes: smallest...Int.max).map(\.bounds)
    }

    // MARK: - Landmarks

    /// The face at `box` (search coordinates) with its landmarks, its pixels cut from `image`.
    func face(_ species: Species, at box: PixelRectangle, in search: SearchImage, of image: Image) throws(OcularError) -> Face {
        let bounds = search.inFrame(box)
        guard species == .human, profile.landmarkFaceWidth == nil else { return try face(species, bounds: bounds, of: image) }
        // The textbook's way: eyes sought in the detection copy itself.
        let searchBox = box.clipped(toWidth: search.gray.width, height: search.gray.height) ?? box
        return try humanFace(bounds: bounds, pixels: try image.cropped(to: bounds), gray: search.gray, grayBox: searchBox,
                             scale: search.scale)
    }

    /// The face at `bounds` (frame pixels) with its landmarks searched in its own gray copy: at the
    /// profile's landmark width, or else at its detection scale.
    func face(_ species: Species, bounds: PixelRectangle, of image: Image) throws(OcularError) -> Face {
        let pixels = try image.cropped(to: bounds)
        guard species == .human else { return Self.catFace(species, bounds: bounds, pixels: pixels) }
        let width = profile.landmarkFaceWidth ?? max(1, Int((Double(bounds.width) * profile.detectionScale).rounded()))
        let scale = Double(width) / Double(bounds.width)
        let gray = try pixels.converted(to: .gray8)
            .resized(width: width, height: max(1, Int((Double(bounds.height) * scale).rounded())))
            .equalized(profile.equalization)
        return try humanFace(bounds: bounds, pixels: pixels, gray: gray,
                             grayBox: PixelRectangle(x: 0, y: 0, width: gray.width, height: gray.height), scale: scale)
    }

    /// The cat cascade finds no eyes; a cat's face is laid out well enough by proportion.
    static func catFace(_ species: Species, bounds: PixelRectangle, pixels: Image) -> Face {
        let width = Double(bounds.width), height = Double(bounds.height)
        return Face(species: species, image: pixels, bounds: bounds,
                    leftEye: Point(x: 0.25 * width, y: 0.4 * height), rightEye: Point(x: 0.75 * width, y: 0.4 * height),
                    nose: Point(x: 0.5 * width, y: 0.75 * height))
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
        // The centre of an eye is at (0.5, 0.65) of its box; a missed eye is estimated by proportion.
        func centre(_ box: PixelRectangle?, estimateX: Double) -> Point {
            guard let box else { return Point(x: estimateX * width, y: 0.4 * height) }
            return Point(x: Double(box.x) + 0.5 * Double(box.width), y: Double(box.y) + 0.65 * Double(box.height))
        }
        let left = centre(leftEyeBox, estimateX: 0.3), right = centre(rightEyeBox, estimateX: 0.7)
        // The nose tip: from between the eyes along the eye line's normal, 0.2 of the face's height.
        let dx = right.x - left.x, dy = right.y - left.y
        let length = (dx * dx + dy * dy).squareRoot()
        let normal = length > 0 ? Point(x: -dy / length, y: dx / length) : Point(x: 0, y: 1)
        let nose = Point(x: (left.x + right.x) / 2 + normal.x * 0.2 * height, y: (left.y + right.y) / 2 + normal.y * 0.2 * height)
        let (mouth, smiles) = try findMouth(gray: gray, grayBox: grayBox, scale: scale)
        return Face(species: .human, image: pixels, bounds: bounds, leftEye: left, rightEye: right, nose: nose,
                    leftEyeBounds: leftEyeBox, rightEyeBounds: rightEyeBox, mouth: mouth, smile: smiles)
    }

    /// The smile cascade runs on the face shrunk to this width: its 36 × 18 window fits a mouth there,
    /// and one run costs a fifth of what it does at the eyes' 100 pixels.
    static let mouthFaceWidth = 72
    /// How many overlapping windows (scale step 1.2, at ``mouthFaceWidth``) make a mouth, and how many
    /// a smile. Measured: astronaut.png's broad smile gathers 17 (9 at 64 pixels, 21 at 90); the
    /// bearded man of Piggy.png, whose mouth the beard hides, none. The shared data has no closed,
    /// visible mouth to set the smile threshold against more finely.
    static let mouthNeighbours = 4
    static let smileNeighbours = 12

    /// The mouth (face coordinates) in the lower face, and whether it smiles.
    func findMouth(gray: Image, grayBox: PixelRectangle, scale: Double) throws(OcularError) -> (Point?, Bool) {
        guard let smile else { return (nil, false) }
        let width = Self.mouthFaceWidth
        let shrink = Double(width) / Double(grayBox.width)
        let face = try gray.cropped(to: grayBox).resized(width: width, height: max(1, Int((Double(grayBox.height) * shrink).rounded())))
        let lower = PixelRectangle(x: width / 10, y: face.height * 11 / 20, width: width * 8 / 10, height: face.height - face.height * 11 / 20)
        guard lower.width >= smile.windowWidth, lower.height >= smile.windowHeight else { return (nil, false) }
        let found = try smile.detect(in: face, region: lower, scaleStep: 1.2, minimumNeighbours: Self.mouthNeighbours,
                                     sizes: smile.windowWidth...max(smile.windowWidth, width * 7 / 10))
        guard let best = found.max(by: { $0.neighbours < $1.neighbours }) else { return (nil, false) }
        // From the shrunken face to the frame's scale.
        let toFace = 1 / (shrink * scale)
        let centre = Point(x: (Double(best.bounds.x) + 0.5 * Double(best.bounds.width)) * toFace,
                           y: (Double(best.bounds.y) + 0.5 * Double(best.bounds.height)) * toFace)
        return (centre, best.neighbours >= Self.smileNeighbours)
    }

    /// A box found in the search image, in face coordinates at frame scale.
    func faceBox(_ box: PixelRectangle, grayBox: PixelRectangle, scale: Double) -> PixelRectangle {
        box.offsetBy(dx: -grayBox.x, dy: -grayBox.y).scaled(by: 1 / scale)
    }
}

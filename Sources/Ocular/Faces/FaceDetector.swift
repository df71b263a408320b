import Foundation
import Synchronization

/// Finds human and cat faces in a picture with OpenCV's cascades, each frame on its own.
/// For streams, ``FaceTracker`` follows faces between frames instead.
///
/// Loading is done once per cascade file and process; a detector is cheap to make after that and
/// may be shared between threads (searches of one cascade take turns).
public struct FaceDetector: Sendable {
    /// The search's constants.
    public let profile: FaceDetectionProfile
    let humanFace: Cascade
    let catFace: Cascade?
    /// For the eye on the viewer's left and the one on the viewer's right.
    let leftEye: Cascade
    let rightEye: Cascade
    let smile: Cascade?
    /// The profile's face network, nil when it has none or its file could not be read.
    let network: FaceNetwork?

    /// - Parameters:
    ///   - profile: The numbers to search with.
    ///   - cascades: The files; by default OpenCV's shipped ones of the profile's kind.
    /// - Throws: ``FaceError/unusableCascade(role:path:reason:)`` naming a missing or unreadable file.
    public init(profile: FaceDetectionProfile = .standard, cascades: FaceCascades? = nil) throws(FaceError) {
        let files = cascades ?? .shipped(profile.cascadeKind)
        self.profile = profile
        humanFace = try Cascade.load(files.humanFace, role: "human face")
        catFace = profile.catFaces == nil ? nil : try Cascade.load(files.catFace, role: "cat face")
        // The eye on the viewer's left is the subject's right eye.
        leftEye = try Cascade.load(files.subjectsRightEye, role: "right eye")
        rightEye = try Cascade.load(files.subjectsLeftEye, role: "left eye")
        smile = profile.findsMouth ? try Cascade.load(files.smile, role: "smile") : nil
        if let settings = profile.network {
            do {
                network = try FaceNetwork.load(settings.model)
            } catch {
                Self.noticeOnce("ocular: \(error.description); finding people's faces with the cascades instead (scripts/fetch-face-model.sh fetches it)")
                network = nil
            }
        } else {
            network = nil
        }
    }

    /// Whether people's faces are found by the profile's network (false: by the human cascade).
    public var usesNetwork: Bool { network != nil }

    private static let noticed = Mutex<Set<String>>([])

    /// Writes `notice` to standard error, the first time only: a missing model is said once per process.
    static func noticeOnce(_ notice: String) {
        guard noticed.withLock({ $0.insert(notice).inserted }) else { return }
        FileHandle.standardError.write(Data((notice + "\n").utf8))
    }

    /// Every face in `image`, humans first, each kind in the cascade's order.
    /// - Parameter image: The picture, in any format.
    /// - Returns: The faces.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func faces(in image: Image) throws(OcularError) -> [Face] {
        try faces(in: image, plan: SearchPlan(tilts: profile.turns, catVotes: profile.findsCatsByVote ? [.fillingTheFrame, .anywhere] : []))
    }

    /// Which searches one look at a whole picture makes: a still gets them all; a stream spreads
    /// them over its whole-frame searches (``FaceTracker``), as together they cost about 0.36 s at 1280×720.
    struct SearchPlan {
        /// The turns the human search is made at (0: upright).
        var tilts: [Double]
        /// The cat searches by vote.
        var catVotes: [CatVote]
        /// The smallest human and cat faces sought (fractions of the short side); nil: the profile's.
        var smallestHuman: Double? = nil
        var smallestCat: Double? = nil
        /// The search image's short side in pixels; nil: the profile's.
        var shortSide: Int? = nil
    }

    func faces(in image: Image, plan: SearchPlan) throws(OcularError) -> [Face] {
        let search = try SearchImage(image, profile: profile, shortSide: plan.shortSide)
        // A stream's searches for large faces only see a smaller copy (the network finds every size at once).
        let networkSide = plan.smallestHuman == nil ? profile.network?.longestSide : profile.network?.streamLongestSide
        let networkHumans = try network.map { (network) throws(OcularError) in try networkFaces(in: image, network, longestSide: networkSide) }
        let networkBoxes = networkHumans?.map { $0.bounds.scaled(by: search.scale) }
        var found = try wholeImageFaces(in: search, plan: plan, humanBoxes: networkBoxes)
        // The plain cascade misses most cats whose ears the frame cuts off or that lean (5 of the
        // sweep's 22): the votes find them (20 of 22, no false box). A cat filling the frame leaves no
        // room for another face, so that vote runs only in an empty frame; a cat box touching a human
        // face is the human's.
        let votes = found.isEmpty && (networkHumans ?? []).isEmpty ? plan.catVotes : plan.catVotes.filter { !$0.fillsTheFrame }
        if !votes.isEmpty, catFace != nil {
            let humans = found.filter { $0.species == .human } + (networkBoxes ?? []).map { Candidate(species: .human, box: $0) }
            var cats = found.filter { $0.species == .cat }.map(\.box)
            // The votes shrink the profile's own search image: from a stream's smaller copy for large
            // faces, a cat filling the frame gathered too few votes (none from Chromium's JPEG of chelsea.png).
            let voting = plan.shortSide == nil ? search : try SearchImage(image, profile: profile)
            for vote in votes { cats += try votedCats(in: voting, vote).map { $0.scaled(by: search.scale / voting.scale) } }
            // Cat faces do not nest: a box mostly inside a bigger one is a part of it (the cascade takes
            // a close-up cat's nose and mouth for a small face).
            let kept = cats.enumerated().filter { index, box in
                !cats.enumerated().contains { other, bigger in
                    other != index && (bigger.width * bigger.height > box.width * box.height || (bigger == box && other < index))
                        && box.fractionInside(bigger) >= 0.7
                }
            }.map(\.element)
            found = found.filter { $0.species == .human } + Self.cats(kept, besides: humans.map(\.box)).map { Candidate(species: .cat, box: $0) }
        }
        if profile.leastCatEdges > 0 {
            var furred: [Candidate] = []
            for candidate in found {
                if candidate.species == .cat, try Self.edgeShare(of: image, in: search.inFrame(candidate.box)) < profile.leastCatEdges { continue }
                furred.append(candidate)
            }
            found = furred
        }
        return try (networkHumans ?? []) + found.map { (candidate) throws(OcularError) in
            try face(candidate.species, at: candidate.box, tilt: candidate.tilt, in: search, of: image, confidence: candidate.confidence)
        }
    }

    /// The share of `box`'s pixels that are edges, on a 64 × 64 gray copy (see ``FaceDetectionProfile/leastCatEdges``).
    static func edgeShare(of image: Image, in box: PixelRectangle) throws(OcularError) -> Double {
        guard let inside = box.clipped(toWidth: image.width, height: image.height) else { return 0 }
        let side = 64
        let edges = try image.cropped(to: inside).converted(to: .gray8).resized(width: side, height: side).cannyEdges(low: 50, high: 150, aperture: 3)
        return Double(edges.bytes.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }) / Double(side * side)
    }

    /// The biggest face by area: "the" face of a picture, or nil when there is none.
    /// - Parameter image: The picture, in any format.
    /// - Returns: The biggest face, or nil.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func biggestFace(in image: Image) throws(OcularError) -> Face? {
        Face.biggest(of: try faces(in: image))
    }

    /// The biggest face of a picture that must have one.
    /// - Parameters:
    ///   - image: The picture.
    ///   - name: How messages name it.
    /// - Returns: Its biggest face.
    /// - Throws: ``FaceError/noFace(in:)`` with `name` (e.g. "'me.png'") when it has none, or the
    ///   ``OcularError`` of a search that failed.
    public func biggestFace(in image: Image, named name: String) throws -> Face {
        guard let face = try biggestFace(in: image) else { throw FaceError.noFace(in: name) }
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

        /// - Parameter shortSide: The copy's short side in pixels, instead of the profile's.
        init(_ image: Image, profile: FaceDetectionProfile, shortSide wanted: Int? = nil) throws(OcularError) {
            // Gray first: one channel to shrink instead of three, and YUV frames give their Y plane.
            let shortSide = Double(min(image.width, image.height))
            let factor: Double
            if let side = wanted ?? profile.detectionShortSide {
                factor = min(1, Double(side) / max(shortSide, 1))
            } else {
                let floor = min(1, Double(profile.minimumDetectionShortSide) / max(shortSide, 1))
                factor = max(profile.detectionScale, floor)
            }
            let gray = try image.converted(to: .gray8).scaled(by: factor, averaging: (wanted ?? profile.detectionShortSide) != nil)
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

    /// A face the whole-image search found: its box in the search image, upright, and how far it was turned.
    struct Candidate {
        var species: Species
        var box: PixelRectangle
        /// The tilt of the search that found it best (degrees, clockwise on screen), 0 for upright.
        var tilt = 0.0
        /// See ``Face/confidence``.
        var confidence = 1.0
    }

    /// Human faces, then cat faces that touch no human face (the human cascade is the more reliable).
    /// - Parameter humanBoxes: People's faces already found (by the network), in search coordinates:
    ///   the human cascade is not run, and only cats are returned.
    func wholeImageFaces(in search: SearchImage, plan: SearchPlan, humanBoxes: [PixelRectangle]? = nil) throws(OcularError) -> [Candidate] {
        let shortSide = min(search.gray.width, search.gray.height)
        let margin = Int(profile.edgeMargin * Double(shortSide))
        let padded = margin > 0 ? try search.gray.padded(left: margin, top: margin, right: margin, bottom: margin, value: 128) : search.gray
        var humanSearch = profile.humanFaces
        if let smallest = plan.smallestHuman { humanSearch.minimumSize = max(humanSearch.minimumSize, smallest) }
        let humans = humanBoxes == nil
            ? try Self.objects(humanFace, in: padded, margin: margin, tilts: plan.tilts, search: humanSearch, shortSide: shortSide) : []
        var found = humans.map { Candidate(species: .human, box: $0.box, tilt: $0.tilt, confidence: $0.confidence) }
        if let catFace, var cats = profile.catFaces {
            if let smallest = plan.smallestCat { cats.minimumSize = max(cats.minimumSize, smallest) }
            let catBoxes = try Self.objects(catFace, in: padded, margin: margin, tilts: [0], search: cats, shortSide: shortSide)
            let humanFaces = humanBoxes ?? humans.map(\.box)
            found += Self.cats(catBoxes, besides: humanFaces, at: \.box).map { Candidate(species: .cat, box: $0.box, confidence: $0.confidence) }
        }
        return found
    }

    /// The cat boxes that touch no human face: one that does is the human's (the human cascade is the
    /// more reliable).
    static func cats(_ cats: [PixelRectangle], besides humans: [PixelRectangle]) -> [PixelRectangle] {
        Self.cats(cats, besides: humans, at: \.self)
    }

    /// The same for cats that carry more than their box (a cascade's confidence): `box` reads it.
    static func cats<Cat>(_ cats: [Cat], besides humans: [PixelRectangle], at box: KeyPath<Cat, PixelRectangle>) -> [Cat] {
        cats.filter { cat in !humans.contains { $0.intersects(cat[keyPath: box]) } }
    }

    /// The objects `cascade` finds in `padded` (the search image inside a border `margin` wide), also
    /// turned by each of `tilts`; boxes of the searches that overlap (IoU ≥ 0.3) are one object,
    /// kept when their neighbours add up to the search's minimum votes, with the box of the search
    /// that had most. Boxes are upright, in the search image's coordinates, and may reach past its edges.
    static func objects(_ cascade: Cascade, in padded: Image, margin: Int, tilts: [Double], search: FaceDetectionProfile.CascadeSearch,
                        shortSide: Int) throws(OcularError) -> [(box: PixelRectangle, tilt: Double, confidence: Double)] {
        let smallest = max(cascade.windowWidth, Int(Double(shortSide) * search.minimumSize))
        var detections: [(box: PixelRectangle, tilt: Double, neighbours: Int)] = []
        for tilt in tilts {
            let centre = Point(x: Double(padded.width) / 2, y: Double(padded.height) / 2)
            let turned = tilt == 0 ? padded : try padded.warped(by: .rotation(by: tilt, about: centre), width: padded.width,
                                                                height: padded.height, replicatingEdges: true)
            let back = AffineMatrix.rotation(by: -tilt, about: centre)
            for found in try cascade.detect(in: turned, scaleStep: search.scaleStep, minimumNeighbours: search.minimumNeighbours,
                                            sizes: smallest...Int.max) {
                let box = found.bounds
                let middle = back.apply(to: Point(x: Double(box.x) + Double(box.width) / 2, y: Double(box.y) + Double(box.height) / 2))
                let upright = PixelRectangle(x: Int((middle.x - Double(box.width) / 2).rounded()) - margin,
                                             y: Int((middle.y - Double(box.height) / 2).rounded()) - margin,
                                             width: box.width, height: box.height)
                // The search turned the picture by `tilt`: the face it found leans the other way.
                detections.append((upright, -tilt, found.neighbours))
            }
        }
        // One search and no vote to count: the cascade's own grouping stands (the textbook's way).
        func confidence(_ votes: Int, least: Int) -> Double { Double(votes) / Double(votes + max(least, 1)) }
        if tilts.count == 1, search.minimumVotes <= 0 {
            return detections.map { ($0.box, $0.tilt, confidence($0.neighbours, least: search.minimumNeighbours)) }
        }
        var objects: [(box: PixelRectangle, tilt: Double, confidence: Double)] = []
        var remaining = detections.sorted { $0.neighbours > $1.neighbours }
        while let strongest = remaining.first {
            let agreeing = remaining.filter { $0.box.intersectionOverUnion(strongest.box) >= 0.3 }
            remaining.removeAll { $0.box.intersectionOverUnion(strongest.box) >= 0.3 }
            let votes = agreeing.reduce(0, { $0 + $1.neighbours })
            if votes >= search.minimumVotes { objects.append((strongest.box, strongest.tilt, confidence(votes, least: search.minimumVotes))) }
        }
        return objects
    }

    /// Cats sought by vote. The cat cascade, trained on whole heads, answers a face whose ears the
    /// frame cuts off (or that fills it) only weakly and only at some sizes; so the gray frame is
    /// shrunk to each of `shortSides`, put inside grey borders of each of `borders` (fractions of the
    /// short side) that give room where ears would be, and searched with few neighbours; a box counts
    /// where at least `votes` of the searches agree on it (IoU ≥ 0.5), averaged over them.
    struct CatVote {
        var shortSides: [Int]
        var borders: [Double]
        var votes: Int
        var scaleStep = 1.05
        /// The smallest box sought, as a fraction of the shrunk copy's short side (0: the cascade's window).
        var smallest: Double
        /// Looks for one cat filling the frame: run only when nothing else was found.
        var fillsTheFrame = false

        /// A cat filling the frame (0.6 to 1.25 of its short side), cheaply: what streams follow such a cat with.
        static let fillingTheFrame = CatVote(shortSides: [48, 56, 64, 72], borders: [0.25, 0.5], votes: 3, smallest: 0.6, fillsTheFrame: true)
        /// Cats of any size (about 0.24 s at 1280×720): chosen on the sweep's cat frames, where it finds
        /// 20 of 22 with no false box (with the Haar cat cascade; 19 with LBP's).
        static let anywhere = CatVote(shortSides: [64, 80, 100, 125, 160, 200], borders: [0.25, 0.5], votes: 4, smallest: 0)
    }

    /// The cats `vote` finds, in the search image's coordinates (boxes may reach past its edges;
    /// they are clipped when turned into frame coordinates).
    func votedCats(in search: SearchImage, _ vote: CatVote) throws(OcularError) -> [PixelRectangle] {
        guard let catFace, profile.catFaces != nil else { return [] }
        let gray = search.unequalized
        let shortSide = Double(min(gray.width, gray.height))
        var candidates: [PixelRectangle] = []
        for side in vote.shortSides {
            let shrink = Double(side) / shortSide
            guard shrink < 1 else { continue }
            let small = try gray.scaled(by: shrink, averaging: true)
            let sizes = max(catFace.windowWidth, Int(vote.smallest * Double(side)))...max(catFace.windowWidth, side * 5 / 4)
            for border in vote.borders {
                let pad = Int(border * Double(side))
                let padded = try small.padded(left: pad, top: pad, right: pad, bottom: pad, value: 128)
                let found = try catFace.detect(in: padded, scaleStep: vote.scaleStep, minimumNeighbours: 2, sizes: sizes)
                candidates += found.map { $0.bounds.offsetBy(dx: -pad, dy: -pad).scaled(by: 1 / shrink) }
            }
        }
        // The best-supported box first, averaged over the searches that agree with it; then the next.
        var cats: [PixelRectangle] = []
        var remaining = candidates
        while !remaining.isEmpty {
            let supported = remaining.map { box in remaining.filter { $0.intersectionOverUnion(box) >= 0.5 } }
            guard let agreeing = supported.max(by: { $0.count < $1.count }), agreeing.count >= vote.votes else { break }
            func mean(_ value: (PixelRectangle) -> Int) -> Int { (agreeing.map(value).reduce(0, +) + agreeing.count / 2) / agreeing.count }
            let cat = PixelRectangle(x: mean(\.x), y: mean(\.y), width: mean(\.width), height: mean(\.height))
            cats.append(cat)
            remaining.removeAll { agreeing.contains($0) || $0.intersectionOverUnion(cat) >= 0.3 }
        }
        return cats
    }

    // MARK: - Landmarks

    /// The face at `box` (search coordinates) with its landmarks, its pixels cut from `image`.
    /// - Parameter tilt: How far the face leans (degrees clockwise), as the search that found it says.
    func face(_ species: Species, at box: PixelRectangle, tilt: Double = 0, in search: SearchImage, of image: Image,
              confidence: Double = 1) throws(OcularError) -> Face {
        let bounds = search.inFrame(box)
        guard species == .human, profile.landmarkFaceWidth == nil else {
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
        let pixels = try image.cropped(to: bounds)
        guard species == .human else { return Self.catFace(species, bounds: bounds, pixels: pixels) }
        let width = profile.landmarkFaceWidth ?? max(1, Int((Double(bounds.width) * profile.detectionScale).rounded()))
        let scale = Double(width) / Double(bounds.width)
        let height = max(1, Int((Double(bounds.height) * scale).rounded()))
        // Landmarks are found in an upright copy; equalised there, as the eyes fill much of it.
        let landmarkEqualization = profile.equalization == .none ? .histogram : profile.equalization
        let gray: Image
        if tilt == 0 {
            gray = try pixels.converted(to: .gray8).resized(width: width, height: height).equalized(landmarkEqualization)
        } else {
            // Frame → upright copy: about the face's centre, turned back by the tilt and scaled.
            let centre = Point(x: Double(bounds.x) + Double(bounds.width) / 2, y: Double(bounds.y) + Double(bounds.height) / 2)
            let turn = AffineMatrix.rotation(by: -tilt, about: centre).coefficients
            let toCopy = try AffineMatrix(coefficients: [
                turn[0] * scale, turn[1] * scale, (turn[2] - centre.x) * scale + Double(width) / 2,
                turn[3] * scale, turn[4] * scale, (turn[5] - centre.y) * scale + Double(height) / 2,
            ])
            gray = try image.converted(to: .gray8).warped(by: toCopy, width: width, height: height, replicatingEdges: true)
                .equalized(landmarkEqualization)
        }
        let upright = try humanFace(bounds: bounds, pixels: pixels, gray: gray,
                                    grayBox: PixelRectangle(x: 0, y: 0, width: gray.width, height: gray.height), scale: scale)
        return tilt == 0 ? upright : upright.landmarksTurned(by: tilt)
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

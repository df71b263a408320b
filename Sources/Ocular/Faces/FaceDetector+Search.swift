import Foundation

// Searching a picture for faces: what one look makes (the plan), the gray search copy, the cascades
// run over it whole or at tilts, and cats kept apart from people.
extension FaceDetector {
    /// Which searches one look at a whole picture makes: a still gets them all; a stream spreads
    /// them over its whole-frame searches (``FaceTracker``), as together they cost about 0.36 s at 1280×720.
    struct SearchPlan {
        /// The turns the human search is made at (0: upright).
        var tilts: [Double]
        /// The cat searches by vote.
        var catVotes: [FaceDetectionProfile.CatVote]
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
                        && box.fractionInside(bigger) >= profile.nestedCatFace
                }
            }.map(\.element)
            // Beside a network's faces, cats and people are told apart below, after the edge check.
            let catsKept = networkBoxes == nil ? Self.cats(kept, besides: humans.map(\.box)) : kept
            found = found.filter { $0.species == .human } + catsKept.map { Candidate(species: .cat, box: $0) }
        }
        if profile.leastCatEdges > 0 {
            var furred: [Candidate] = []
            for candidate in found {
                if candidate.species == .cat, try Self.edgeShare(of: image, in: search.inFrame(candidate.box)) < profile.leastCatEdges { continue }
                furred.append(candidate)
            }
            found = furred
        }
        var people = networkHumans ?? []
        if let networkBoxes {
            let told = try catsAndPeople(cats: found.filter { $0.species == .cat }, people: people, boxes: networkBoxes, in: image)
            people = told.people
            found = found.filter { $0.species == .human } + told.cats
        }
        return try people + found.map { (candidate) throws(OcularError) in
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
    ///   the human cascade is not run, and only cats are returned, whether they touch those faces or not.
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
            // A network's faces and cats are told apart by the caller (a network takes cats for people).
            let catsKept = humanBoxes == nil ? Self.cats(catBoxes, besides: humans.map(\.box), at: \.box) : catBoxes
            found += catsKept.map { Candidate(species: .cat, box: $0.box, confidence: $0.confidence) }
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
            let agreeing = remaining.filter { $0.box.intersectionOverUnion(strongest.box) >= search.sameObject }
            remaining.removeAll { $0.box.intersectionOverUnion(strongest.box) >= search.sameObject }
            let votes = agreeing.reduce(0, { $0 + $1.neighbours })
            if votes >= search.minimumVotes { objects.append((strongest.box, strongest.tilt, confidence(votes, least: search.minimumVotes))) }
        }
        return objects
    }
}

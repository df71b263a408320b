import Synchronization

/// Follows faces through a stream. Between whole-frame searches, each face is looked for only around
/// where it was, in a small copy where it is a few dozen pixels wide; the whole frame is searched
/// again every few frames for faces that arrive, more often while none is followed. Without the
/// profile's ``FaceDetectionProfile/tracking`` every frame is searched whole.
public final class FaceTracker: Sendable {
    public let detector: FaceDetector
    private let state = Mutex(State())

    /// A face being followed: where it was, and the turn of the search that suits it.
    private struct Followed {
        var species: Species
        var bounds: PixelRectangle
        var tilt: Double
    }

    private struct State {
        var frameIndex = 0
        var lastWholeSearch: Int?
        var followed: [Followed] = []
        /// Whole searches since the last that looked for close-up cats.
        var searchesSinceCloseUp = 0
        /// How many whole searches there have been: which tilt the next one searches at.
        var wholeSearches = 0
    }

    /// Every this many whole searches also look for a cat by vote (about 40 ms): every 30 frames at
    /// the default's pace while no face is followed, so a stream does not stall every 5th.
    static let closeUpEvery = 6

    public init(detector: FaceDetector) {
        self.detector = detector
    }

    /// The faces in the next frame of the stream.
    public func faces(in image: Image) throws(OcularError) -> [Face] {
        guard let tracking = detector.profile.tracking else { return try detector.faces(in: image) }
        return try state.withLock { (state) throws(OcularError) -> [Face] in
            defer { state.frameIndex += 1 }
            let sinceWholeSearch = state.lastWholeSearch.map { state.frameIndex - $0 } ?? Int.max
            if !state.followed.isEmpty, sinceWholeSearch < tracking.searchEveryWhileTracking {
                var followed: [Face] = []
                for face in state.followed {
                    if let found = try follow(face.species, from: face.bounds, tilt: face.tilt, in: image, tracking: tracking) {
                        followed.append(found)
                    }
                }
                if !followed.isEmpty {
                    state.followed = followed.map(following)
                    return followed
                }
                // Every face lost at once: look everywhere now rather than wait.
            } else if state.followed.isEmpty, sinceWholeSearch < tracking.searchEveryWhileLost {
                return []
            }
            // One turn per whole search, upright first: a tilted head is found within a few searches,
            // and no frame pays for all of them (together with the cats' ~0.3 s, a visible stall).
            let turns = [0] + detector.profile.tilts
            let closeUp = detector.profile.findsCatsByVote && (state.wholeSearches == 0 || state.searchesSinceCloseUp + 1 >= Self.closeUpEvery)
            var plan = FaceDetector.SearchPlan(tilts: [turns[state.wholeSearches % turns.count]], catVotes: closeUp ? [.fillingTheFrame] : [])
            // Most whole searches skip the smallest faces, which cost most (measured with cv2 at
            // 1280×720: humans from 0.12 in 21 ms instead of 30 from 0.08, cats from 0.3 in 5 instead
            // of 19). Every few look for them too, at each turn in rotation (4 and 3 share no factor).
            if let large = tracking.largeFacesOnly, state.wholeSearches % large.smallFacesEvery != large.smallFacesEvery - 1 {
                plan.smallestHuman = large.smallestHuman
                plan.smallestCat = large.smallestCat
            }
            let faces = try detector.faces(in: image, plan: plan)
            state.searchesSinceCloseUp = closeUp ? 0 : state.searchesSinceCloseUp + 1
            state.wholeSearches += 1
            state.lastWholeSearch = state.frameIndex
            state.followed = faces.map(following)
            return faces
        }
    }

    /// How to follow `face`: at the search turn nearest its eye line's angle (a tilted head is lost
    /// by an upright search around it).
    private func following(_ face: Face) -> Followed {
        let turns = [0] + detector.profile.tilts
        let tilt = face.species == .human ? turns.min { abs($0 - face.angle) < abs($1 - face.angle) } ?? 0 : 0
        return Followed(species: face.species, bounds: face.bounds, tilt: tilt)
    }

    /// The face near `previous` in `image`, or nil when it has gone.
    /// - Parameter tilt: How far the face leaned (degrees clockwise): the search turns its surroundings upright.
    private func follow(_ species: Species, from previous: PixelRectangle, tilt: Double, in image: Image,
                        tracking: FaceDetectionProfile.Tracking) throws(OcularError) -> Face? {
        let profile = detector.profile
        let cascade = species == .cat ? detector.catFace : detector.humanFace
        guard let cascade, previous.width > 0 else { return nil }
        if species == .cat, profile.findsCatsByVote, Double(previous.height) >= 0.6 * Double(min(image.width, image.height)) {
            // A cat filling the frame is found only by the close-up search (the plain cascade misses it
            // around its box too): follow it with that, at its cost, for as long as it stays close.
            let search = try FaceDetector.SearchImage(image, profile: profile)
            guard let box = try detector.votedCats(in: search, .fillingTheFrame).first else { return nil }
            return try detector.face(.cat, at: box, in: search, of: image)
        }
        let marginX = Int(Double(previous.width) * tracking.margin), marginY = Int(Double(previous.height) * tracking.margin)
        let around = PixelRectangle(x: previous.x - marginX, y: previous.y - marginY,
                                    width: previous.width + 2 * marginX, height: previous.height + 2 * marginY)
        guard let region = around.clipped(toWidth: image.width, height: image.height) else { return nil }
        // Working size: the face `workingFaceSize` wide, but never below the cascade's window.
        let working = max(tracking.workingFaceSize, cascade.windowWidth)
        let shrink = min(1, Double(working) / Double(previous.width))
        var gray = try image.cropped(to: region).converted(to: .gray8).scaled(by: shrink).equalized(profile.equalization)
        let middle = Point(x: Double(gray.width) / 2, y: Double(gray.height) / 2)
        if tilt != 0 {
            gray = try gray.warped(by: .rotation(by: -tilt, about: middle), width: gray.width, height: gray.height, replicatingEdges: true)
        }
        let expected = Double(previous.width) * shrink
        let sizes = max(cascade.windowWidth, Int(expected * 0.75))...max(cascade.windowWidth, Int(expected * 1.33))
        let found = try cascade.detect(in: gray, scaleStep: tracking.scaleStep, minimumNeighbours: 3, sizes: sizes)
        // The box nearest the expected size is the same face; others would be new ones, left to the whole search.
        guard let best = found.min(by: { abs(Double($0.bounds.width) - expected) < abs(Double($1.bounds.width) - expected) }) else {
            return nil
        }
        // Its centre turned back to the frame's orientation (the box stays upright), then to frame pixels.
        var box = best.bounds
        if tilt != 0 {
            let centre = AffineMatrix.rotation(by: tilt, about: middle)
                .apply(to: Point(x: Double(box.x) + Double(box.width) / 2, y: Double(box.y) + Double(box.height) / 2))
            box.x = Int((centre.x - Double(box.width) / 2).rounded())
            box.y = Int((centre.y - Double(box.height) / 2).rounded())
        }
        let bounds = box.scaled(by: 1 / shrink).offsetBy(dx: region.x, dy: region.y)
        guard let inside = bounds.clipped(toWidth: image.width, height: image.height) else { return nil }
        return try detector.face(species, bounds: inside, tilt: tilt, of: image)
    }
}

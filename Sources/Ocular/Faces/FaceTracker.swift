import Foundation
import Synchronization

/// Follows faces through a stream. Between whole-frame searches, each face is moved by the optical
/// flow of the corners inside it, and every few frames the cascade looks for it again around where
/// it was (in a small copy where it is a few dozen pixels wide), which drops it when it has gone and
/// sets its size and landmarks afresh; the whole frame is searched again every few frames for faces
/// that arrive, more often while none is followed. Without the profile's
/// ``FaceDetectionProfile/tracking`` every frame is searched whole.
public final class FaceTracker: Sendable {
    /// The detector the tracker searches with.
    public let detector: FaceDetector
    private let state = Mutex(State())

    /// A face being followed: as last seen, the turn of the search that suits it, and what the
    /// optical flow needs to move it in the next frame.
    private struct Followed {
        var face: Face
        var tilt: Double
        /// Frames since the cascade last found it.
        var sinceChecked = 0
        /// The last frame's gray copy around it, to measure the flow from.
        var copy: FlowCopy?

        var species: Species { face.species }
        var bounds: PixelRectangle { face.bounds }
    }

    /// A gray copy of a frame's region around a face, shrunk so the face is the flow's face width wide.
    private struct FlowCopy {
        var gray: Image
        /// The region copied, in frame pixels.
        var region: PixelRectangle
        /// Copy pixels per frame pixel.
        var shrink: Double
        /// The size of the frame it was copied from.
        var frameWidth: Int
        var frameHeight: Int

        /// The region of `image` around `face` (half its size again on every side), copied.
        init(of image: Image, around face: PixelRectangle, faceWidth: Int) throws(OcularError) {
            let around = PixelRectangle(x: face.x - face.width / 2, y: face.y - face.height / 2, width: 2 * face.width, height: 2 * face.height)
            let region = around.clipped(toWidth: image.width, height: image.height) ?? PixelRectangle(x: 0, y: 0, width: image.width, height: image.height)
            try self.init(of: image, region: region, shrink: min(1, Double(faceWidth) / Double(max(face.width, 1))))
        }

        /// The same region of `image` at the same scale: a copy the flow can be measured against.
        init(of image: Image, region: PixelRectangle, shrink: Double) throws(OcularError) {
            // Shrunk before it is made gray (fewer pixels to convert), bilinearly: averaging would cost four
            // times as much at these ratios, and the flow's window smooths what the shrink aliases.
            gray = try image.cropped(to: region).scaled(by: shrink).converted(to: .gray8)
            self.region = region
            self.shrink = shrink
            frameWidth = image.width
            frameHeight = image.height
        }

        /// A frame box in copy pixels.
        func inCopy(_ box: PixelRectangle) -> PixelRectangle {
            box.offsetBy(dx: -region.x, dy: -region.y).scaled(by: shrink)
        }
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

    /// Creates a tracker.
    /// - Parameter detector: The detector it searches with; its profile says how often.
    public init(detector: FaceDetector) {
        self.detector = detector
    }

    /// The faces in the next frame of the stream.
    /// - Parameter image: The next frame.
    /// - Returns: Its faces, found or followed.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func faces(in image: Image) throws(OcularError) -> [Face] {
        guard let tracking = detector.profile.tracking else { return try detector.faces(in: image) }
        return try state.withLock { (state) throws(OcularError) -> [Face] in
            defer { state.frameIndex += 1 }
            let sinceWholeSearch = state.lastWholeSearch.map { state.frameIndex - $0 } ?? Int.max
            if !state.followed.isEmpty, sinceWholeSearch < tracking.searchEveryWhileTracking {
                var followed: [Followed] = []
                for face in state.followed {
                    if let flow = tracking.flow, face.sinceChecked + 1 < flow.checkEvery, let moved = try glide(face, in: image, flow: flow) {
                        followed.append(moved)
                    } else if let found = try follow(face.species, from: face.bounds, tilt: face.tilt, in: image, tracking: tracking) {
                        followed.append(try following(found, in: image, tracking: tracking))
                    }
                }
                if !followed.isEmpty {
                    state.followed = followed
                    return followed.map(\.face)
                }
                // Every face lost at once: look everywhere now rather than wait.
            } else if state.followed.isEmpty, sinceWholeSearch < tracking.searchEveryWhileLost {
                return []
            }
            // One turn per whole search, upright first: a tilted head is found within a few searches,
            // and no frame pays for all of them (together with the cats' ~0.3 s, a visible stall).
            let turns = detector.profile.turns
            let closeUp = detector.profile.findsCatsByVote && (state.wholeSearches == 0 || state.searchesSinceCloseUp + 1 >= Self.closeUpEvery)
            var plan = FaceDetector.SearchPlan(tilts: [turns[state.wholeSearches % turns.count]], catVotes: closeUp ? [detector.profile.catVoteFillingTheFrame] : [])
            // Most whole searches skip the smallest faces, which cost most (measured with cv2 at
            // 1280×720: humans from 0.12 in 21 ms instead of 30 from 0.08, cats from 0.3 in 5 instead
            // of 19). Every few look for them too, at each turn in rotation (4 and 3 share no factor).
            // With the network the search for every size comes first (a group's small faces from the first
            // frame, at one search's cost); the cascades' first searches are the cheap ones.
            let smallFacesTurn = detector.network == nil ? (tracking.largeFacesOnly?.smallFacesEvery ?? 1) - 1 : 0
            var largeOnly = false
            if let large = tracking.largeFacesOnly, state.wholeSearches % large.smallFacesEvery != smallFacesTurn {
                largeOnly = true
                plan.smallestHuman = large.smallestHuman
                plan.smallestCat = large.smallestCat
                plan.shortSide = large.shortSide
            }
            let faces = try detector.faces(in: image, plan: plan)
            state.searchesSinceCloseUp = closeUp ? 0 : state.searchesSinceCloseUp + 1
            state.wholeSearches += 1
            state.lastWholeSearch = state.frameIndex
            // A group's faces take their checks in turn (the n-th face a frame later than the one before),
            // so no frame pays for every face's check at once.
            var followed: [Followed] = []
            for (index, face) in faces.enumerated() {
                var next = try following(face, in: image, tracking: tracking)
                next.sinceChecked = tracking.flow.map { index % $0.checkEvery } ?? 0
                followed.append(next)
            }
            // A search for large faces only does not look for the small faces being followed: those it did
            // not find carry on where the flow takes them (their checks still drop them when they go),
            // rather than vanish until the next search for every size. Not a box the frame's edge has cut:
            // that is a face leaving, which the search ends.
            if largeOnly, let flow = tracking.flow, let large = tracking.largeFacesOnly {
                let shortSide = Double(min(image.width, image.height))
                for face in state.followed where !flow.isCut(face.bounds) && !faces.contains(where: { $0.bounds.intersects(face.bounds) }) {
                    let smallest = (face.species == .cat ? large.smallestCat : large.smallestHuman) * shortSide
                    if Double(face.bounds.width) < smallest, let moved = try glide(face, in: image, flow: flow) { followed.append(moved) }
                }
            }
            state.followed = followed
            return followed.map(\.face)
        }
    }

    /// How to follow `face`, just found by the cascade in `image`: at the search turn nearest its eye
    /// line's angle (a tilted head is lost by an upright search around it), and by the flow from here.
    private func following(_ face: Face, in image: Image, tracking: FaceDetectionProfile.Tracking) throws(OcularError) -> Followed {
        let turns = detector.profile.turns
        let tilt = face.species == .human ? turns.min { abs($0 - face.angle) < abs($1 - face.angle) } ?? 0 : 0
        let copy = try tracking.flow.map { (flow) throws(OcularError) in try FlowCopy(of: image, around: face.bounds, faceWidth: flow.faceWidth) }
        return Followed(face: face, tilt: tilt, copy: copy)
    }

    /// `followed` moved to where the optical flow of the corners inside it says it went in `image`,
    /// or nil when too few corners could be followed (then the cascade looks).
    ///
    /// The corners' median shift moves the box, and the median ratio of their distances from one
    /// another scales it (a face coming nearer or going away); medians, so that the few corners on
    /// the background or a hand passing by do not drag it. About a fifth of what a cascade search
    /// around the face costs, landmarks included, which are moved with it rather than sought again.
    private func glide(_ followed: Followed, in image: Image, flow: FaceDetectionProfile.Tracking.Flow) throws(OcularError) -> Followed? {
        // A frame of another size (the source changed): nothing to measure the flow against.
        guard let copy = followed.copy, copy.frameWidth == image.width, copy.frameHeight == image.height else { return nil }
        let current = try FlowCopy(of: image, region: copy.region, shrink: copy.shrink)
        let box = copy.inCopy(followed.bounds)
        let corners = try OpticalFlow.corners(in: copy.gray, within: box, maximum: Self.flowCorners, minimumDistance: 3)
        let pairs = zip(corners, try OpticalFlow.follow(corners, from: copy.gray, to: current.gray, window: 9)).compactMap { start, end in
            end.map { (start: start, end: $0) }
        }
        guard pairs.count >= flow.minimumPoints else { return nil }
        let shift = Point(x: Self.median(pairs.map { $0.end.x - $0.start.x }), y: Self.median(pairs.map { $0.end.y - $0.start.y }))
        var ratios: [Double] = []
        for first in pairs.indices {
            for second in pairs.indices where second > first {
                let before = hypot(pairs[first].start.x - pairs[second].start.x, pairs[first].start.y - pairs[second].start.y)
                let after = hypot(pairs[first].end.x - pairs[second].end.x, pairs[first].end.y - pairs[second].end.y)
                // Corners too close together give ratios that a pixel's error throws far off.
                if before >= 4 { ratios.append(after / before) }
            }
        }
        let scale = ratios.isEmpty ? 1 : Self.median(ratios)
        // No face grows or shrinks by a quarter between two frames: corners that say so have slid
        // onto something else, and the cascade looks instead.
        guard (0.8...1.25).contains(scale) else { return nil }
        // Frame coordinates: about the box's old centre, scaled, then shifted.
        let old = followed.bounds
        let centre = Point(x: Double(old.x) + Double(old.width) / 2, y: Double(old.y) + Double(old.height) / 2)
        let motion = { (point: Point) in
            Point(x: centre.x + (point.x - centre.x) * scale + shift.x / copy.shrink, y: centre.y + (point.y - centre.y) * scale + shift.y / copy.shrink)
        }
        let width = Double(old.width) * scale, height = Double(old.height) * scale
        let middle = motion(centre)
        let moved = PixelRectangle(x: Int((middle.x - width / 2).rounded()), y: Int((middle.y - height / 2).rounded()),
                                   width: Int(width.rounded()), height: Int(height.rounded()))
        // A face leaving the frame: the cascade decides whether what is left of it is still a face.
        guard moved.width > 0, moved.height > 0, let inside = moved.clipped(toWidth: image.width, height: image.height),
              inside.fractionInside(moved) >= 0.75 else { return nil }
        let face = followed.face.moved(by: motion, to: inside, image: try image.cropped(to: inside))
        // The next frame's flow is measured from this one: in the same copy while the face stays well
        // inside it at about the flow's width (no second copy), else in a new copy around it.
        let margin = PixelRectangle(x: inside.x - inside.width / 4, y: inside.y - inside.height / 4,
                                    width: inside.width * 3 / 2, height: inside.height * 3 / 2)
        let widthInCopy = Double(inside.width) * copy.shrink
        let keepsCopy = margin.fractionInside(copy.region) >= 1 || copy.region == PixelRectangle(x: 0, y: 0, width: image.width, height: image.height)
        let next = keepsCopy && abs(widthInCopy / Double(flow.faceWidth) - 1) < 0.2
            ? current : try FlowCopy(of: image, around: inside, faceWidth: flow.faceWidth)
        return Followed(face: face, tilt: followed.tilt, sinceChecked: followed.sinceChecked + 1, copy: next)
    }

    /// At most this many corners of a face are followed: enough for steady medians, and the distance
    /// ratios between them (n² / 2) stay cheap.
    static let flowCorners = 30

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let half = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
    }

    /// The face near `previous` in `image`, or nil when it has gone.
    /// - Parameter tilt: How far the face leaned (degrees clockwise): the search turns its surroundings upright.
    private func follow(_ species: Species, from previous: PixelRectangle, tilt: Double, in image: Image,
                        tracking: FaceDetectionProfile.Tracking) throws(OcularError) -> Face? {
        let profile = detector.profile
        // People's faces: the network around the old box, when the profile has one.
        if species == .human, detector.network != nil {
            return try detector.networkFace(near: previous, margin: tracking.margin, in: image)
        }
        let cascade = species == .cat ? detector.catFace : detector.humanFace
        // The cascade searches for its own window: a cat's, not its face box.
        let previous = species == .cat ? profile.layout.catWindow(ofFace: previous) : previous
        guard let cascade, previous.width > 0 else { return nil }
        if species == .cat, profile.findsCatsByVote,
           Double(previous.height) >= profile.catVoteFillingTheFrame.smallest * Double(min(image.width, image.height)) {
            // A cat filling the frame is found only by the close-up search (the plain cascade misses it
            // around its box too): follow it with that, at its cost, for as long as it stays close.
            let search = try FaceDetector.SearchImage(image, profile: profile)
            guard let box = try detector.votedCats(in: search, profile.catVoteFillingTheFrame).first else { return nil }
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
        if species == .cat { return try detector.catFace(around: profile.layout.catFace(inWindow: bounds), of: image) }
        guard let inside = bounds.clipped(toWidth: image.width, height: image.height) else { return nil }
        return try detector.face(species, bounds: inside, tilt: tilt, of: image)
    }
}

import Synchronization

/// Follows faces through a stream. Between whole-frame searches, each face is looked for only around
/// where it was, in a small copy where it is a few dozen pixels wide; the whole frame is searched
/// again every few frames for faces that arrive, more often while none is followed. Without the
/// profile's ``FaceDetectionProfile/tracking`` every frame is searched whole.
public final class FaceTracker: Sendable {
    public let detector: FaceDetector
    private let state = Mutex(State())

    private struct State {
        var frameIndex = 0
        var lastWholeSearch: Int?
        var followed: [(species: Species, bounds: PixelRectangle)] = []
        /// Whole searches since the last that looked for close-up cats.
        var searchesSinceCloseUp: Int?
    }

    /// While no face is followed, every this many whole searches also look for a close-up cat
    /// (about 30 ms): every 30 frames at the default's pace, so a stream does not stall every 5th.
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
                    if let found = try follow(face.species, from: face.bounds, in: image, tracking: tracking) { followed.append(found) }
                }
                if !followed.isEmpty {
                    state.followed = followed.map { ($0.species, $0.bounds) }
                    return followed
                }
                // Every face lost at once: look everywhere now rather than wait.
            } else if state.followed.isEmpty, sinceWholeSearch < tracking.searchEveryWhileLost {
                return []
            }
            let closeUp = detector.profile.findsCloseUpCats && (state.searchesSinceCloseUp.map { $0 + 1 >= Self.closeUpEvery } ?? true)
            let faces = try detector.faces(in: image, closeUpCats: closeUp)
            state.searchesSinceCloseUp = closeUp ? 0 : (state.searchesSinceCloseUp ?? 0) + 1
            state.lastWholeSearch = state.frameIndex
            state.followed = faces.map { ($0.species, $0.bounds) }
            return faces
        }
    }

    /// The face near `previous` in `image`, or nil when it has gone.
    private func follow(_ species: Species, from previous: PixelRectangle, in image: Image,
                        tracking: FaceDetectionProfile.Tracking) throws(OcularError) -> Face? {
        let profile = detector.profile
        let cascade = species == .cat ? detector.catFace : detector.humanFace
        guard let cascade, previous.width > 0 else { return nil }
        if species == .cat, profile.findsCloseUpCats, Double(previous.height) >= 0.6 * Double(min(image.width, image.height)) {
            // A cat filling the frame is found only by the close-up search (the plain cascade misses it
            // around its box too): follow it with that, at its cost, for as long as it stays close.
            let search = try FaceDetector.SearchImage(image, profile: profile)
            guard let (_, box) = try detector.closeUpCats(in: search).first else { return nil }
            return try detector.face(.cat, at: box, in: search, of: image)
        }
        let marginX = Int(Double(previous.width) * tracking.margin), marginY = Int(Double(previous.height) * tracking.margin)
        let around = PixelRectangle(x: previous.x - marginX, y: previous.y - marginY,
                                    width: previous.width + 2 * marginX, height: previous.height + 2 * marginY)
        guard let region = around.clipped(toWidth: image.width, height: image.height) else { return nil }
        // Working size: the face `workingFaceSize` wide, but never below the cascade's window.
        let working = max(tracking.workingFaceSize, cascade.windowWidth)
        let shrink = min(1, Double(working) / Double(previous.width))
        let gray = try image.cropped(to: region).converted(to: .gray8).scaled(by: shrink).equalized(profile.equalization)
        let expected = Double(previous.width) * shrink
        let sizes = max(cascade.windowWidth, Int(expected * 0.75))...max(cascade.windowWidth, Int(expected * 1.33))
        let found = try cascade.detect(in: gray, scaleStep: tracking.scaleStep, minimumNeighbours: 3, sizes: sizes)
        // The box nearest the expected size is the same face; others would be new ones, left to the whole search.
        guard let best = found.min(by: { abs(Double($0.bounds.width) - expected) < abs(Double($1.bounds.width) - expected) }) else {
            return nil
        }
        let bounds = best.bounds.scaled(by: 1 / shrink).offsetBy(dx: region.x, dy: region.y)
        guard let inside = bounds.clipped(toWidth: image.width, height: image.height) else { return nil }
        return try detector.face(species, bounds: inside, of: image)
    }
}

import Synchronization

/// Points followed across a stream's frames: Shi–Tomasi corners ("good features to track")
/// followed by pyramidal Lucas–Kanade optical flow, drawn as tracks that fade behind them. When too
/// few survive (they left the frame, or were hidden), new corners are sought away from those followed.
///
/// The stage keeps the stream's last frame and tracks, so one instance belongs to one stream, as the
/// faces stage's tracker does: a recipe builds a fresh one for each.
public struct TrackingStage: Stage {
    public static let name = "tracking"
    public static let title = "Tracking"
    public static let category = StageCategory.sample
    public static let annotationKinds: [any FrameAnnotation.Type] = [Track.self]
    public static let summary = "Follows corners from frame to frame (good features to track + Lucas–Kanade optical flow) and draws "
        + "their paths; use it on a moving camera or scene to see motion, or to check what a tracker can hold."

    /// The “Points” parameter: How many points are followed at most.
    public static let points = Key<Int>.integer("points", title: "Points", in: 10...1000, default: 200,
                                                help: "How many points are followed at most.")
    /// The “Corner quality” parameter: A new point's corner strength as a fraction of the frame's strongest.
    public static let quality = Key<Double>.number("quality", title: "Corner quality", in: 0.001...0.5, step: 0.001, default: 0.01,
                                                   help: "A new point's corner strength as a fraction of the frame's strongest.")
    /// The “Spacing” parameter: New points keep this many pixels from each other and from those followed.
    public static let spacing = Key<Double>.number("spacing", title: "Spacing", in: 1...50, step: 1, default: 8,
                                                   help: "New points keep this many pixels from each other and from those followed.")
    /// The “Re-seed below” parameter: New points are sought when fewer than this fraction of the most are followed.
    public static let reseed = Key<Double>.number("reseed", title: "Re-seed below", in: 0.05...1, step: 0.05, default: 0.5,
                                                  help: "New points are sought when fewer than this fraction of the most are followed.")
    /// The “Trail” parameter: How many frames of each path are drawn, fading out behind the point.
    public static let trail = Key<Int>.integer("trail", title: "Trail", in: 2...60, default: 20,
                                               help: "How many frames of each path are drawn, fading out behind the point.")
    /// The “Colour” parameter: The tracks' colour.
    public static let colour = Key<Colour>.colour("colour", title: "Colour", default: Colour(red: 0, green: 255, blue: 0), help: "The tracks' colour.")
    public static let parameters = declared(points, quality, spacing, reseed, trail, colour)

    /// Follows the points from frame to frame.
    public let tracker: PointTracker
    /// The value of the `colour` parameter this stage was built with.
    public let colour: Colour

    public init(_ values: StageValues) {
        tracker = PointTracker(maximum: values[Self.points], quality: values[Self.quality], spacing: values[Self.spacing],
                               reseedBelow: values[Self.reseed], trail: values[Self.trail])
        colour = values[Self.colour]
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let paths = try tracker.follow(into: frame.image)
        var image = try frame.image.packed
        try image.drawTracks(paths.map(\.points), colour: colour, radius: max(2, min(image.width, image.height) / 240))
        frame.image = image
        frame.annotations += paths.map(\.track) as [any FrameAnnotation]
        return frame
    }
}

/// Follows points through a stream's frames: see ``TrackingStage``.
public final class PointTracker: Sendable {
    /// One followed point: its positions, oldest first (the trail's length at most), and its age.
    public struct Path: Sendable {
        /// The point's positions, oldest first, at most the trail's length.
        public var points: [Point]
        /// How many frames it has been followed.
        public var age: Int

        /// The point as a finding: where it is and how it moved.
        public var track: Track {
            let last = points[points.count - 1]
            let before = points.count > 1 ? points[points.count - 2] : last
            return Track(position: last, motion: Point(x: last.x - before.x, y: last.y - before.y), age: age)
        }
    }

    private struct State {
        var previous: Image?
        var paths: [Path] = []
    }

    /// The most points followed at once.
    public let maximum: Int
    /// The value of the `quality` parameter this stage was built with.
    public let quality: Double
    /// The value of the `spacing` parameter this stage was built with.
    public let spacing: Double
    /// New points are found when fewer than this fraction of `maximum` are left.
    public let reseedBelow: Double
    /// The value of the `trail` parameter this stage was built with.
    public let trail: Int
    private let state = Mutex(State())

    /// Lucas–Kanade's window and pyramid: motions up to about 21 / 2 × 2³ ≈ 80 pixels a frame.
    static let window = 21
    static let levels = 3
    /// A point followed there and back must come home within this: one that slipped (on an edge, in a
    /// flat patch) is dropped rather than drawn astray. The sweep's choice (SampleSweepTests): the most
    /// accurate bound that still keeps 60 points or more a frame (0.5: 95.5 % of points within 1 px, at
    /// least 79 followed; 0.3: 96.4 %, 72; 0.2: 97.2 %, 68).
    static let maximumRoundTrip = 0.2

    /// Creates a tracker.
    /// - Parameters:
    ///   - maximum: The most points followed at once.
    ///   - quality: The weakest corner kept, as a fraction of the strongest.
    ///   - spacing: The least distance between points, in pixels.
    ///   - reseedBelow: New points are found below this fraction of `maximum`.
    ///   - trail: How many positions each path keeps.
    public init(maximum: Int, quality: Double, spacing: Double, reseedBelow: Double, trail: Int) {
        self.maximum = maximum
        self.quality = quality
        self.spacing = spacing
        self.reseedBelow = reseedBelow
        self.trail = trail
    }

    /// Moves the followed points into `image` (any format), drops the lost, seeds new ones when too few
    /// are left, and returns the paths as they are now.
    /// - Parameter image: The next frame.
    /// - Returns: The paths.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func follow(into image: Image) throws(OcularError) -> [Path] {
        let gray = try image.converted(to: .gray8)
        let (previous, paths) = state.withLock { ($0.previous, $0.paths) }
        var followed: [Path] = []
        // A frame of another size (the studio's link changed the upload size) starts afresh.
        if let previous, previous.width == gray.width, previous.height == gray.height, !paths.isEmpty {
            let moved = try OpticalFlow.follow(paths.map { $0.points[$0.points.count - 1] }, from: previous, to: gray,
                                               window: Self.window, levels: Self.levels, maximumRoundTrip: Self.maximumRoundTrip)
            for (path, position) in zip(paths, moved) {
                guard let position, (0..<Double(gray.width)).contains(position.x), (0..<Double(gray.height)).contains(position.y) else { continue }
                var path = path
                path.points.append(position)
                if path.points.count > trail { path.points.removeFirst(path.points.count - trail) }
                path.age += 1
                followed.append(path)
            }
        }
        if Double(followed.count) < reseedBelow * Double(maximum) {
            followed += try seeds(in: gray, awayFrom: followed.map { $0.points[$0.points.count - 1] }, count: maximum - followed.count)
        }
        state.withLock {
            $0.previous = gray
            $0.paths = followed
        }
        return followed
    }

    /// New corners, `spacing` pixels from each other and from the points followed.
    private func seeds(in gray: Image, awayFrom kept: [Point], count: Int) throws(OcularError) -> [Path] {
        guard count > 0 else { return [] }
        // More candidates than wanted: some fall near points already followed.
        let candidates = try OpticalFlow.corners(in: gray, maximum: count + kept.count, quality: quality, minimumDistance: spacing)
        // The points followed, by cells of the spacing's size: a candidate is compared with its cell's
        // neighbours only.
        let side = max(spacing, 1)
        func cell(_ point: Point) -> SIMD2<Int> { SIMD2(Int(point.x / side), Int(point.y / side)) }
        let cells = Dictionary(grouping: kept, by: cell)
        func isFree(_ point: Point) -> Bool {
            let centre = cell(point)
            for dx in -1...1 {
                for dy in -1...1 {
                    let near = cells[centre &+ SIMD2(dx, dy)] ?? []
                    if near.contains(where: { abs($0.x - point.x) < spacing && abs($0.y - point.y) < spacing }) { return false }
                }
            }
            return true
        }
        var seeds: [Path] = []
        for candidate in candidates where seeds.count < count && isFree(candidate) {
            seeds.append(Path(points: [candidate], age: 1))
        }
        return seeds
    }
}

/// What the sample stages find, attached to frames as annotations (the CLI's `--json`, the studio's
/// findings): corners, contours, keypoints and tracks.

/// A Harris corner: where, and how strong.
public struct Corner: FrameAnnotation, Equatable {
    public static let kind = "corner"
    public static let group = "corners"
    /// Pixels from the left.
    public var x: Double
    /// Pixels from the top.
    public var y: Double
    /// Harris's response R = det(M) − k·trace(M)²; the strongest of a frame is its scale.
    public var response: Double

    /// Creates a corner.
    /// - Parameters:
    ///   - x: Pixels from the left.
    ///   - y: Pixels from the top.
    ///   - response: The Harris response.
    public init(x: Double, y: Double, response: Double) {
        self.x = x
        self.y = y
        self.response = response
    }
}

/// One contour of a frame's shapes.
public struct Contour: FrameAnnotation, Equatable {
    public static let kind = "contour"
    public static let group = "contours"
    /// Enclosed area in pixels (cv::contourArea).
    public var area: Double
    /// The contour's bounding box.
    public var bounds: PixelRectangle
    /// 0 for an outer contour, 1 for a hole in it, 2 for a shape in that hole, …
    public var depth: Int

    /// Creates a contour.
    /// - Parameters:
    ///   - area: Its area in pixels.
    ///   - bounds: Its bounding box.
    ///   - depth: How deep it is nested (0 for an outer contour).
    public init(area: Double, bounds: PixelRectangle, depth: Int) {
        self.area = area
        self.bounds = bounds
        self.depth = depth
    }

    enum CodingKeys: String, CodingKey { case area, bounds, depth }

    /// Encodes the contour as JSON.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode((area * 10).rounded() / 10, forKey: .area)
        try container.encode([bounds.x, bounds.y, bounds.width, bounds.height], forKey: .bounds)
        try container.encode(depth, forKey: .depth)
    }
}

/// A keypoint of ORB, FAST or AKAZE.
public struct Keypoint: FrameAnnotation, Equatable {
    public static let kind = "keypoint"
    public static let group = "keypoints"
    /// Pixels from the left.
    public var x: Double
    /// Pixels from the top.
    public var y: Double
    /// The diameter of the neighbourhood that describes it, pixels.
    public var size: Double
    /// Orientation in degrees, nil where the detector gives none (FAST).
    public var angle: Double?
    /// The detector's response: how strong the keypoint is.
    public var response: Double

    /// Creates a keypoint.
    /// - Parameters:
    ///   - x: Pixels from the left.
    ///   - y: Pixels from the top.
    ///   - size: Its diameter in pixels.
    ///   - angle: Its orientation in degrees, when the detector gives one.
    ///   - response: How strong it is.
    public init(x: Double, y: Double, size: Double, angle: Double?, response: Double) {
        self.x = x
        self.y = y
        self.size = size
        self.angle = angle
        self.response = response
    }

    enum CodingKeys: String, CodingKey { case x, y, size, angle, response }

    /// Encodes the keypoint as JSON.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let tenth = { (value: Double) in (value * 10).rounded() / 10 }
        try container.encode(tenth(x), forKey: .x)
        try container.encode(tenth(y), forKey: .y)
        try container.encode(tenth(size), forKey: .size)
        try container.encode(angle.map(tenth), forKey: .angle)
        try container.encode(response, forKey: .response)
    }
}

/// A point followed from frame to frame.
public struct Track: FrameAnnotation, Equatable {
    public static let kind = "track"
    public static let group = "tracks"
    /// Where it is now.
    public var position: Point
    /// How far it moved since the last frame (zero on the frame it was found).
    public var motion: Point
    /// Frames it has been followed through, the first included.
    public var age: Int

    /// Creates a track.
    /// - Parameters:
    ///   - position: Where the point is now.
    ///   - motion: How far it moved since the last frame.
    ///   - age: How many frames it has been followed.
    public init(position: Point, motion: Point, age: Int) {
        self.position = position
        self.motion = motion
        self.age = age
    }

    enum CodingKeys: String, CodingKey { case position, motion, age }

    /// Encodes the track as JSON.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position.rounded, forKey: .position)
        try container.encode(motion.rounded, forKey: .motion)
        try container.encode(age, forKey: .age)
    }
}

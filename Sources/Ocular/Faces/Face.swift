import Foundation

/// What kind of face: a person's, a cat's, or a merge of the two.
public enum Species: String, Sendable, Codable, CaseIterable {
    /// A person's face, a cat's, or one that both cascades found (a person in a cat mask).
    case human, cat, hybrid
}

/// One face found in a frame, an immutable value: its species, its own copy of the face's
/// pixels, where it is in the frame, and its landmarks in face coordinates (origin at the face's
/// top-left corner, in the frame's pixels). Beyond the textbook, like Core Image's face feature: the
/// mouth, whether it smiles, and the angle of the eye line.
public struct Face: Sendable, FrameAnnotation {
    public static let kind = "face"
    public static let group = "faces"

    /// Whose face it is.
    public let species: Species
    /// The face's pixels, cut from the frame (in the frame's format; YUV frames give BGR).
    public let image: Image
    /// Where the face is in the frame.
    public let bounds: PixelRectangle
    /// The centre of the eye on the viewer's left, in face coordinates.
    public let leftEye: Point
    /// The centre of the eye on the viewer's right, in face coordinates.
    public let rightEye: Point
    /// The tip of the nose, in face coordinates.
    public let nose: Point
    /// The eye rectangles the eye cascades found (face coordinates); nil where the eye was estimated.
    public let leftEyeBounds: PixelRectangle?
    /// The subject's right eye's box in the face's picture, when the eye cascade found one.
    public let rightEyeBounds: PixelRectangle?
    /// The centre of the mouth, in face coordinates: for a person when the smile cascade found one, for a
    /// cat where its layout places it.
    public let mouth: Point?
    /// Whether the mouth found smiles (the smile cascade agreed strongly on it).
    public let smile: Bool
    /// How sure the detector is, 0…1: the face network's score; for a cascade's face, its agreeing
    /// windows v against the profile's least m as v / (v + m) (0.5 at the threshold, nearer 1 the more agree).
    public let confidence: Double

    /// Creates a face.
    /// - Parameters:
    ///   - species: Whose face it is.
    ///   - image: The face's picture, cut from the frame at `bounds`.
    ///   - bounds: Where it lies in the frame.
    ///   - leftEye: The subject's left eye, in the face's picture.
    ///   - rightEye: The subject's right eye, in the face's picture.
    ///   - nose: The nose, in the face's picture.
    ///   - leftEyeBounds: The left eye's box, when found.
    ///   - rightEyeBounds: The right eye's box, when found.
    ///   - mouth: The mouth, when found.
    ///   - smile: Whether the smile cascade found a smile.
    ///   - confidence: How sure the detector is, 0…1.
    public init(species: Species, image: Image, bounds: PixelRectangle, leftEye: Point, rightEye: Point, nose: Point,
                leftEyeBounds: PixelRectangle? = nil, rightEyeBounds: PixelRectangle? = nil, mouth: Point? = nil,
                smile: Bool = false, confidence: Double = 1) {
        self.species = species
        self.image = image
        self.bounds = bounds
        self.leftEye = leftEye
        self.rightEye = rightEye
        self.nose = nose
        self.leftEyeBounds = leftEyeBounds
        self.rightEyeBounds = rightEyeBounds
        self.mouth = mouth
        self.smile = smile
        self.confidence = confidence
    }

    /// The colour of its box in the overlay: yellow for a person, white for a cat, magenta for a
    /// face that is neither of the two.
    public var boxColour: Colour {
        switch species {
        case .human: Colour(red: 255, green: 255, blue: 0)
        case .cat: Colour.white
        case .hybrid: Colour(red: 255, green: 0, blue: 255)
        }
    }

    public var markColour: Colour? { boxColour }

    /// The tilt of the eye line in degrees, positive when the right eye (viewer's right) sits lower:
    /// clockwise on screen, as image coordinates run downwards.
    public var angle: Double {
        atan2(rightEye.y - leftEye.y, rightEye.x - leftEye.x) * 180 / .pi
    }

    /// The same face with another confidence.
    func with(confidence: Double) -> Face {
        Face(species: species, image: image, bounds: bounds, leftEye: leftEye, rightEye: rightEye, nose: nose, leftEyeBounds: leftEyeBounds,
             rightEyeBounds: rightEyeBounds, mouth: mouth, smile: smile, confidence: confidence)
    }

    /// The same face with its landmarks turned by `degrees` (clockwise) about its centre: for landmarks
    /// found in an upright copy of a tilted face. The eye boxes, upright, no longer fit and are dropped.
    func landmarksTurned(by degrees: Double) -> Face {
        let turn = AffineMatrix.rotation(by: degrees, about: Point(x: Double(bounds.width) / 2, y: Double(bounds.height) / 2))
        return Face(species: species, image: image, bounds: bounds, leftEye: turn.apply(to: leftEye), rightEye: turn.apply(to: rightEye),
                    nose: turn.apply(to: nose), mouth: mouth.map { turn.apply(to: $0) }, smile: smile, confidence: confidence)
    }

    /// The same face after it moved in the frame: each landmark taken from frame coordinates by `motion`,
    /// into a face now at `bounds` whose pixels are `image`.
    func moved(by motion: (Point) -> Point, to bounds: PixelRectangle, image: Image) -> Face {
        let origin = Point(x: Double(bounds.x), y: Double(bounds.y))
        func move(_ point: Point) -> Point {
            let moved = motion(inFrame(point))
            return Point(x: moved.x - origin.x, y: moved.y - origin.y)
        }
        func move(_ box: PixelRectangle) -> PixelRectangle {
            let topLeft = move(Point(x: Double(box.x), y: Double(box.y)))
            let bottomRight = move(Point(x: Double(box.x + box.width), y: Double(box.y + box.height)))
            return PixelRectangle(x: Int(topLeft.x.rounded()), y: Int(topLeft.y.rounded()),
                                  width: Int((bottomRight.x - topLeft.x).rounded()), height: Int((bottomRight.y - topLeft.y).rounded()))
        }
        return Face(species: species, image: image, bounds: bounds, leftEye: move(leftEye), rightEye: move(rightEye), nose: move(nose),
                    leftEyeBounds: leftEyeBounds.map(move), rightEyeBounds: rightEyeBounds.map(move), mouth: mouth.map(move), smile: smile,
                    confidence: confidence)
    }

    /// A point of the face in frame coordinates.
    /// - Parameter point: A point in the face's picture.
    /// - Returns: The point in the frame.
    public func inFrame(_ point: Point) -> Point {
        Point(x: point.x + Double(bounds.x), y: point.y + Double(bounds.y))
    }

    private enum CodingKeys: String, CodingKey {
        case species, bounds, confidence, leftEye, rightEye, nose, mouth, smile, angle
    }

    /// The JSON of `ocular faces detect --json` and the studio's messages: everything in frame
    /// coordinates, points as [x, y] rounded to 0.1 pixel, `mouth` null when none was found, the
    /// confidence to 0.01.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(species, forKey: .species)
        try container.encode([bounds.x, bounds.y, bounds.width, bounds.height], forKey: .bounds)
        try container.encode((confidence * 100).rounded() / 100, forKey: .confidence)
        try container.encode(inFrame(leftEye).rounded, forKey: .leftEye)
        try container.encode(inFrame(rightEye).rounded, forKey: .rightEye)
        try container.encode(inFrame(nose).rounded, forKey: .nose)
        try container.encode(mouth.map { inFrame($0).rounded }, forKey: .mouth)
        try container.encode(smile, forKey: .smile)
        try container.encode((angle * 10).rounded() / 10, forKey: .angle)
    }
}

/// Which parts of the textbook's overlay to draw.
public struct FaceOverlay: Sendable, Hashable {
    /// Whether face boxes are drawn.
    public var faces = true
    /// Whether eyes are drawn.
    public var eyes = true
    /// Whether the nose is drawn.
    public var nose = true
    /// Whether the mouth is drawn.
    public var mouth = true

    /// Creates an overlay.
    /// - Parameters:
    ///   - faces: Draw face boxes.
    ///   - eyes: Draw eyes.
    ///   - nose: Draw the nose.
    ///   - mouth: Draw the mouth.
    public init(faces: Bool = true, eyes: Bool = true, nose: Bool = true, mouth: Bool = true) {
        self.faces = faces
        self.eyes = eyes
        self.nose = nose
        self.mouth = mouth
    }

    static let leftEye = Colour(red: 255, green: 0, blue: 0)       // red
    static let rightEye = Colour(red: 0, green: 255, blue: 0)      // green
    static let nose = Colour(red: 0, green: 0, blue: 255)          // blue
    static let mouth = Colour(red: 0, green: 255, blue: 255)       // cyan (Ocular's; the textbook has no mouth)

    /// `image` with the faces drawn on it. Gray and YUV frames become BGR so the colours show.
    /// - Parameters:
    ///   - faces: The faces.
    ///   - image: The frame.
    /// - Returns: The frame with the faces drawn.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func drawn(_ faces: [Face], on image: Image) throws(OcularError) -> Image {
        var canvas = image.format.channels >= 3 && !image.format.isYUV ? image : try image.converted(to: .bgr8)
        // Lines a little thicker on big frames, so a 1080p overlay stays visible when shown small.
        let thickness = max(1, min(canvas.width, canvas.height) / 360)
        for face in faces {
            let origin = (x: face.bounds.x, y: face.bounds.y)
            if self.faces {
                try canvas.drawRectangle(face.bounds, colour: face.boxColour, thickness: thickness)
            }
            if eyes {
                for (box, centre, colour) in [(face.leftEyeBounds, face.leftEye, Self.leftEye), (face.rightEyeBounds, face.rightEye, Self.rightEye)] {
                    if let box {
                        try canvas.drawRectangle(PixelRectangle(x: box.x + origin.x, y: box.y + origin.y, width: box.width, height: box.height),
                                                 colour: colour, thickness: thickness)
                    }
                    try canvas.drawCircle(at: face.inFrame(centre), radius: 4, colour: colour, thickness: thickness)
                }
            }
            if nose {
                try canvas.drawCircle(at: face.inFrame(face.nose), radius: 4, colour: Self.nose, thickness: thickness)
            }
            if mouth, let centre = face.mouth {
                try canvas.drawCircle(at: face.inFrame(centre), radius: 4, colour: Self.mouth, thickness: thickness)
            }
        }
        return canvas
    }
}

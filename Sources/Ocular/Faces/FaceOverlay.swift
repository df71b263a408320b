import OpenCVBridge

/// Which parts of the SPEC §4 overlay to draw.
public struct FaceOverlay: Sendable, Hashable {
    public var faces = true
    public var eyes = true
    public var nose = true
    public var mouth = true

    public init(faces: Bool = true, eyes: Bool = true, nose: Bool = true, mouth: Bool = true) {
        self.faces = faces
        self.eyes = eyes
        self.nose = nose
        self.mouth = mouth
    }

    /// Red, green, blue.
    typealias Colour = (red: Double, green: Double, blue: Double)
    static let humanFace: Colour = (255, 255, 0)   // yellow
    static let catFace: Colour = (255, 255, 255)   // white
    static let hybridFace: Colour = (255, 0, 255)  // magenta: neither of the two
    static let leftEye: Colour = (255, 0, 0)       // red
    static let rightEye: Colour = (0, 255, 0)      // green
    static let nose: Colour = (0, 0, 255)          // blue
    static let mouth: Colour = (0, 255, 255)       // cyan (Ocular's; the textbook has no mouth)

    /// `image` with the faces drawn on it. Gray and YUV frames become BGR so the colours show.
    public func drawn(_ faces: [Face], on image: Image) throws(OcularError) -> Image {
        var canvas = image.format.channels >= 3 && !image.format.isYUV ? image : try image.converted(to: .bgr8)
        // Lines a little thicker on big frames, so a 1080p overlay stays visible when shown small.
        let thickness = max(1, min(canvas.width, canvas.height) / 360)
        for face in faces {
            let origin = (x: face.bounds.x, y: face.bounds.y)
            if self.faces {
                let colour = switch face.species {
                case .human: Self.humanFace
                case .cat: Self.catFace
                case .hybrid: Self.hybridFace
                }
                try canvas.drawRectangle(face.bounds, colour: colour, thickness: thickness)
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

extension Image {
    /// The colour in this format's channel order, alpha opaque.
    private func channels(of colour: FaceOverlay.Colour) -> [Double] {
        switch format {
        case .rgb8, .rgba8: [colour.red, colour.green, colour.blue, 255]
        case .gray8: [0.299 * colour.red + 0.587 * colour.green + 0.114 * colour.blue, 0, 0, 0]
        default: [colour.blue, colour.green, colour.red, 255]
        }
    }

    mutating func drawRectangle(_ box: PixelRectangle, colour: FaceOverlay.Colour, thickness: Int) throws(OcularError) {
        let values = channels(of: colour)
        try withMutableMatrix { (canvas) throws(OcularError) in
            try OpenCV.call("rectangle(\(box))") { error in
                values.withUnsafeBufferPointer {
                    ocv_draw_rectangle(canvas, Int32(clamping: box.x), Int32(clamping: box.y), Int32(clamping: box.width),
                                       Int32(clamping: box.height), $0.baseAddress!, Int32(thickness), error)
                }
            }
        }
    }

    /// Writes `text` on a tag of `colour` (black or white letters, whichever reads), its corner at
    /// `origin`, capitals `height` pixels tall; characters Hershey's fonts lack become '?'.
    /// The width and height in pixels of the tag `drawLabel` draws for `text` at `height`.
    static func labelSize(_ text: String, height: Double) -> (width: Int, height: Int) {
        var width: Int32 = 0, tall: Int32 = 0
        ocv_label_size(labelText(text), height, &width, &tall)
        return (Int(width), Int(tall))
    }

    /// What Hershey's fonts can draw of `text`: printable ASCII, '?' for the rest, at most 200 characters.
    private static func labelText(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.isASCII && $0.value >= 32 ? Character($0) : "?" }.prefix(200))
    }

    mutating func drawLabel(_ text: String, at origin: (x: Int, y: Int), height: Double, colour: FaceOverlay.Colour) throws(OcularError) {
        let fill = channels(of: colour)
        let light = 0.299 * colour.red + 0.587 * colour.green + 0.114 * colour.blue > 140
        let ink = channels(of: light ? (0, 0, 0) : (255, 255, 255))
        let ascii = Self.labelText(text)
        try withMutableMatrix { (canvas) throws(OcularError) in
            try OpenCV.call("label '\(ascii)'") { error in
                fill.withUnsafeBufferPointer { fill in
                    ink.withUnsafeBufferPointer { ink in
                        ocv_draw_label(canvas, ascii, Int32(clamping: origin.x), Int32(clamping: origin.y), height, fill.baseAddress!,
                                       ink.baseAddress!, error)
                    }
                }
            }
        }
    }

    mutating func drawCircle(at centre: Point, radius: Int, colour: FaceOverlay.Colour, thickness: Int) throws(OcularError) {
        let values = channels(of: colour)
        guard centre.x.isFinite, centre.y.isFinite, abs(centre.x) < 1e6, abs(centre.y) < 1e6 else { return }
        try withMutableMatrix { (canvas) throws(OcularError) in
            try OpenCV.call("circle(\(centre))") { error in
                values.withUnsafeBufferPointer {
                    ocv_draw_circle(canvas, centre.x, centre.y, Int32(radius), $0.baseAddress!, Int32(thickness), error)
                }
            }
        }
    }
}

internal import OpenCVBridge

/// Drawing on frames: the overlays of the detection stages (faces, blobs) and any stage that marks
/// what it found.
extension Image {
    /// The colour in this format's channel order, alpha opaque.
    func channels(of colour: Colour) -> [Double] {
        switch format {
        case .rgb8, .rgba8: [Double(colour.red), Double(colour.green), Double(colour.blue), 255]
        case .gray8: [colour.luma, 0, 0, 0]
        default: [Double(colour.blue), Double(colour.green), Double(colour.red), 255]
        }
    }

    /// Draws a rectangle's outline.
    /// - Parameters:
    ///   - box: The rectangle, in pixels.
    ///   - colour: The line's colour.
    ///   - thickness: The line's thickness in pixels.
    /// - Throws: ``OcularError`` when the image's format cannot be drawn on (YUV).
    public mutating func drawRectangle(_ box: PixelRectangle, colour: Colour, thickness: Int) throws(OcularError) {
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

    /// The width and height in pixels of the tag ``drawLabel(_:at:height:colour:)`` draws.
    /// - Parameters:
    ///   - text: The label's text.
    ///   - height: The capitals' height in pixels.
    /// - Returns: The tag's width and height in pixels.
    public static func labelSize(_ text: String, height: Double) -> (width: Int, height: Int) {
        var width: Int32 = 0, tall: Int32 = 0
        ocv_label_size(labelText(text), height, &width, &tall)
        return (Int(width), Int(tall))
    }

    /// What Hershey's fonts can draw of `text`: printable ASCII, '?' for the rest, at most 200 characters.
    private static func labelText(_ text: String) -> String {
        // The few non-ASCII signs Ocular's own labels use get their ASCII look-alikes.
        let spelled = text.replacingOccurrences(of: "×", with: "x").replacingOccurrences(of: "−", with: "-")
            .replacingOccurrences(of: "–", with: "-").replacingOccurrences(of: "°", with: " deg")
        return String(spelled.unicodeScalars.map { $0.isASCII && $0.value >= 32 ? Character($0) : "?" }.prefix(200))
    }

    /// Writes `text` on a tag of `colour` (black or white letters, whichever reads), its corner at
    /// `origin`, capitals `height` pixels tall; characters Hershey's fonts lack become '?'.
    /// - Parameters:
    ///   - text: The label (printable ASCII; × − – ° are spelled in ASCII, other characters become '?').
    ///   - origin: The tag's top left corner.
    ///   - height: The capitals' height in pixels.
    ///   - colour: The tag's colour.
    /// - Throws: ``OcularError`` when the image's format cannot be drawn on (YUV).
    public mutating func drawLabel(_ text: String, at origin: (x: Int, y: Int), height: Double, colour: Colour) throws(OcularError) {
        let fill = channels(of: colour)
        let light = colour.luma > 140
        let ink = channels(of: light ? .black : .white)
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

    /// Draws a circle.
    /// - Parameters:
    ///   - centre: Its centre.
    ///   - radius: Its radius in pixels.
    ///   - colour: Its colour.
    ///   - thickness: The line's thickness; −1 fills it.
    /// - Throws: ``OcularError`` when the image's format cannot be drawn on (YUV).
    public mutating func drawCircle(at centre: Point, radius: Int, colour: Colour, thickness: Int) throws(OcularError) {
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

    /// Draws the anti-aliased line through `points` (at least two; points far off the picture are left
    /// out, as no chart needs them).
    /// - Parameters:
    ///   - points: The line's points, in pixels (fewer than two draw nothing).
    ///   - colour: Its colour.
    ///   - thickness: Its thickness in pixels.
    /// - Throws: ``OcularError`` when OpenCV cannot draw on the image (YUV).
    public mutating func drawPolyline(_ points: [Point], colour: Colour, thickness: Int) throws(OcularError) {
        let kept = points.filter { $0.x.isFinite && $0.y.isFinite && abs($0.x) < 1e6 && abs($0.y) < 1e6 }
        guard kept.count >= 2 else { return }
        let values = channels(of: colour)
        let coordinates = kept.flatMap { [$0.x, $0.y] }
        try withMutableMatrix { (canvas) throws(OcularError) in
            try OpenCV.call("polyline of \(kept.count) points") { error in
                values.withUnsafeBufferPointer { colour in
                    coordinates.withUnsafeBufferPointer {
                        ocv_draw_polyline(canvas, $0.baseAddress!, Int32(kept.count), colour.baseAddress!, Int32(thickness), error)
                    }
                }
            }
        }
    }

    /// Where a line of text is placed relative to its anchor point.
    public enum TextAnchor: Int32, Sendable {
        /// Where the text's anchor point lies: at its left end, its centre or its right end.
        case left = 0, centre = 1, right = 2
    }

    /// Writes `text` without a tag (for charts): capitals `height` pixels tall (4–400), its baseline at
    /// `origin.y` and its left end, middle or right end at `origin.x`.
    /// - Parameters:
    ///   - text: The text (printable ASCII; other characters become '?').
    ///   - origin: The anchor point on the baseline.
    ///   - height: The capitals' height, 4–400 pixels.
    ///   - anchor: Which end of the text stands at `origin.x`.
    ///   - colour: The letters' colour.
    /// - Throws: ``OcularError`` when OpenCV cannot draw on the image (YUV).
    public mutating func drawText(_ text: String, at origin: Point, height: Double, anchor: TextAnchor = .left,
                                  colour: Colour) throws(OcularError) {
        let values = channels(of: colour)
        let ascii = Self.labelText(text)
        try withMutableMatrix { (canvas) throws(OcularError) in
            try OpenCV.call("text '\(ascii)'") { error in
                values.withUnsafeBufferPointer {
                    ocv_draw_text(canvas, ascii, origin.x, origin.y, height, anchor.rawValue, $0.baseAddress!, error)
                }
            }
        }
    }
}

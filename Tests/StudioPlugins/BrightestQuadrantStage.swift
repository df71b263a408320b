import Ocular

/// A stage that exists only in tests: it finds the brightest quarter of the frame and reports it as a
/// `quadrant` annotation (group `quadrants`), a kind no part of the studio knows by name. It draws
/// nothing, so a page that shows it shows it from the annotation alone; marked, it boxes the quadrant
/// itself in magenta, a colour no page knows, and says so in the annotation.
public struct BrightestQuadrantStage: Stage {
    public static let name = "brightestQuadrant"
    public static let title = "Brightest quadrant"
    public static let category = StageCategory.colourEffect
    public static let summary = "Finds the brightest quarter of the frame (a stage of the tests, not of Ocular)."
    /// The “Marked” parameter: box the quadrant on the frame in ``markColour``.
    public static let marked = Key<Bool>.flag("marked", title: "Marked", default: false, help: "Box the quadrant in magenta.")
    public static let parameters = declared(marked)
    /// The colour a marked quadrant is boxed in.
    public static let markColour = Colour(red: 255, green: 0, blue: 255)
    public static let annotationKinds: [any FrameAnnotation.Type] = [Quadrant.self]

    /// One quarter of the frame and the mean of its samples.
    public struct Quadrant: FrameAnnotation {
        public static let kind = "quadrant"
        public static let group = "quadrants"
        public let name: String
        public let bounds: [Int]
        public let mean: Double
        public var markColour: Colour?

        // The colour travels as every marked finding's does ("colour", added by AnnotationGroups).
        private enum CodingKeys: String, CodingKey { case name, bounds, mean }
    }

    /// Whether the stage boxes the quadrant it reports.
    public let marks: Bool

    public init(_ values: StageValues) {
        marks = values[Self.marked]
    }

    public func process(_ frame: Frame) throws -> Frame {
        let image = frame.image
        let (halfWidth, halfHeight) = (image.width / 2, image.height / 2)
        let channels = image.format.channels
        let quadrants = [("top left", 0, 0), ("top right", halfWidth, 0), ("bottom left", 0, halfHeight), ("bottom right", halfWidth, halfHeight)]
        let found = quadrants.map { name, x, y in
            var total = 0
            for row in y..<(y + halfHeight) {
                let start = row * image.bytesPerRow + x * channels
                for index in start..<(start + halfWidth * channels) { total += Int(image.bytes[index]) }
            }
            return Quadrant(name: name, bounds: [x, y, halfWidth, halfHeight], mean: Double(total) / Double(max(1, halfWidth * halfHeight * channels)),
                            markColour: marks ? Self.markColour : nil)
        }
        var frame = frame
        guard let brightest = found.max(by: { $0.mean < $1.mean }) else { return frame }
        frame.annotations.append(brightest)
        if marks {
            let box = brightest.bounds
            try frame.image.drawRectangle(PixelRectangle(x: box[0], y: box[1], width: box[2], height: box[3]), colour: Self.markColour, thickness: 4)
        }
        return frame
    }
}

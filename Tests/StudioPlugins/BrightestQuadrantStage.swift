import Ocular

/// A stage that exists only in tests: it finds the brightest quarter of the frame and reports it as a
/// `quadrant` annotation (group `quadrants`), a kind no part of the studio knows by name. It draws
/// nothing, so a page that shows it shows it from the annotation alone.
public struct BrightestQuadrantStage: Stage {
    public static let name = "brightestQuadrant"
    public static let title = "Brightest quadrant"
    public static let category = StageCategory.colourEffect
    public static let summary = "Finds the brightest quarter of the frame (a stage of the tests, not of Ocular)."
    public static let parameters = declared()
    public static let annotationKinds: [any FrameAnnotation.Type] = [Quadrant.self]

    /// One quarter of the frame and the mean of its samples.
    public struct Quadrant: FrameAnnotation {
        public static let kind = "quadrant"
        public static let group = "quadrants"
        public let name: String
        public let bounds: [Int]
        public let mean: Double
    }

    public init(_ values: StageValues) {}

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
            return Quadrant(name: name, bounds: [x, y, halfWidth, halfHeight], mean: Double(total) / Double(max(1, halfWidth * halfHeight * channels)))
        }
        var frame = frame
        if let brightest = found.max(by: { $0.mean < $1.mean }) { frame.annotations.append(brightest) }
        return frame
    }
}

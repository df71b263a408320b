/// One image given as every frame: the studio's default when no camera exists, and a way to run a
/// video-shaped pipeline (the animated tint) over a photograph.
public final class StillSource: FrameSource {
    public let name: String
    public var width: Int { frame.width }
    /// The still's height.
    public var height: Int { frame.height }
    public let frameRate: Double
    public var frameCount: Int? { nil }
    public let colour: FrameColour
    private let frame: Image
    private var framesGiven = 0

    /// - Parameters:
    ///   - image: The picture.
    ///   - name: How messages name it.
    ///   - colour: Colour, or gray from its luma.
    ///   - frameRate: How many frames a second the still stands for, which sets their timestamps.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a frame rate that is not positive.
    public init(image: Image, name: String, colour: FrameColour = .colour, frameRate: Double = 30) throws(OcularError) {
        guard frameRate.isFinite, frameRate > 0 else { throw .invalidArgument("a still's frame rate must be above 0, got \(frameRate)") }
        self.name = name
        self.colour = colour
        self.frameRate = frameRate
        frame = try image.matching(colour)
    }

    /// A still read from an image file.
    /// - Parameters:
    ///   - path: The image file.
    ///   - colour: Colour, or gray from its luma.
    ///   - frameRate: How many frames a second the still stands for.
    ///   - options: How the file is read (the pixel limit).
    /// - Throws: ``OcularError`` naming the file when it cannot be read as an image.
    public convenience init(contentsOfFile path: String, colour: FrameColour = .colour, frameRate: Double = 30,
                            options: ImageReadOptions = ImageReadOptions()) throws(OcularError) {
        let image = try Image(contentsOfFile: path, options: options)
        try self.init(image: image, name: "still \(path)", colour: colour, frameRate: frameRate)
    }

    public func nextFrame() throws(OcularError) -> Frame? {
        defer { framesGiven += 1 }
        return Frame(image: frame, timestamp: frameDuration * framesGiven)
    }
}

/// What travels through a ``Pipeline``: an image, the moment it shows, and what stages found in it.
public struct Frame: Sendable {
    /// The pixels.
    public var image: Image
    /// When the frame shows, from the start of its stream or video: animated stages (the tint) follow
    /// this clock, so a video is tinted by its own time and not by how fast it is processed.
    public var timestamp: Duration
    /// What detection stages found (faces, blobs), in the order they added it.
    public var annotations: [any FrameAnnotation]

    /// - Parameters:
    ///   - image: The pixels.
    ///   - timestamp: When the frame shows, from the start of its stream.
    ///   - annotations: Findings already attached.
    public init(image: Image, timestamp: Duration = .zero, annotations: [any FrameAnnotation] = []) {
        self.image = image
        self.timestamp = timestamp
        self.annotations = annotations
    }

    /// The annotations of one kind, in the order they were added.
    public func annotations<Annotation: FrameAnnotation>(of kind: Annotation.Type) -> [Annotation] {
        annotations.compactMap { $0 as? Annotation }
    }
}

/// A finding a detection stage attaches to a frame (a face, a blob) for later stages, the CLI's
/// `--json` and the studio's messages.
public protocol FrameAnnotation: Sendable, Encodable {
    /// Names the kind in JSON, e.g. `face`.
    static var kind: String { get }
}

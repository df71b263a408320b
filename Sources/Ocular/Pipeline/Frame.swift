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

    /// The annotations grouped by kind, as JSON shows them.
    /// - Parameter listed: Kinds listed even when none was found.
    /// - Returns: The groups.
    public func annotationGroups(listing listed: [any FrameAnnotation.Type] = []) -> AnnotationGroups {
        AnnotationGroups(annotations, listing: listed)
    }

    /// The annotations of one kind, in the order they were added.
    /// - Parameter kind: The annotation type.
    /// - Returns: Those annotations.
    public func annotations<Annotation: FrameAnnotation>(of kind: Annotation.Type) -> [Annotation] {
        annotations.compactMap { $0 as? Annotation }
    }
}

/// A finding a detection stage attaches to a frame (a face, a blob) for later stages, the CLI's
/// `--json` and the studio's messages.
public protocol FrameAnnotation: Sendable, Encodable {
    /// Names one finding of the kind: `face`.
    static var kind: String { get }
    /// Names the list of them in JSON (the CLI's `--json`, the studio's messages): `faces`.
    static var group: String { get }
    /// The colour its stage marks it in on the frame (its box, outline and tag), which JSON carries as
    /// `"colour"` so a list of findings marks each as the frame does; nil when its stage does not
    /// mark it in a colour of its own (a page then draws its box in one of its choosing).
    var markColour: Colour? { get }
}

extension FrameAnnotation {
    public var markColour: Colour? { nil }
}

/// A frame's annotations as JSON shows them: one list per kind, under the kind's ``FrameAnnotation/group``,
/// `{"faces":[…],"blobs":[…]}`. Kinds it is told to list appear even when nothing of them was found,
/// so a reader can tell "none found" from "not looked for"; unknown kinds pass through as they are.
public struct AnnotationGroups: Encodable, Sendable {
    /// The groups, in the order first listed or found.
    public private(set) var groups: [(name: String, annotations: [any FrameAnnotation])] = []

    /// - Parameters:
    ///   - annotations: What the stages attached, in order.
    ///   - listed: Kinds listed even when empty: a pipeline's ``Pipeline/annotationKinds``.
    public init(_ annotations: [any FrameAnnotation], listing listed: [any FrameAnnotation.Type] = []) {
        for kind in listed { append(kind.group, nil) }
        for annotation in annotations { append(type(of: annotation).group, annotation) }
    }

    private mutating func append(_ group: String, _ annotation: (any FrameAnnotation)?) {
        let index = groups.firstIndex { $0.name == group } ?? {
            groups.append((group, []))
            return groups.count - 1
        }()
        if let annotation { groups[index].annotations.append(annotation) }
    }

    /// The annotations of one group; empty when there is none.
    /// - Parameter group: The group's name.
    /// - Returns: Its annotations.
    public subscript(group: String) -> [any FrameAnnotation] {
        groups.first { $0.name == group }?.annotations ?? []
    }

    /// Encodes every group as a list under its name, each finding with its ``FrameAnnotation/markColour``
    /// as `"colour":"#rrggbb"` where it has one.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: GroupKey.self)
        for group in groups {
            try container.encode(group.annotations.map(Encoded.init), forKey: GroupKey(stringValue: group.name))
        }
    }

    private struct Encoded: Encodable {
        let annotation: any FrameAnnotation
        func encode(to encoder: any Encoder) throws {
            try annotation.encode(to: encoder)
            guard let colour = annotation.markColour else { return }
            // The same keyed container the annotation wrote into: its fields, then the colour.
            var container = encoder.container(keyedBy: MarkKey.self)
            try container.encode(colour.hex, forKey: .colour)
        }
    }

    private enum MarkKey: String, CodingKey {
        case colour
    }

    private struct GroupKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

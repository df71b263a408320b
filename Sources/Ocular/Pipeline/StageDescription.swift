/// A stage's declaration as the CLI's `stages --json` and the studio's `hello` publish it.
public struct StageDescription: Sendable, Equatable, Encodable {
    /// As recipes spell it: `whiteBalance`.
    public var name: String
    /// What people read: "White balance".
    public var title: String
    /// The stage's category.
    public var category: StageCategory
    /// One sentence on what the stage does.
    public var summary: String
    /// The declared parameters, in the order controls show them.
    public var parameters: [ParameterDescriptor]
    /// What the stage attaches to frames, kind and JSON group (`{"kind":"face","group":"faces"}`), so a
    /// page can tell a recipe that finds things from one that does not.
    public var annotations: [AnnotationKind]
    /// Whether it is one of the Core Image–style filters (``FilterStage``), which the Filters page lists.
    public var filter: Bool

    /// One kind of ``FrameAnnotation`` by its names.
    public struct AnnotationKind: Sendable, Equatable, Encodable {
        /// The kind of annotation ("face").
        public var kind: String
        /// The group its annotations are listed under ("faces").
        public var group: String

        /// Describes an annotation type.
        /// - Parameter annotation: The type.
        public init(_ annotation: any FrameAnnotation.Type) {
            kind = annotation.kind
            group = annotation.group
        }
    }
}

extension ParameterDescriptor: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, title, kind, help, minimum, maximum, step, integer, options
        case defaultValue = "default"
    }

    /// `{"name", "title", "kind", "default", "help"}` plus `minimum`, `maximum`, `step`, `integer` for a
    /// number and `options` for a choice.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(title, forKey: .title)
        try container.encode(kind.name, forKey: .kind)
        try container.encode(defaultValue, forKey: .defaultValue)
        try container.encode(help, forKey: .help)
        switch kind {
        case .number(let minimum, let maximum, let step, let integer):
            try container.encode(ParameterValue.number(minimum), forKey: .minimum)
            try container.encode(ParameterValue.number(maximum), forKey: .maximum)
            try container.encode(ParameterValue.number(step), forKey: .step)
            try container.encode(integer, forKey: .integer)
        case .choice(let options):
            try container.encode(options, forKey: .options)
        case .flag, .colour, .point, .image, .trainingList:
            break
        }
    }
}

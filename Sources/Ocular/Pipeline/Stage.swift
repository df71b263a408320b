/// One step of a ``Pipeline``: changes or annotates a frame. A stage declares its parameters; the
/// CLI, the studio and the docs list and set them from that declaration, so a new capability is one
/// type in one file, added to ``StageRegistry/standard``.
///
/// A stage is built from values already checked against its ``parameters``; it checks only what one
/// parameter cannot say alone (a range's low end above its high end).
public protocol Stage: Sendable {
    /// lowerCamelCase, as recipes spell it: `whiteBalance`.
    static var name: String { get }
    /// What people read: "White balance".
    static var title: String { get }
    static var category: StageCategory { get }
    /// One sentence on what the stage does.
    static var summary: String { get }
    /// The parameters, in the order controls show them.
    static var parameters: [ParameterDescriptor] { get }
    /// The ``FrameAnnotation/kind`` a detection stage attaches (`face`, `blob`); nil for the others.
    static var annotationKind: String? { get }

    /// Builds the stage.
    /// - Parameter values: Every declared parameter's value, already checked against its declaration.
    /// - Throws: ``StageError`` when the values do not fit together.
    init(_ values: StageValues) throws(StageError)

    /// Processes one frame.
    /// - Parameter frame: The frame, in any pixel format.
    /// - Returns: The frame with its image changed or annotations added.
    func process(_ frame: Frame) throws(OcularError) -> Frame
}

extension Stage {
    public static var annotationKind: String? { nil }

    /// The stage with every parameter at its default.
    public static func withDefaults() throws(StageError) -> Self {
        try Self(StageValues(stage: name, declarations: parameters, given: [:]))
    }

    /// The stage with the given values, the others at their defaults.
    /// - Parameters:
    ///   - values: By parameter name.
    ///   - images: Where image parameters' ids are looked up.
    /// - Throws: ``StageError`` for an unknown parameter, a value the declaration does not allow, or
    ///   an image that cannot be had.
    public static func with(_ values: [String: ParameterValue], images: any ImageCatalog = NoImages()) throws(StageError) -> Self {
        try Self(StageValues(stage: name, declarations: parameters, given: values, images: images))
    }

    /// How the stage describes itself to the CLI, the studio and the docs.
    public static var stageDescription: StageDescription {
        StageDescription(name: name, title: title, category: category, summary: summary, parameters: parameters)
    }
}

/// What kind of work a stage does (SPEC §7's categories plus detection).
public enum StageCategory: String, Sendable, Codable, CaseIterable {
    case colourAdjustment, colourEffect, blur, sharpen, stylize, geometry, composite, generator, detection
}

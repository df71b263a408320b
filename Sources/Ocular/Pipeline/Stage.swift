/// One step of a ``Pipeline``: changes or annotates a frame. A stage declares its parameters as typed
/// keys (``Parameter``); the CLI, the studio and the docs list and set them from those declarations,
/// so a new capability is one type in one file, added to ``StageRegistry/standard``.
///
/// A stage is built from values already checked against its ``parameters``; it checks only what one
/// parameter cannot say alone (a range's low end above its high end). Its errors may be of any type:
/// a ``Pipeline`` names the stage in the message of those that are not ``StageError``s already.
public protocol Stage: Sendable {
    /// lowerCamelCase, as recipes spell it: `whiteBalance`.
    static var name: String { get }
    /// What people read: "White balance".
    static var title: String { get }
    /// The kind of work it does: where the studio, `ocular stages` and the stage gallery list it.
    static var category: StageCategory { get }
    /// One sentence on what the stage does.
    static var summary: String { get }
    /// The parameters, in the order controls show them.
    static var parameters: [ParameterDescriptor] { get }
    /// The kinds of ``FrameAnnotation`` a detection stage attaches to every frame (`[Face.self]`);
    /// empty for the others.
    static var annotationKinds: [any FrameAnnotation.Type] { get }

    /// Builds the stage.
    /// - Parameter values: Every declared parameter's value, already checked against its declaration.
    /// - Throws: Why the values cannot be used together (``StageError`` names the parameter at fault).
    init(_ values: StageValues) throws

    /// Processes one frame.
    /// - Parameter frame: The frame, in any pixel format.
    /// - Returns: The frame with its image changed or annotations added.
    /// - Throws: Why the frame cannot be processed.
    func process(_ frame: Frame) throws -> Frame
}

extension Stage {
    public static var annotationKinds: [any FrameAnnotation.Type] { [] }

    /// The stage with every parameter at its default.
    /// - Returns: The stage.
    /// - Throws: ``StageError`` when the defaults alone cannot build it (a required picture).
    public static func withDefaults() throws(StageError) -> Self {
        try with([:])
    }

    /// The stage built from checked values; an error that is not a ``StageError`` already becomes
    /// one naming this stage.
    /// - Parameter values: Every declared parameter's value, checked.
    /// - Returns: The stage.
    /// - Throws: ``StageError`` naming this stage.
    public static func built(from values: StageValues) throws(StageError) -> Self {
        do {
            return try Self(values)
        } catch let error as StageError {
            throw error
        } catch {
            throw StageError(stage: name, reason: "\(error)")
        }
    }

    /// The stage with the given values, the others at their defaults.
    /// - Parameters:
    ///   - values: By parameter name.
    ///   - images: Where image parameters' ids are looked up.
    /// - Returns: The stage.
    /// - Throws: ``StageError`` for an unknown parameter, a value the declaration does not allow, or
    ///   an image that cannot be had.
    public static func with(_ values: [String: ParameterValue], images: any ImageCatalog = NoImages()) throws(StageError) -> Self {
        try built(from: StageValues(stage: name, declarations: parameters, given: values, images: images))
    }

    /// How the stage describes itself to the CLI, the studio and the docs.
    public static var stageDescription: StageDescription {
        StageDescription(name: name, title: title, category: category, summary: summary, parameters: parameters,
                         annotations: annotationKinds.map(StageDescription.AnnotationKind.init), filter: Self.self is any FilterStage.Type)
    }
}

/// What kind of work a stage does (Core Image's categories plus detection, and the OpenCV tutorial's
/// samples, which the studio's Samples page lists).
public enum StageCategory: String, Sendable, Codable, CaseIterable {
    /// Colour adjustments, colour effects, blurs, sharpening, stylizing, geometry, compositing, generators, detection, and the tutorial's samples.
    case colourAdjustment, colourEffect, blur, sharpen, stylize, geometry, composite, generator, detection, sample

    /// What people read: "Colour adjustment". The cases' order is the order lists show them in.
    public var title: String {
        switch self {
        case .colourAdjustment: "Colour adjustment"
        case .colourEffect: "Colour effect"
        case .blur: "Blur"
        case .sharpen: "Sharpen"
        case .stylize: "Stylize"
        case .geometry: "Geometry"
        case .composite: "Composite"
        case .generator: "Generator"
        case .detection: "Detection"
        case .sample: "Samples"
        }
    }
}

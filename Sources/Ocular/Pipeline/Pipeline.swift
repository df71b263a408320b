/// Stages applied in order to each frame: the data flow `source → pipeline → sink` in its middle.
/// Built from a ``Recipe``; every value is checked before any frame is processed.
public struct Pipeline: Sendable {
    /// A stage with the values it was built from.
    public struct Step: Sendable {
        public let stage: any Stage
        public let values: StageValues
    }

    /// The stages, in order.
    public let steps: [Step]

    /// Builds the stages a recipe names.
    /// - Parameters:
    ///   - recipe: The stages and their values.
    ///   - registry: Where stage names are looked up.
    ///   - images: Where the pictures that image parameters name by id are looked up.
    /// - Throws: ``StageError`` naming the stage, the parameter and what is allowed.
    public init(_ recipe: Recipe, registry: StageRegistry = .standard, images: any ImageCatalog = NoImages()) throws(StageError) {
        guard recipe.stages.count <= Recipe.maximumStages else {
            throw StageError(reason: "a recipe has at most \(Recipe.maximumStages) stages, this one \(recipe.stages.count)")
        }
        var steps: [Step] = []
        for step in recipe.stages {
            let type = try registry.stage(named: step.stage)
            let values = try StageValues(stage: type.name, declarations: type.parameters, given: step.values, images: images)
            steps.append(Step(stage: try type.built(from: values), values: values))
        }
        self.steps = steps
    }

    /// The recipe with every value spelled out, defaults included.
    public var recipe: Recipe {
        Recipe(stages: steps.map { Recipe.Step($0.values.stage, $0.values.values) })
    }

    /// Whether a stage of the detection category (faces, blobs) is in it: its frames carry findings.
    public var detects: Bool {
        steps.contains { type(of: $0.stage).category == .detection }
    }

    /// The kinds of annotation its stages attach, in order, each once: `[Face.self]`.
    public var annotationKinds: [any FrameAnnotation.Type] {
        steps.flatMap { type(of: $0.stage).annotationKinds }.reduce(into: []) { kinds, kind in
            if !kinds.contains(where: { $0.kind == kind.kind }) { kinds.append(kind) }
        }
    }

    /// Runs every stage on a frame, in order.
    /// - Returns: The frame with its image processed and what the detection stages found in its
    ///   ``Frame/annotations`` (``Frame/annotationGroups(listing:)`` groups them as JSON shows them).
    /// - Throws: The first stage's error, as the stage threw it.
    public func process(_ frame: Frame) throws -> Frame {
        var frame = frame
        for step in steps { frame = try step.stage.process(frame) }
        return frame
    }

    /// Runs every stage on an image shown at `timestamp`.
    /// - Returns: The processed image and its annotations.
    public func processed(_ image: Image, at timestamp: Duration = .zero) throws -> Frame {
        try process(Frame(image: image, timestamp: timestamp))
    }

    /// Runs every stage on an image shown at `timestamp`.
    /// - Returns: The processed image alone.
    public func process(_ image: Image, at timestamp: Duration = .zero) throws -> Image {
        try process(Frame(image: image, timestamp: timestamp)).image
    }
}

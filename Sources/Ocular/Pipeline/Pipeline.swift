/// Stages applied in order to each frame: the data flow `source → pipeline → sink` in its middle.
/// Built from a ``Recipe``; every value is checked before any frame is processed.
public struct Pipeline: Sendable {
    /// A stage with the values it was built from.
    public struct Step: Sendable {
        /// The stage, built.
        public let stage: any Stage
        /// The values it was built with, as checked.
        public let values: StageValues

        /// A stage built in code, with the values it stands for in ``Pipeline/recipe``.
        /// - Parameters:
        ///   - stage: The stage.
        ///   - values: Its declared parameters' values, as checked by ``StageValues``.
        public init(_ stage: any Stage, values: StageValues) {
            self.stage = stage
            self.values = values
        }
    }

    /// The stages, in order.
    public let steps: [Step]

    /// What running the pipeline does to a frame: one pass per stage, except that each run of consecutive
    /// point-wise colour stages (``ColourOperationStage``) is one ``ColourProgram``, compiled here once.
    public enum Pass: Sendable {
        /// One stage, run on the frame.
        case stage(Step)
        /// A run of colour stages, fused into one pass.
        case fused(ColourProgram)
    }

    /// The passes the stages compile to, in order.
    public let passes: [Pass]

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
            steps.append(Step(try type.built(from: values), values: values))
        }
        self.init(steps: steps)
    }

    /// Runs stages built in code (a faces stage given its own detector, say) the way a recipe's run:
    /// fused where they can be, through ``run(from:into:limit:progress:)`` and the rest.
    /// - Parameter steps: The stages with their values, in order.
    public init(steps: [Step]) {
        self.steps = steps
        passes = Self.compiled(steps)
    }

    /// Each run of colour stages (one or more) becomes one program; every other stage is its own pass.
    private static func compiled(_ steps: [Step]) -> [Pass] {
        var passes: [Pass] = []
        var run: [(stage: String, operation: ColourOperation)] = []
        for step in steps {
            if let colour = step.stage as? any ColourOperationStage {
                run.append((type(of: colour).name, colour.operation))
                continue
            }
            if !run.isEmpty { passes.append(.fused(ColourProgram(run))) }
            run = []
            passes.append(.stage(step))
        }
        if !run.isEmpty { passes.append(.fused(ColourProgram(run))) }
        return passes
    }

    /// The passes in words: a line per pass, and under a colour pass a line per step. What
    /// `ocular apply --explain` prints.
    public var explanation: [String] {
        passes.enumerated().flatMap { index, pass -> [String] in
            switch pass {
            case .stage(let step):
                return ["pass \(index + 1): \(type(of: step.stage).name)"]
            case .fused(let program):
                let stages = program.steps.flatMap(\.stages)
                let what = stages.count == 1 ? "(one colour step)" : "fused into one pass over the pixels"
                return ["pass \(index + 1): \(stages.joined(separator: ", ")) \(what)"] + program.stepLines
            }
        }
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
    /// - Parameter frame: The frame, in any pixel format.
    /// - Returns: The frame with its image processed and what the detection stages found in its
    ///   ``Frame/annotations`` (``Frame/annotationGroups(listing:)`` groups them as JSON shows them).
    /// - Throws: The first stage's error, as the stage threw it.
    public func process(_ frame: Frame) throws -> Frame {
        var frame = frame
        for pass in passes {
            switch pass {
            case .stage(let step): frame = try step.stage.process(frame)
            case .fused(let program): frame.image = try program.apply(to: frame.image)
            }
        }
        return frame
    }

    /// Runs every stage on an image shown at `timestamp`.
    /// - Parameters:
    ///   - image: The image.
    ///   - timestamp: When it is shown, for animated stages.
    /// - Throws: The first stage's error, naming the stage.
    /// - Returns: The processed image alone (`process(_:)` on a ``Frame`` keeps its annotations).
    public func process(_ image: Image, at timestamp: Duration = .zero) throws -> Image {
        try process(Frame(image: image, timestamp: timestamp)).image
    }
}

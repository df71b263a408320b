/// Every stage a recipe may name, in the order controls list them.
public struct StageRegistry: Sendable {
    /// The stage types, in order.
    public let stages: [any Stage.Type]

    public init(_ stages: [any Stage.Type]) {
        self.stages = stages
    }

    /// Ocular's stages. A new stage is added here, and nowhere else.
    public static let standard = StageRegistry([
        GrayStage.self,
        WhiteBalanceStage.self,
        TintStage.self,
        BlendStage.self,
        FacesStage.self,
        BlobsStage.self,
        PosterizeStage.self,
        // The OpenCV tutorial's samples (SPEC §6), in its order.
        EdgesStage.self,
        CornersStage.self,
        SepiaStage.self,
        NegativeStage.self,
        ContrastBrightnessStage.self,
        ContoursStage.self,
        CartoonStage.self,
        FeaturesStage.self,
        TrackingStage.self,
        TotalVariationStage.self,
        DrawingCanvasStage.self,
    ])

    /// The stage of that name.
    /// - Throws: ``StageError`` listing the stages when there is none.
    public func stage(named name: String) throws(StageError) -> any Stage.Type {
        for stage in stages where stage.name == name { return stage }
        throw StageError(reason: "unknown stage \(StageError.quoted(name)); the stages are \(names.joined(separator: ", "))")
    }

    /// The stages' names, in order.
    public var names: [String] { stages.map { $0.name } }

    /// Every stage's declaration, in order.
    public var descriptions: [StageDescription] { stages.map { $0.stageDescription } }
}

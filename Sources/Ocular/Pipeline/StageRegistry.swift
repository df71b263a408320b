/// Every stage a recipe may name, in the order controls list them.
public struct StageRegistry: Sendable {
    /// The stage types, in order.
    public let stages: [any Stage.Type]

    /// Creates a registry.
    /// - Parameter stages: The stage types, in the order lists show them.
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
        ZoomStage.self,
        // The OpenCV tutorial's samples, in its order.
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
        // The Core Image–style filters, by category.
        ColourControlsFilter.self,
        ExposureAdjustFilter.self,
        GammaAdjustFilter.self,
        HueAdjustFilter.self,
        VibranceFilter.self,
        HighlightShadowAdjustFilter.self,
        TemperatureAndTintFilter.self,
        WhitePointAdjustFilter.self,
        ToneCurveFilter.self,
        ColourMatrixFilter.self,
        SepiaToneFilter.self,
        GaussianBlurFilter.self,
        StraightenFilter.self,
        AffineTransformFilter.self,
        CropFilter.self,
        SourceOverCompositingFilter.self,
        ConstantColourGeneratorFilter.self,
    ])

    /// The stage of that name.
    /// - Parameter name: The stage's name, as recipes spell it.
    /// - Returns: The stage type.
    /// - Throws: ``StageError`` naming the three stages nearest in spelling when there is none (the
    ///   whole list no longer fits a message).
    public func stage(named name: String) throws(StageError) -> any Stage.Type {
        for stage in stages where stage.name == name { return stage }
        let nearest = nearestNames(to: name, count: 3).map { "'\($0)'" }.joined(separator: ", ")
        throw StageError(reason: "unknown stage \(StageError.quoted(name)); the nearest names are \(nearest) (\(stages.count) stages in all)")
    }

    /// The names closest to `text` by edit distance (case ignored), closest first.
    /// - Parameters:
    ///   - text: A misspelt name.
    ///   - count: How many names to give.
    /// - Returns: The names.
    public func nearestNames(to text: String, count: Int) -> [String] {
        let typed = Array(text.lowercased().prefix(64))
        func distance(_ name: String) -> Int {
            let target = Array(name.lowercased())
            var previous = Array(0...target.count)
            for (row, character) in typed.enumerated() {
                var current = [row + 1]
                for (column, other) in target.enumerated() {
                    current.append(Swift.min(previous[column + 1] + 1, current[column] + 1, previous[column] + (character == other ? 0 : 1)))
                }
                previous = current
            }
            return previous[target.count]
        }
        return names.map { ($0, distance($0)) }.sorted { $0.1 < $1.1 }.prefix(count).map(\.0)
    }

    /// The stages' names, in order.
    public var names: [String] { stages.map { $0.name } }

    /// Every stage's declaration, in order.
    public var descriptions: [StageDescription] { stages.map { $0.stageDescription } }
}

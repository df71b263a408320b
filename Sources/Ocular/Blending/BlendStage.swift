/// Blends a picked picture into every frame as a stage.
public struct BlendStage: Stage {
    public static let name = "blend"
    public static let title = "Blend"
    public static let category = StageCategory.composite
    public static let summary = "Blends a picture into every frame: the textbook's modes and the sixteen W3C blend modes, with an opacity."

    public static let parameters: [ParameterDescriptor] = [
        .image("source", title: "Picture", help: "The picture blended in; cropped to the frame's shape around its centre."),
        .choice("mode", title: "Mode", options: BlendMode.allCases.map { .init($0.rawValue, title: $0.title) }, default: BlendMode.screen.rawValue,
                help: "How the picture combines with the frame (W3C Compositing Level 1; HUD screens the picture's edges)."),
        .number("opacity", title: "Opacity", in: 0...1, step: 0.01, default: 1,
                help: "How much of the blend shows: 0 leaves the frame as it is."),
    ]

    /// A recipe step blending the picture `source` names (a file path, an upload's id, …) by `mode`.
    public static func step(source: String, mode: String, opacity: Double) -> Recipe.Step {
        Recipe.Step(name, ["source": .text(source), "mode": .text(mode), "opacity": .number(opacity)])
    }

    /// `nil` while no picture is chosen: frames pass unchanged.
    public let blend: Blend?

    public init(_ values: StageValues) throws(StageError) {
        let mode = BlendMode(rawValue: values.text("mode") ?? "") ?? .screen
        guard let source = try values.image("source") else {
            blend = nil
            return
        }
        do {
            blend = try Blend(source: source, mode: mode, opacity: values.number("opacity"))
        } catch {
            throw StageError(stage: Self.name, parameter: "opacity", reason: error.description)
        }
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        guard let blend else { return frame }
        var frame = frame
        frame.image = try blend.apply(to: frame.image)
        return frame
    }
}

/// Blends a picked picture into every frame as a stage.
public struct BlendStage: Stage {
    public static let name = "blend"
    public static let title = "Blend"
    public static let category = StageCategory.composite
    public static let summary = "Blends a picture into every frame: the textbook's modes and the sixteen W3C blend modes, with an opacity."

    /// The “Picture” parameter: The picture blended in; cropped to the frame's shape around its centre.
    public static let source = Key<Image?>.image(
        "source", title: "Picture", help: "The picture blended in; cropped to the frame's shape around its centre.")
    /// The “Mode” parameter: How the picture combines with the frame (W3C Compositing Level 1; HUD screens the picture's edges).
    public static let mode = Key<BlendMode>.choice(
        "mode", title: "Mode", default: .screen,
        help: "How the picture combines with the frame (W3C Compositing Level 1; HUD screens the picture's edges).")
    /// The “Opacity” parameter: How much of the blend shows: 0 leaves the frame as it is.
    public static let opacity = Key<Double>.number(
        "opacity", title: "Opacity", in: 0...1, step: 0.01, default: 1, help: "How much of the blend shows: 0 leaves the frame as it is.")
    public static let parameters = declared(source, mode, opacity)

    /// A recipe step blending the picture `source` names (a file path, an upload's id, …) by `mode`.
    /// - Parameters:
    ///   - source: The picture's id.
    ///   - mode: How it combines.
    ///   - opacity: How much of the blend shows, 0…1.
    /// - Returns: The step, for a ``Recipe``.
    public static func step(source: String, mode: BlendMode, opacity: Double) -> Recipe.Step {
        step(Self.source(id: source), Self.mode(mode), Self.opacity(opacity))
    }

    /// `nil` while no picture is chosen: frames pass unchanged.
    public let blend: Blend?

    public init(_ values: StageValues) throws(StageError) {
        guard let source = try values[Self.source] else {
            blend = nil
            return
        }
        do {
            blend = try Blend(source: source, mode: values[Self.mode], opacity: values[Self.opacity])
        } catch {
            throw StageError(stage: Self.name, parameter: Self.opacity.name, reason: error.description)
        }
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        guard let blend else { return frame }
        var frame = frame
        frame.image = try blend.apply(to: frame.image)
        return frame
    }
}

import Foundation

extension Interpolation: ParameterChoice {}

/// Digital zoom: crops around a centre by a factor and scales the crop back to the frame's
/// size. Up to ``ZoomPlanner``'s lossless threshold a camera can deliver this without losing detail
/// (ask it for the planner's crop); beyond it, and on a frame already at output size, the crop is
/// enlarged and detail falls about as 1/zoom, which `ocular zoom prove` measures.
public struct ZoomStage: Stage {
    public static let name = "zoom"
    public static let title = "Zoom"
    public static let category = StageCategory.geometry
    public static let summary = "Digital zoom: enlarges the middle (or any point) of the picture by a factor, up to the frame's height / 10."
    /// The “Zoom” parameter: How many times larger; at most the frame's height / 10 (108× for 1080 lines), where the view is 10 × 10 pixels.
    public static let factor = Key<Double>.number("factor", title: "Zoom", in: 1...128, step: 0.1, default: 1,
                                                  help: "How many times larger; at most the frame's height / 10 (108× for 1080 lines), where the view is 10 × 10 pixels.")
    /// The “Centre” parameter: The point that stays in the middle, as fractions of the width and height; near an edge the view slides to stay inside the picture.
    public static let centre = Key<Point>.point("centre", title: "Centre", default: Point(x: 0.5, y: 0.5),
                                                help: "The point that stays in the middle, as fractions of the width and height; near an edge the view slides to stay inside the picture.")
    /// The “Interpolation” parameter: How enlarged pixels are computed.
    public static let interpolation = Key<Interpolation>.choice("interpolation", title: "Interpolation", default: .bicubic,
                                                                help: "How enlarged pixels are computed.")
    public static let parameters = declared(factor, centre, interpolation)

    /// The value of the `factor` parameter this stage was built with.
    public let factor: Double
    /// The value of the `centre` parameter this stage was built with.
    public let centre: Point
    /// The value of the `interpolation` parameter this stage was built with.
    public let interpolation: Interpolation

    public init(_ values: StageValues) {
        (factor, centre, interpolation) = (values[Self.factor], values[Self.centre], values[Self.interpolation])
    }

    /// The zoom this stage applies to a frame `height` pixels high: its factor, capped where the view
    /// would be under 10 pixels high.
    /// - Parameter height: The frame's height.
    /// - Returns: The zoom applied.
    public func effectiveFactor(height: Int) -> Double {
        min(factor, max(1, Double(height) / Double(ZoomPlanner.smallestViewSide)))
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        let zoom = effectiveFactor(height: frame.image.height)
        guard zoom > 1 else { return frame }
        var frame = frame
        frame.image = try frame.image.zoomed(by: zoom, about: centre, to: PixelSize(width: frame.image.width, height: frame.image.height),
                                             interpolation: interpolation)
        return frame
    }
}

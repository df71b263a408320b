/// The tutorial's cartoon: colours flattened by mean-shift filtering, then the edges of the
/// flattened picture inked in black.
public struct CartoonStage: Stage {
    public static let name = "cartoon"
    public static let title = "Cartoon"
    public static let category = StageCategory.sample
    public static let summary = "Flat patches of colour with black outlines, like a comic; use it for fun, "
        + "or to see how mean shift groups a picture's colours. Slow: about 0.6 s a 720p frame (mean shift is one thread)."

    /// The “Spatial radius” parameter: How far, in pixels, colours are gathered into a patch.
    public static let spatialRadius = Key<Double>.number("spatialRadius", title: "Spatial radius", in: 1...40, step: 1, default: 10,
                                                         help: "How far, in pixels, colours are gathered into a patch.")
    /// The “Colour radius” parameter: How different colours may be and still join one patch.
    public static let colourRadius = Key<Double>.number("colourRadius", title: "Colour radius", in: 1...80, step: 1, default: 30,
                                                        help: "How different colours may be and still join one patch.")
    /// The “Pyramid levels” parameter: Mean shift on smaller copies first: faster, and coarser patches.
    public static let levels = Key<Int>.integer("levels", title: "Pyramid levels", in: 0...3, default: 1,
                                                help: "Mean shift on smaller copies first: faster, and coarser patches.")
    /// The “Edge threshold” parameter: Canny's high threshold for the outlines (the low one is half): higher inks fewer lines.
    public static let edgeThreshold = Key<Double>.number("edgeThreshold", title: "Edge threshold", in: 10...300, step: 1, default: 80,
                                                         help: "Canny's high threshold for the outlines (the low one is half): higher inks fewer lines.")
    /// The “Line width” parameter: The outlines' width in pixels.
    public static let edgeThickness = Key<Int>.integer("edgeThickness", title: "Line width", in: 1...5, default: 2,
                                                       help: "The outlines' width in pixels.")
    public static let parameters = declared(spatialRadius, colourRadius, levels, edgeThreshold, edgeThickness)

    /// The values of the parameters this stage was built with.
    public let values: (spatialRadius: Double, colourRadius: Double, levels: Int, edgeThreshold: Double, edgeThickness: Int)

    public init(_ values: StageValues) {
        self.values = (values[Self.spatialRadius], values[Self.colourRadius], values[Self.levels], values[Self.edgeThreshold], values[Self.edgeThickness])
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let format = frame.image.format == .gray8 || frame.image.format.isYUV ? PixelFormat.bgr8 : frame.image.format
        var flat = try frame.image.converted(to: .bgr8)
            .meanShiftFiltered(spatialRadius: values.spatialRadius, colourRadius: values.colourRadius, levels: values.levels)
        var edges = try flat.converted(to: .gray8).cannyEdges(low: values.edgeThreshold / 2, high: values.edgeThreshold, aperture: 3)
        if values.edgeThickness > 1 { edges = try edges.dilated(by: values.edgeThickness) }
        try flat.paint(Colour(red: 0, green: 0, blue: 0), where: edges)
        frame.image = try flat.converted(to: format)
        return frame
    }
}

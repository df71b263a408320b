// The names spelt "color" before Ocular spelt colour one way in its public names: kept for one version so
// that code written against them still builds, each with a warning naming its new name. Recipes and the
// command line are unchanged: stage and parameter names are Core Image's and CSS's ("colorMatrix",
// "color-dodge"), which are what a recipe writes.

/// The former name of ``ColourControlsFilter``.
@available(*, deprecated, renamed: "ColourControlsFilter")
public typealias ColorControlsFilter = ColourControlsFilter

/// The former name of ``ColourMatrixFilter``.
@available(*, deprecated, renamed: "ColourMatrixFilter")
public typealias ColorMatrixFilter = ColourMatrixFilter

/// The former name of ``ConstantColourGeneratorFilter``.
@available(*, deprecated, renamed: "ConstantColourGeneratorFilter")
public typealias ConstantColorGeneratorFilter = ConstantColourGeneratorFilter

extension WhitePointAdjustFilter {
    /// The “White becomes” parameter.
    @available(*, deprecated, renamed: "colour")
    public static var color: Key<Colour> { colour }

    /// The value of the `color` parameter this stage was built with.
    @available(*, deprecated, renamed: "colour")
    public var color: Colour { colour }
}

extension ConstantColourGeneratorFilter {
    /// The “Colour” parameter.
    @available(*, deprecated, renamed: "colour")
    public static var color: Key<Colour> { colour }

    /// The value of the `color` parameter this stage was built with.
    @available(*, deprecated, renamed: "colour")
    public var color: Colour { colour }
}

extension BlendMode {
    /// W3C's `color-dodge`.
    @available(*, deprecated, renamed: "colourDodge")
    public static var colorDodge: BlendMode { .colourDodge }

    /// W3C's `color-burn`.
    @available(*, deprecated, renamed: "colourBurn")
    public static var colorBurn: BlendMode { .colourBurn }

    /// W3C's `color`.
    @available(*, deprecated, renamed: "colour")
    public static var color: BlendMode { .colour }
}

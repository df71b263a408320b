import Foundation

/// The Core Image–style geometry filters: straighten, affine transform and crop. Pictures are resampled bilinearly
/// (cv::warpAffine); YUV frames come back as BGR.

/// Turns the picture by an angle and enlarges it just enough that no empty corner shows.
public struct StraightenFilter: FilterStage {
    public static let name = "straighten"
    public static let title = "Straighten"
    public static let category = StageCategory.geometry
    public static let summary = "Levels a tilted horizon: turns the picture and zooms in just enough to leave no empty corners."
    /// The “Angle” parameter: Degrees, clockwise on screen (Core Image takes radians).
    public static let angle = Key<Double>.number("angle", title: "Angle", in: -45...45, step: 0.1, default: 0,
                                                 help: "Degrees, clockwise on screen (Core Image takes radians).")
    public static let parameters = declared(angle)

    /// The value of the `angle` parameter this stage was built with.
    public let angle: Double

    public init(_ values: StageValues) {
        angle = values[Self.angle]
    }

    /// How much a `width × height` picture turned by `degrees` must grow to cover its own frame:
    /// |cos θ| + max(w/h, h/w)·|sin θ|.
    /// - Parameters:
    ///   - width: The picture's width.
    ///   - height: The picture's height.
    ///   - degrees: The turn.
    /// - Returns: The scale, 1 or more.
    public static func scale(width: Int, height: Int, degrees: Double) -> Double {
        let radians = degrees * .pi / 180
        let (w, h) = (Double(width), Double(height))
        return abs(cos(radians)) + max(w / h, h / w) * abs(sin(radians))
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        guard angle != 0 else { return frame }
        var frame = frame
        let image = frame.image
        let scale = Self.scale(width: image.width, height: image.height, degrees: angle)
        let radians = angle * .pi / 180, (c, s) = (cos(radians) * scale, sin(radians) * scale)
        let (cx, cy) = (Double(image.width - 1) / 2, Double(image.height - 1) / 2)
        let map = try AffineMatrix(coefficients: [c, -s, cx - c * cx + s * cy, s, c, cy - s * cx - c * cy])
        // Edges repeated: bilinear sampling at the very border reads half a pixel beyond it.
        frame.image = try image.warped(by: map, width: image.width, height: image.height, replicatingEdges: true)
        return frame
    }
}

/// The picture mapped by x′ = a·x + c·y, y′ = b·x + d·y (Core Image's CGAffineTransform without its
/// shift, which only moves the result): the output is the mapped picture's bounding box, black where
/// the picture does not reach.
public struct AffineTransformFilter: FilterStage {
    public static let name = "affineTransform"
    public static let title = "Affine transform"
    public static let category = StageCategory.geometry
    public static let summary = "Scales, shears, turns or mirrors the picture by a 2×2 matrix; the output is as large as the result."
    /// The “a (x from x)” parameter: x′ = a·x + c·y.
    public static let a = Key<Double>.number("a", title: "a (x from x)", in: -4...4, step: 0.01, default: 1, help: "x′ = a·x + c·y.")
    /// The “b (y from x)” parameter: y′ = b·x + d·y.
    public static let b = Key<Double>.number("b", title: "b (y from x)", in: -4...4, step: 0.01, default: 0, help: "y′ = b·x + d·y.")
    /// The “c (x from y)” parameter: x′ = a·x + c·y.
    public static let c = Key<Double>.number("c", title: "c (x from y)", in: -4...4, step: 0.01, default: 0, help: "x′ = a·x + c·y.")
    /// The “d (y from y)” parameter: y′ = b·x + d·y.
    public static let d = Key<Double>.number("d", title: "d (y from y)", in: -4...4, step: 0.01, default: 1, help: "y′ = b·x + d·y.")
    public static let parameters = declared(a, b, c, d)

    /// The values of the `a`, `b`, `c`, `d` parameters this stage was built with.
    public let a, b, c, d: Double

    public init(_ values: StageValues) throws(StageError) {
        (a, b, c, d) = (values[Self.a], values[Self.b], values[Self.c], values[Self.d])
        guard abs(a * d - b * c) >= 1e-3 else {
            throw StageError(stage: Self.name, parameter: Self.d.name,
                             reason: "the matrix flattens the picture onto a line (a·d − b·c = \(a * d - b * c)); give it some area")
        }
    }

    /// Where the picture's corners land: the output's bounds, in pixels.
    /// - Parameters:
    ///   - width: The picture's width.
    ///   - height: The picture's height.
    /// - Returns: The bounds' origin and size.
    public func bounds(width: Int, height: Int) -> (x: Double, y: Double, width: Int, height: Int) {
        let corners = [(0.0, 0.0), (Double(width), 0), (0, Double(height)), (Double(width), Double(height))]
            .map { (a * $0.0 + c * $0.1, b * $0.0 + d * $0.1) }
        let (left, top) = (corners.map(\.0).min()!, corners.map(\.1).min()!)
        let (right, bottom) = (corners.map(\.0).max()!, corners.map(\.1).max()!)
        return (left, top, max(1, Int((right - left).rounded())), max(1, Int((bottom - top).rounded())))
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let bounds = bounds(width: frame.image.width, height: frame.image.height)
        let (pixels, overflow) = bounds.width.multipliedReportingOverflow(by: bounds.height)
        guard !overflow, pixels <= ImageReadOptions.defaultPixelLimit else {
            throw .invalidArgument("affineTransform would make a \(bounds.width)×\(bounds.height) picture, more than the \(ImageReadOptions.defaultPixelLimit) pixels allowed")
        }
        // Pixel centres: the map is taken about (−½, −½) so that a scale of 2 doubles every pixel in place.
        let map = try AffineMatrix(coefficients: [a, c, a * 0.5 + c * 0.5 - 0.5 - bounds.x, b, d, b * 0.5 + d * 0.5 - 0.5 - bounds.y])
        frame.image = try frame.image.warped(by: map, width: bounds.width, height: bounds.height)
        return frame
    }
}

/// The part of the picture inside a rectangle given as fractions of its size (top-left origin).
public struct CropFilter: FilterStage {
    public static let name = "crop"
    public static let title = "Crop"
    public static let category = StageCategory.geometry
    public static let summary = "Keeps a rectangle of the picture, given as fractions of its width and height."
    /// The “Left” parameter: The left edge, as a fraction of the width.
    public static let x = Key<Double>.number("x", title: "Left", in: 0...1, step: 0.01, default: 0, help: "The left edge, as a fraction of the width.")
    /// The “Top” parameter: The top edge, as a fraction of the height.
    public static let y = Key<Double>.number("y", title: "Top", in: 0...1, step: 0.01, default: 0, help: "The top edge, as a fraction of the height.")
    /// The “Width” parameter: As a fraction of the picture's width; cut at its right edge.
    public static let width = Key<Double>.number("width", title: "Width", in: 0.01...1, step: 0.01, default: 1,
                                                 help: "As a fraction of the picture's width; cut at its right edge.")
    /// The “Height” parameter: As a fraction of the picture's height; cut at its bottom edge.
    public static let height = Key<Double>.number("height", title: "Height", in: 0.01...1, step: 0.01, default: 1,
                                                  help: "As a fraction of the picture's height; cut at its bottom edge.")
    public static let parameters = declared(x, y, width, height)

    /// The values of the `x`, `y`, `width`, `height` parameters this stage was built with.
    public let x, y, width, height: Double

    public init(_ values: StageValues) throws(StageError) {
        (x, y, width, height) = (values[Self.x], values[Self.y], values[Self.width], values[Self.height])
        guard x < 1, y < 1 else {
            throw StageError(stage: Self.name, parameter: x >= 1 ? Self.x.name : Self.y.name, reason: "the rectangle starts outside the picture; use less than 1")
        }
    }

    /// The rectangle in a `width × height` picture's pixels: edges rounded, at least one pixel, inside it.
    /// - Parameters:
    ///   - pictureWidth: The picture's width.
    ///   - pictureHeight: The picture's height.
    /// - Returns: The crop in pixels.
    public func rectangle(width pictureWidth: Int, height pictureHeight: Int) -> PixelRectangle {
        let left = min(pictureWidth - 1, Int((x * Double(pictureWidth)).rounded()))
        let top = min(pictureHeight - 1, Int((y * Double(pictureHeight)).rounded()))
        let right = max(left + 1, min(pictureWidth, Int(((x + width) * Double(pictureWidth)).rounded())))
        let bottom = max(top + 1, min(pictureHeight, Int(((y + height) * Double(pictureHeight)).rounded())))
        return PixelRectangle(x: left, y: top, width: right - left, height: bottom - top)
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        frame.image = try frame.image.cropped(to: rectangle(width: frame.image.width, height: frame.image.height))
        return frame
    }
}

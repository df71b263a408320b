import Foundation
internal import OpenCVBridge

/// A 2-D affine map (x, y) → (a·x + b·y + c, d·x + e·y + f): rotation, scale, shear and shift, as
/// OpenCV's 2×3 matrices hold it. (Not `AffineTransform`, which Foundation already names.)
public struct AffineMatrix: Sendable, Hashable, CustomStringConvertible {
    /// The matrix row by row: a, b, c, d, e, f.
    public let coefficients: [Double]

    /// Creates a map from its coefficients.
    /// - Parameter coefficients: a, b, c, d, e, f: x′ = a·x + b·y + c, y′ = d·x + e·y + f.
    /// - Throws: ``OcularError/invalidArgument(_:)`` unless there are six finite coefficients.
    public init(coefficients: [Double]) throws(OcularError) {
        guard coefficients.count == 6, coefficients.allSatisfy(\.isFinite) else {
            throw .invalidArgument("an affine matrix has six finite coefficients, got \(coefficients)")
        }
        self.coefficients = coefficients
    }

    /// The map that takes each of the three points `from` onto the matching one of `to`
    /// (cv::getAffineTransform).
    /// - Parameters:
    ///   - from: Three points.
    ///   - to: Where they go.
    /// - Throws: ``OcularError/invalidArgument(_:)`` unless there are three of each, or when the
    ///   points `from` lie on one line (no single map then exists).
    public init(mapping from: [Point], onto to: [Point]) throws(OcularError) {
        guard from.count == 3, to.count == 3 else {
            throw .invalidArgument("an affine map is fixed by three points and their images, got \(from.count) and \(to.count)")
        }
        let source = from.flatMap { [$0.x, $0.y] }, target = to.flatMap { [$0.x, $0.y] }
        var result = [Double](repeating: 0, count: 6)
        try OpenCV.call("getAffineTransform") { error in
            result.withUnsafeMutableBufferPointer { ocv_affine_from_triangles(source, target, $0.baseAddress!, error) }
        }
        try self.init(coefficients: result)
    }

    /// The matrix that leaves every point where it is.
    public static let identity = AffineMatrix(checked: [1, 0, 0, 0, 1, 0])

    /// Turning by `degrees` about `centre`, clockwise on screen (image coordinates run downwards).
    /// - Parameters:
    ///   - degrees: The angle, clockwise on screen.
    ///   - centre: The point that stays.
    /// - Returns: The rotation.
    public static func rotation(by degrees: Double, about centre: Point) -> AffineMatrix {
        let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
        return AffineMatrix(checked: [c, -s, centre.x - c * centre.x + s * centre.y,
                                      s, c, centre.y - s * centre.x - c * centre.y])
    }

    private init(checked coefficients: [Double]) { self.coefficients = coefficients }

    /// Where the map takes `point`.
    /// - Parameter point: The point.
    /// - Returns: Where it goes.
    public func apply(to point: Point) -> Point {
        let m = coefficients
        return Point(x: m[0] * point.x + m[1] * point.y + m[2], y: m[3] * point.x + m[4] * point.y + m[5])
    }

    /// The six coefficients, row by row.
    public var description: String {
        let m = coefficients.map { ($0 * 1000).rounded() / 1000 }
        return "[\(m[0]) \(m[1]) \(m[2]); \(m[3]) \(m[4]) \(m[5])]"
    }
}

extension Image {
    /// The image moved by `map` onto a `width × height` canvas (cv::warpAffine, bilinear unless told
    /// otherwise): the pixel at p lands at map(p). Where nothing lands, the canvas repeats the image's
    /// edge pixels (`replicatingEdges`) or is black. YUV images come back as BGR.
    /// - Parameters:
    ///   - map: Where each pixel goes.
    ///   - width: The canvas width.
    ///   - height: The canvas height.
    ///   - interpolation: How pixels between samples are made.
    ///   - replicatingEdges: Whether the canvas repeats the edge pixels where nothing lands (else black).
    /// - Returns: The canvas.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a size below one pixel.
    public func warped(by map: AffineMatrix, width: Int, height: Int, interpolation: Interpolation = .bilinear,
                       replicatingEdges: Bool = false) throws(OcularError) -> Image {
        guard width >= 1, height >= 1 else { throw .invalidArgument("cannot warp \(self) onto \(width)×\(height)") }
        let packed = try self.packed
        return try Image.filledByOpenCV(width: width, height: height, format: packed.format) { (output) throws(OcularError) in
            try packed.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("warpAffine \(packed) by \(map) onto \(width)×\(height)") {
                    ocv_warp_affine(input, output, map.coefficients, interpolation.bridged, replicatingEdges, $0)
                }
            }
        }
    }
}

extension Image {
    /// `background` with this image moved by `map` onto it (cv::warpAffine, bilinear, transparent
    /// border): where the map brings no pixel of this image, the background shows.
    /// - Parameters:
    ///   - map: Where each pixel of this image goes.
    ///   - background: What shows where the map brings nothing, in this image's format.
    /// - Returns: The background with this image moved onto it.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when the two differ in format, or for YUV images.
    public func warped(by map: AffineMatrix, over background: Image) throws(OcularError) -> Image {
        guard format == background.format, !format.isYUV else {
            throw .invalidArgument("cannot warp a \(format) image over a \(background.format) one; convert them to one packed format first")
        }
        var canvas = background
        try withMatrix { (input) throws(OcularError) in
            try canvas.withMutableMatrix { (output) throws(OcularError) in
                try OpenCV.call("warpAffine \(self) by \(map) over \(background)") {
                    ocv_warp_affine_over(input, output, map.coefficients, $0)
                }
            }
        }
        return canvas
    }
}

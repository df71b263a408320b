import Foundation

/// A width and height in whole pixels, as a sensor or an output is sized.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// The largest side either way that Ocular accepts for a size given in words (a 100 000-pixel side is
    /// beyond any sensor; the product must still fit an Int without overflow).
    public static let largestSide = 100_000

    /// Creates a size.
    /// - Parameters:
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A size written `WIDTHxHEIGHT` (`3264x2448`; `×` works too).
    /// - Parameter text: The size, `WIDTHxHEIGHT`.
    /// - Throws: ``OcularError/invalidArgument(_:)`` naming what is wrong: not two numbers, a side
    ///   below 1, or a side above ``largestSide``.
    public init(parsing text: String) throws(OcularError) {
        let parts = text.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let height = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw .invalidArgument("'\(text)' is not a size: write it as WIDTHxHEIGHT in pixels, e.g. 1920x1080")
        }
        guard width >= 1, height >= 1 else {
            throw .invalidArgument("\(width)x\(height) has no pixels: both sides must be at least 1")
        }
        guard width <= Self.largestSide, height <= Self.largestSide else {
            throw .invalidArgument("\(width)x\(height) is larger than any camera: each side must be at most \(Self.largestSide) pixels")
        }
        self.init(width: width, height: height)
    }

    /// The largest centred region of this size with `other`'s shape (width over height), in this size's
    /// pixels: all of a 4:3 picture's width for a 16:9 shape, all its height for a portrait one.
    /// - Parameter other: The shape wanted.
    /// - Returns: The region's width and height, in this size's pixels.
    public func largestRegion(shapedLike other: PixelSize) -> (width: Double, height: Double) {
        let (width, height) = (Double(self.width), Double(self.height))
        let shape = Double(other.width) / Double(other.height)
        return width / height > shape ? (height * shape, height) : (width, width / shape)
    }

    /// "W×H".
    public var description: String { "\(width)×\(height)" }
}

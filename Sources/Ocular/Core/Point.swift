/// A point in pixels, sub-pixel precise.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Pixels from the left.
    public var x: Double
    /// Pixels from the top.
    public var y: Double

    /// Creates a point.
    /// - Parameters:
    ///   - x: Pixels from the left.
    ///   - y: Pixels from the top.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `[x, y]` to one decimal, as the JSON shows it.
    var rounded: [Double] { [(x * 10).rounded() / 10, (y * 10).rounded() / 10] }

    /// "(x, y)", rounded to two decimals.
    public var description: String { "(\(rounded[0]), \(rounded[1]))" }
}

/// A point in pixels, sub-pixel precise.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `[x, y]` to one decimal, as the JSON shows it.
    var rounded: [Double] { [(x * 10).rounded() / 10, (y * 10).rounded() / 10] }

    public var description: String { "(\(rounded[0]), \(rounded[1]))" }
}

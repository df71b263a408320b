/// A rectangle of whole pixels: the top-left corner and the size.
public struct PixelRectangle: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The left edge, in pixels from the image's left.
    public var x: Int
    /// The top edge, in pixels from the image's top.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a rectangle.
    /// - Parameters:
    ///   - x: The left edge.
    ///   - y: The top edge.
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The largest rectangle of the aspect ratio `aspectWidth : aspectHeight` that fits in a
    /// `width × height` picture, around its centre (odd leftovers go to the right and bottom).
    /// At least one pixel each way.
    /// - Parameters:
    ///   - width: The picture's width.
    ///   - height: The picture's height.
    ///   - aspectWidth: The shape's width.
    ///   - aspectHeight: The shape's height.
    /// - Returns: The centred rectangle.
    public static func centred(inWidth width: Int, height: Int, aspectWidth: Int, aspectHeight: Int) -> PixelRectangle {
        let sizes = [width, height, aspectWidth, aspectHeight]
        // Sizes below 2³¹ (every image's) keep the products below 2⁶², so they cannot overflow.
        guard sizes.allSatisfy({ (1...Int(Int32.max)).contains($0) }) else {
            return PixelRectangle(x: 0, y: 0, width: max(width, 0), height: max(height, 0))
        }
        if width * aspectHeight > height * aspectWidth {
            let croppedWidth = min(width, max(1, (height * aspectWidth + aspectHeight / 2) / aspectHeight))
            return PixelRectangle(x: (width - croppedWidth) / 2, y: 0, width: croppedWidth, height: height)
        }
        let croppedHeight = min(height, max(1, (width * aspectHeight + aspectWidth / 2) / aspectWidth))
        return PixelRectangle(x: 0, y: (height - croppedHeight) / 2, width: width, height: croppedHeight)
    }

    /// "W×H at (x, y)".
    public var description: String { "\(width)×\(height) at (\(x), \(y))" }
}

internal import OpenCVBridge

extension Image {
    /// The image with every colour value replaced by its entry in a 256-entry table: any point-wise
    /// curve (levels, gamma, posterize, a tone curve) in one pass. Alpha is kept; YUV becomes BGR.
    /// - Parameters:
    ///   - red: The table for red (and for the one channel of a gray image).
    ///   - green: The table for green; `red`'s when nil.
    ///   - blue: The table for blue; `red`'s when nil.
    /// - Returns: The mapped image.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when a table does not hold 256 entries.
    public func mapped(red: [UInt8], green: [UInt8]? = nil, blue: [UInt8]? = nil) throws(OcularError) -> Image {
        let (green, blue) = (green ?? red, blue ?? red)
        for (name, table) in [("red", red), ("green", green), ("blue", blue)] where table.count != 256 {
            throw .invalidArgument("a lookup table holds 256 entries, one per value; the \(name) one holds \(table.count)")
        }
        let source = try packed
        let identity = (0...255).map(UInt8.init)
        var tables = [[UInt8]](repeating: identity, count: source.format.channels)
        if let order = source.format.rgbOffsets {
            tables[order.red] = red
            tables[order.green] = green
            tables[order.blue] = blue
        } else {
            tables[0] = red
        }
        let flat = tables.flatMap { $0 }
        return try Image.filledByOpenCV(width: source.width, height: source.height, format: source.format) { (output) throws(OcularError) in
            try source.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("LUT") { error in
                    flat.withUnsafeBufferPointer { ocv_lookup_channels(input, output, $0.baseAddress!, error) }
                }
            }
        }
    }
}

import Foundation

/// Plans a camera's digital zoom: how far it can zoom without losing detail, how far it can
/// zoom at all, and what to ask the sensor for at each zoom.
///
/// Digital zoom crops the middle of the sensor's picture by the zoom factor and scales the crop to the
/// output. While the crop still has at least as many pixels as the output, every output pixel is made
/// from one or more sensor pixels: the zoom is lossless. That holds up to the ratio of the field's width
/// on the sensor to the output's width (a 3264-pixel-wide sensor and a 1920-wide output: 1.7×). A
/// sensor that bins 2 × 2 pixels into one reads out half as many each way, so its threshold halves.
/// Beyond the threshold the crop is enlarged and detail falls about as 1/zoom; the maximum zoom leaves
/// an area 10 × 10 output pixels of the unzoomed view (output height / 10: 108× for 1080 lines).
public struct ZoomPlanner: Sendable, Hashable {
    /// The sensor's full resolution.
    public let sensor: PixelSize
    /// The frames delivered.
    public let output: PixelSize
    /// The sensor reads out 2 × 2-binned pixels (as in many video modes).
    public let binned: Bool

    /// The unzoomed view covers this many output pixels at the largest zoom.
    public static let smallestViewSide = 10

    /// Plans a camera's zoom.
    /// - Parameters:
    ///   - sensor: The sensor's full size.
    ///   - output: The picture delivered.
    ///   - binned: Whether the sensor also offers a 2 × 2-binned readout.
    /// - Throws: ``OcularError/invalidArgument(_:)`` in words: a side below 1, an output under 10 lines
    ///   (there would be no zoom at all), or a binned sensor under 2 pixels a side.
    public init(sensor: PixelSize, output: PixelSize, binned: Bool = false) throws(OcularError) {
        for (name, size) in [("sensor", sensor), ("output", output)] where size.width < 1 || size.height < 1 {
            throw .invalidArgument("the \(name) size \(size) has no pixels: both sides must be at least 1")
        }
        guard output.height >= Self.smallestViewSide else {
            throw .invalidArgument("an output \(output.height) pixels high cannot zoom: the maximum zoom is its height / \(Self.smallestViewSide), under 1×")
        }
        guard !binned || (sensor.width >= 2 && sensor.height >= 2) else {
            throw .invalidArgument("a \(sensor) sensor cannot bin 2 × 2: it needs at least 2 pixels each way")
        }
        self.sensor = sensor
        self.output = output
        self.binned = binned
    }

    /// How the sensor reads its pixels out.
    public enum Readout: String, Sendable, Hashable, Codable {
        /// Every pixel.
        case full
        /// 2 × 2 pixels summed into one: a quarter of the data, less noise per pixel, half the detail.
        case binned
    }

    /// The readouts the sensor offers, smallest first: a binned sensor only its binned one; otherwise
    /// the binned one too (most sensors can bin), used where it still covers the output 1 : 1.
    public var readouts: [Readout] { binned ? [.binned] : [.binned, .full] }

    /// The picture a readout delivers: the sensor's full size, or half each way when binned.
    /// - Parameter readout: The readout.
    /// - Returns: Its size.
    public func size(of readout: Readout) -> PixelSize {
        readout == .binned ? PixelSize(width: sensor.width / 2, height: sensor.height / 2) : sensor
    }

    /// The largest readout: the one the lossless threshold is about.
    public var readout: PixelSize { size(of: binned ? .binned : .full) }

    /// The unzoomed field of view on a readout (the largest by default): the largest centred region
    /// with the output's shape (all of a 16:9 readout's width, for a 4:3 sensor and a 16:9 output), in
    /// that readout's pixels.
    /// - Parameter readout: The readout; nil for the largest.
    /// - Returns: The field's width and height in that readout's pixels.
    public func field(of readout: Readout? = nil) -> (width: Double, height: Double) {
        size(of: readout ?? (binned ? .binned : .full)).largestRegion(shapedLike: output)
    }

    /// The unzoomed field: the largest region of the output's shape on the full readout, in sensor pixels.
    public var field: (width: Double, height: Double) { field() }

    /// The largest zoom at which every output pixel still comes from at least one sensor pixel:
    /// the field's width over the output's (3264 / 1920 = 1.7). Under 1 means even the unzoomed
    /// picture is enlarged.
    public var losslessThreshold: Double { field.width / Double(output.width) }

    /// The largest zoom: the view shrinks to 10 × 10 output pixels' worth (1080 / 10 = 108×).
    public var maximumZoom: Double { Double(output.height) / Double(Self.smallestViewSide) }

    /// What to capture for one zoom.
    public struct Capture: Sendable, Hashable, Codable {
        /// The zoom factor.
        public let zoom: Double
        /// The readout to ask for.
        public let readout: Readout
        /// The region of the readout to request, in its pixels (rounded up to whole pixels, so it
        /// covers the view).
        public let crop: PixelSize
        /// Output pixels per crop pixel: under 1 the crop is shrunk (lossless), over 1 enlarged.
        public let scale: Double
        /// Every output pixel comes from at least one sensor pixel.
        public let lossless: Bool
    }

    /// What to request at `zoom`: the smallest readout whose crop still covers the output 1 : 1 (the
    /// binned one at low zooms where it does, for a small output), else the largest readout's crop,
    /// enlarged.
    /// - Parameter zoom: The zoom, 1 to ``maximumZoom``.
    /// - Returns: The readout, crop and scale.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a zoom below 1 or above ``maximumZoom``.
    public func capture(atZoom zoom: Double) throws(OcularError) -> Capture {
        for readout in readouts {
            let capture = try capture(atZoom: zoom, from: readout)
            if capture.lossless { return capture }
        }
        return try capture(atZoom: zoom, from: readouts.last ?? .full)
    }

    /// What to request at `zoom` from one readout.
    /// - Parameters:
    ///   - zoom: The zoom.
    ///   - readout: The readout.
    /// - Returns: The crop and its scale.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a zoom below 1 or above ``maximumZoom``.
    public func capture(atZoom zoom: Double, from readout: Readout) throws(OcularError) -> Capture {
        guard zoom.isFinite, zoom >= 1, zoom <= maximumZoom * (1 + 1e-9) else {
            throw .invalidArgument("a zoom of \(zoom)× is outside 1× to \(Self.format(maximumZoom))× (the output's height / \(Self.smallestViewSide)) for a \(output) output")
        }
        let field = field(of: readout), size = size(of: readout)
        let (width, height) = (field.width / zoom, field.height / zoom)
        // A tolerance of a millionth: 3264 / 1.7 is 1919.9999… in floating point, and is 1920 pixels.
        let crop = PixelSize(width: max(1, min(size.width, Int((width - 1e-6).rounded(.up)))),
                             height: max(1, min(size.height, Int((height - 1e-6).rounded(.up)))))
        let scale = Double(output.width) / width
        return Capture(zoom: zoom, readout: readout, crop: crop, scale: scale, lossless: scale <= 1 + 1e-9)
    }

    /// The largest zoom the binned readout covers 1 : 1 (the field's width in binned pixels over the
    /// output's): below it the binned readout is the smaller capture.
    public var binnedThreshold: Double { field(of: .binned).width / Double(output.width) }

    /// Captures at the zooms people ask about: 1×, where binning stops covering, the threshold, then
    /// doubling to the maximum.
    public var landmarkZooms: [Double] {
        var zooms: [Double] = [1]
        // A threshold past the maximum zoom (a small output from a large sensor) is no zoom to plan.
        if !binned, binnedThreshold > 1, binnedThreshold < losslessThreshold, binnedThreshold < maximumZoom { zooms.append(binnedThreshold) }
        if losslessThreshold > 1, losslessThreshold < maximumZoom { zooms.append(losslessThreshold) }
        var zoom = 2.0
        while zoom < maximumZoom {
            if abs(zoom - losslessThreshold) > 0.05 { zooms.append(zoom) }
            zoom *= 2
        }
        zooms.append(maximumZoom)
        return zooms.sorted()
    }

    /// A zoom as people read it: up to two decimals, no trailing zeros (1.7, 108, 0.85), as charts show numbers.
    /// - Parameter zoom: The zoom.
    /// - Returns: Its label.
    public static func format(_ zoom: Double) -> String { LineChart.label(zoom) }
}

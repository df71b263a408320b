import Foundation

/// A line chart drawn as a picture: axes with ticks and labels, a grid, one line per series, vertical
/// markers and a legend. For the measurements Ocular plots (the MTF curve, MTF50 against zoom).
public struct LineChart: Sendable {
    /// One line of the chart.
    public struct Series: Sendable {
        /// Its name in the legend.
        public var name: String
        /// Its colour.
        public var colour: Colour
        /// Its points, in the chart's units.
        public var points: [Point]
        /// Whether the line is dashed.
        public var dashed: Bool
        /// A dot at every point (measured values); none for a drawn function.
        public var dots: Bool

        /// Creates a series.
        /// - Parameters:
        ///   - name: Its name in the legend.
        ///   - colour: Its colour.
        ///   - points: Its points, in the chart's units.
        ///   - dashed: Whether its line is dashed.
        ///   - dots: Whether its points are marked.
        public init(name: String, colour: Colour, points: [Point], dashed: Bool = false, dots: Bool = false) {
            (self.name, self.colour, self.points, self.dashed, self.dots) = (name, colour, points, dashed, dots)
        }
    }

    /// A vertical line across the plot at `x`, labelled at its top.
    public struct Marker: Sendable {
        /// Where the marker stands on the x axis.
        public var x: Double
        /// Its label.
        public var label: String
        /// Its colour.
        public var colour: Colour

        /// Creates a marker.
        /// - Parameters:
        ///   - x: Where it stands on the x axis.
        ///   - label: Its label.
        ///   - colour: Its colour.
        public init(x: Double, label: String, colour: Colour) { (self.x, self.label, self.colour) = (x, label, colour) }
    }

    /// The chart's title.
    public var title: String
    /// The x axis's label.
    public var xLabel: String
    /// The y axis's label.
    public var yLabel: String
    /// The x values shown.
    public var xRange: ClosedRange<Double>
    /// The y values shown.
    public var yRange: ClosedRange<Double>
    /// Where the x axis has ticks and grid lines.
    public var xTicks: [Double]
    /// Where the y axis has ticks and grid lines.
    public var yTicks: [Double]
    /// A logarithmic x axis (positive ranges only): 1/x falls as a straight line on it.
    public var logarithmicX: Bool
    /// The lines drawn, in order.
    public var series: [Series] = []
    /// Vertical dashed markers with labels.
    public var markers: [Marker] = []

    /// Creates an empty chart.
    /// - Parameters:
    ///   - title: Its title.
    ///   - xLabel: The x axis's label.
    ///   - yLabel: The y axis's label.
    ///   - xRange: The x values shown.
    ///   - yRange: The y values shown.
    ///   - xTicks: Where the x axis has ticks.
    ///   - yTicks: Where the y axis has ticks.
    ///   - logarithmicX: Whether the x axis is logarithmic.
    public init(title: String, xLabel: String, yLabel: String, xRange: ClosedRange<Double>, yRange: ClosedRange<Double>,
                xTicks: [Double], yTicks: [Double], logarithmicX: Bool = false) {
        (self.title, self.xLabel, self.yLabel, self.xRange, self.yRange, self.xTicks, self.yTicks, self.logarithmicX) =
            (title, xLabel, yLabel, xRange, yRange, xTicks, yTicks, logarithmicX)
    }

    static let ink = Colour(red: 34, green: 34, blue: 34)
    static let grid = Colour(red: 221, green: 221, blue: 221)

    /// The chart on a white `width × height` BGR picture.
    /// - Parameters:
    ///   - width: The picture's width in pixels.
    ///   - height: The picture's height in pixels.
    /// - Returns: The chart.
    /// - Throws: ``OcularError/invalidArgument(_:)`` for a picture under 320 × 240 or empty ranges.
    public func rendered(width: Int = 1000, height: Int = 640) throws(OcularError) -> Image {
        guard width >= 320, height >= 240, width <= 8000, height <= 8000 else {
            throw .invalidArgument("a chart needs 320×240 to 8000×8000 pixels, not \(width)×\(height)")
        }
        guard xRange.upperBound > xRange.lowerBound, yRange.upperBound > yRange.lowerBound,
              !logarithmicX || xRange.lowerBound > 0 else {
            throw .invalidArgument("a chart's ranges must be wider than a point (and positive on a logarithmic axis)")
        }
        var canvas = try Image(width: width, height: height, format: .bgr8, filledWith: [255, 255, 255])
        let text = Double(height) / 40   // capital height: 16 px on a 640-high chart
        let plot = (left: text * 5.5, top: text * 5, right: Double(width) - text * 2, bottom: Double(height) - text * 4.5)
        func xPosition(_ x: Double) -> Double {
            let fraction = logarithmicX ? log(x / xRange.lowerBound) / log(xRange.upperBound / xRange.lowerBound)
                : (x - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound)
            return plot.left + fraction * (plot.right - plot.left)
        }
        func yPosition(_ y: Double) -> Double {
            plot.bottom - (y - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound) * (plot.bottom - plot.top)
        }

        for tick in xTicks where xRange.contains(tick) {
            let x = xPosition(tick)
            try canvas.drawPolyline([Point(x: x, y: plot.top), Point(x: x, y: plot.bottom)], colour: Self.grid, thickness: 1)
            try canvas.drawText(Self.label(tick), at: Point(x: x, y: plot.bottom + text * 1.8), height: text * 0.85, anchor: .centre, colour: Self.ink)
        }
        for tick in yTicks where yRange.contains(tick) {
            let y = yPosition(tick)
            try canvas.drawPolyline([Point(x: plot.left, y: y), Point(x: plot.right, y: y)], colour: Self.grid, thickness: 1)
            try canvas.drawText(Self.label(tick), at: Point(x: plot.left - text * 0.6, y: y + text * 0.42), height: text * 0.85, anchor: .right, colour: Self.ink)
        }
        try canvas.drawPolyline([Point(x: plot.left, y: plot.top), Point(x: plot.left, y: plot.bottom), Point(x: plot.right, y: plot.bottom)],
                                colour: Self.ink, thickness: 2)
        for marker in markers where xRange.contains(marker.x) {
            let x = xPosition(marker.x)
            try drawDashed([Point(x: x, y: plot.top), Point(x: x, y: plot.bottom)], on: &canvas, colour: marker.colour, thickness: 2)
            try canvas.drawText(marker.label, at: Point(x: x + text * 0.4, y: plot.top + text * 1.3), height: text * 0.8, colour: marker.colour)
        }
        for line in series {
            // Clipped to the plot: points outside the ranges are pulled to its border.
            let points = line.points.filter { !logarithmicX || $0.x > 0 }.map { point in
                Point(x: min(max(xPosition(point.x), plot.left), plot.right), y: min(max(yPosition(point.y), plot.top), plot.bottom))
            }
            if line.dashed {
                try drawDashed(points, on: &canvas, colour: line.colour, thickness: 2)
            } else {
                try canvas.drawPolyline(points, colour: line.colour, thickness: 3)
            }
            if line.dots {
                for point in points { try canvas.drawCircle(at: point, radius: Int(text * 0.35), colour: line.colour, thickness: -1) }
            }
        }

        try canvas.drawText(title, at: Point(x: Double(width) / 2, y: text * 1.9), height: text * 1.15, anchor: .centre, colour: Self.ink)
        try canvas.drawText(xLabel, at: Point(x: (plot.left + plot.right) / 2, y: Double(height) - text * 1.2), height: text,
                            anchor: .centre, colour: Self.ink)
        // The y axis's label above it, from the picture's left edge: no rotated text in Hershey's fonts.
        try canvas.drawText(yLabel, at: Point(x: text * 0.8, y: plot.top - text * 1.1), height: text, colour: Self.ink)
        // The legend, top right inside the plot.
        var row = plot.top + text * 3.2
        for line in series where !line.name.isEmpty {
            let right = plot.right - text * 0.8
            let width = Double(Image.labelSize(line.name, height: text * 0.85).width)
            let sample = [Point(x: right - width - text * 3.6, y: row - text * 0.4), Point(x: right - width - text * 1.2, y: row - text * 0.4)]
            if line.dashed { try drawDashed(sample, on: &canvas, colour: line.colour, thickness: 2) } else {
                try canvas.drawPolyline(sample, colour: line.colour, thickness: 3)
            }
            try canvas.drawText(line.name, at: Point(x: right, y: row), height: text * 0.85, anchor: .right, colour: Self.ink)
            row += text * 1.7
        }
        return canvas
    }

    /// A dashed line along `points`: 10-pixel dashes, 7-pixel gaps, whatever the segments' lengths.
    private func drawDashed(_ points: [Point], on canvas: inout Image, colour: Colour, thickness: Int) throws(OcularError) {
        let (dash, gap) = (10.0, 7.0)
        var phase = 0.0   // how far along the current dash-and-gap period the pen is
        for (from, to) in zip(points, points.dropFirst()) {
            let length = hypot(to.x - from.x, to.y - from.y)
            guard length > 0 else { continue }
            var travelled = 0.0
            while travelled < length {
                let inDash = phase < dash
                let step = min(length - travelled, inDash ? dash - phase : dash + gap - phase)
                if inDash {
                    let start = travelled / length, end = (travelled + step) / length
                    try canvas.drawPolyline([Point(x: from.x + (to.x - from.x) * start, y: from.y + (to.y - from.y) * start),
                                             Point(x: from.x + (to.x - from.x) * end, y: from.y + (to.y - from.y) * end)],
                                            colour: colour, thickness: thickness)
                }
                travelled += step
                phase = (phase + step).truncatingRemainder(dividingBy: dash + gap)
            }
        }
    }

    /// A number as a chart or a table shows it: up to two decimals, no trailing zeros (1.7, 108, 0.85).
    /// - Parameter value: The number.
    /// - Returns: Its label.
    public static func label(_ value: Double) -> String {
        let rounded = (value * 100 + 1e-9).rounded() / 100   // 1.275 is 1.2749999… in binary: still 1.28
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%g", rounded)
    }
}

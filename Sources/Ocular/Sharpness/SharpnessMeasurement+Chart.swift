import Foundation

extension SharpnessMeasurement {
    static let curveColour = Colour(red: 31, green: 119, blue: 180)
    static let nyquistColour = Colour(red: 214, green: 39, blue: 40)
    static let mtf50Colour = Colour(red: 44, green: 160, blue: 44)

    /// The MTF curve as a chart: modulation against cycles per pixel, with the Nyquist frequency and
    /// MTF50 marked. `title` names what was measured.
    /// - Parameter title: The chart's title.
    /// - Returns: The chart, ready to render.
    public func chart(title: String) -> LineChart {
        var chart = LineChart(title: title, xLabel: "Frequency (cycles per pixel)", yLabel: "MTF",
                              xRange: 0...SlantedEdge.highestFrequency, yRange: 0...1.1,
                              xTicks: stride(from: 0.0, through: SlantedEdge.highestFrequency, by: 0.1).map { $0 },
                              yTicks: stride(from: 0.0, through: 1.0, by: 0.1).map { $0 })
        chart.series = [LineChart.Series(name: "MTF (\(edge.rawValue) edge, \(LineChart.label(degrees))°)", colour: Self.curveColour,
                                         points: curve.map { Point(x: $0.frequency, y: $0.modulation) })]
        chart.markers = [LineChart.Marker(x: 0.5, label: "Nyquist 0.5", colour: Self.nyquistColour)]
        if let mtf50 {
            chart.markers.append(LineChart.Marker(x: mtf50, label: "MTF50 \(String(format: "%.3f", mtf50))", colour: Self.mtf50Colour))
        }
        return chart
    }
}

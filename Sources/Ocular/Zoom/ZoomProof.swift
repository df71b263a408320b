import Foundation

/// The lossless-zoom claim measured: a slanted-edge chart rendered at the sensor's full
/// resolution stands in for the scene, each zoom is captured as a camera would (the planner's crop of
/// the full or 2 × 2-binned readout, scaled to the output: averaged when shrinking, bicubic when
/// enlarging), and the slanted-edge meter reads MTF50 at the output in cycles per output pixel.
/// Below the threshold it stays near the unzoomed value; beyond it, it falls about as 1/zoom.
package enum ZoomProof {
    /// The chart's edge: 5° from vertical (ISO 12233's usual tilt), 4 : 1 contrast, a sharp lens
    /// (Gaussian σ of 0.4 sensor pixels) and square pixels that collect light over their area.
    package static let chart = SlantedEdgeChart(degrees: 5, blur: 0.4, dark: 51, light: 204, sampling: .pixelArea)
    /// The measured region: this many output pixels square around the output's middle.
    package static let region = 256
    /// Zooms to 16×: beyond, an enlarged edge's spread outgrows the region.
    package static let zooms: [Double] = [1, 1.25, 1.5, 1.7, 2, 2.5, 3, 4, 6, 8, 12, 16]

    package struct Row: Sendable, Hashable, Codable {
        package let zoom: Double
        /// The full readout's crop, as the planner asks for it.
        package let crop: PixelSize
        /// Output pixels per crop pixel.
        package let scale: Double
        package let lossless: Bool
        /// MTF50 at the output, cycles per output pixel, from the full readout.
        package let mtf50: Double
        /// The same from a 2 × 2-binned readout.
        package let binnedMTF50: Double
        /// The same when the unzoomed output frame itself is enlarged (what the zoom stage does to a
        /// frame that has already left the camera): what a lossless zoom saves.
        package let enlargedMTF50: Double
    }

    package struct Result: Sendable, Codable {
        package let sensor: PixelSize
        package let output: PixelSize
        package let losslessThreshold: Double
        package let binnedThreshold: Double
        package let rows: [Row]
    }

    /// Renders the chart at `sensor` size and measures every zoom in ``zooms`` up to the planner's
    /// maximum. `progress` hears (done, total) after each zoom.
    /// - Throws: ``OcularError`` for sizes the planner refuses or an output under 256 pixels a side;
    ///   ``SharpnessError`` should a measurement fail.
    package static func run(sensor: PixelSize, output: PixelSize, progress: (Int, Int) -> Void = { _, _ in }) throws -> Result {
        let full = try ZoomPlanner(sensor: sensor, output: output)
        guard output.width >= region, output.height >= region else {
            throw OcularError.invalidArgument("the proof measures a \(region)×\(region) region of the output; \(output) is smaller")
        }
        let scene = try chart.rendered(width: sensor.width, height: sensor.height)
        let binnedReadout = full.size(of: .binned)
        let binnedScene = try scene.resized(width: binnedReadout.width, height: binnedReadout.height, averaging: true)
        let measured = PixelRectangle(x: (output.width - region) / 2, y: (output.height - region) / 2, width: region, height: region)
        let zooms = Self.zooms.filter { $0 <= full.maximumZoom }
        let unzoomed = try scene.zoomed(by: 1, to: output)
        var rows: [Row] = []
        for zoom in zooms {
            let capture = try full.capture(atZoom: zoom, from: .full)
            func mtf50(_ picture: Image) throws -> Double {
                do {
                    return try SlantedEdge.measure(picture, region: measured).mtf50 ?? SlantedEdge.highestFrequency
                } catch let error as SharpnessError {
                    throw OcularError.invalidArgument("at \(ZoomPlanner.format(zoom))× the output's edge cannot be measured (\(error)); a \(sensor) sensor is too small for a \(output) output's proof")
                }
            }
            rows.append(Row(zoom: zoom, crop: capture.crop, scale: capture.scale, lossless: capture.lossless,
                            mtf50: try mtf50(scene.zoomed(by: zoom, to: output)), binnedMTF50: try mtf50(binnedScene.zoomed(by: zoom, to: output)),
                            enlargedMTF50: try mtf50(unzoomed.zoomed(by: zoom, to: output))))
            progress(rows.count, zooms.count)
        }
        return Result(sensor: sensor, output: output, losslessThreshold: full.losslessThreshold,
                      binnedThreshold: full.binnedThreshold, rows: rows)
    }
}

extension ZoomProof.Result {
    /// MTF50 at the threshold (full readout), falling as 1/zoom beyond it: what pure enlargement predicts.
    package func predicted(atZoom zoom: Double) -> Double? {
        guard let atThreshold = rows.last(where: { $0.zoom <= losslessThreshold + 1e-9 })?.mtf50 else { return nil }
        return zoom <= losslessThreshold ? atThreshold : atThreshold * losslessThreshold / zoom
    }

    /// MTF50 against zoom on a logarithmic axis, full and binned readouts, the 1/zoom prediction and
    /// the threshold.
    package var chart: LineChart {
        let top = max(0.7, (rows.map(\.mtf50).max() ?? 0) + 0.1)
        let largest = rows.last?.zoom ?? 16
        var chart = LineChart(title: "Digital zoom: MTF50 at the output, \(sensor) sensor to \(output)", xLabel: "Zoom (times)",
                              yLabel: "MTF50 (cycles per output pixel)", xRange: 1...largest, yRange: 0...top,
                              xTicks: [1, 1.5, 2, 3, 4, 6, 8, 12, 16].filter { $0 <= largest },
                              yTicks: stride(from: 0.0, through: top, by: 0.1).map { $0 }, logarithmicX: true)
        let prediction = stride(from: 1.0, through: largest, by: 0.05).compactMap { zoom in predicted(atZoom: zoom).map { Point(x: zoom, y: $0) } }
        chart.series = [
            LineChart.Series(name: "full readout", colour: Colour(red: 31, green: 119, blue: 180),
                             points: rows.map { Point(x: $0.zoom, y: $0.mtf50) }, dots: true),
            LineChart.Series(name: "2x2 binned readout", colour: Colour(red: 255, green: 127, blue: 14),
                             points: rows.map { Point(x: $0.zoom, y: $0.binnedMTF50) }, dots: true),
            LineChart.Series(name: "1x output frame enlarged", colour: Colour(red: 148, green: 103, blue: 189),
                             points: rows.map { Point(x: $0.zoom, y: $0.enlargedMTF50) }, dots: true),
            LineChart.Series(name: "flat, then 1/zoom", colour: Colour(red: 127, green: 127, blue: 127), points: prediction, dashed: true),
        ]
        chart.markers = [LineChart.Marker(x: losslessThreshold, label: "lossless to \(ZoomPlanner.format(losslessThreshold))x",
                                          colour: Colour(red: 44, green: 160, blue: 44))]
        return chart
    }
}

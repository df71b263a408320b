import ArgumentParser
import Foundation
import Ocular

struct ZoomProveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prove",
        abstract: "Measure the lossless-zoom claim: MTF50 at the output at each zoom, from a slanted-edge chart.",
        discussion: """
            Renders an ISO 12233 slanted-edge chart at the sensor's resolution (a sharp lens, square pixels), \
            captures each zoom as a camera would (the planner's crop of the full or 2 × 2-binned readout, \
            averaged when shrunk, bicubic when enlarged), and measures MTF50 at the output in cycles per \
            output pixel with the slanted-edge meter (`ocular sharpness`). Below the threshold MTF50 stays \
            near the unzoomed value; beyond it, it falls about as 1/zoom.
            """)

    @Option(help: "The sensor's full resolution, WIDTHxHEIGHT.")
    var sensor = "3264x2448"

    @Option(help: "The frames delivered, WIDTHxHEIGHT (at least 256 each way).")
    var output = "1920x1080"

    @Option(help: "Also draw MTF50 against zoom into this picture (.png, .jpg, …).")
    var plot: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let (sensorSize, outputSize) = (try PixelSize(parsing: sensor), try PixelSize(parsing: output))
        let result = try ProgressDisplay.showing("measuring zooms", total: ZoomProof.zooms.count, unit: "zooms") { progress in
            try ZoomProof.run(sensor: sensorSize, output: outputSize) { _, _ in progress.advance() }
        }
        if let plot { try result.chart.rendered().write(toFile: plot) }
        if json {
            try JSONOutput.print(result)
            return
        }
        print("sensor \(result.sensor), output \(result.output): lossless to \(ZoomPlanner.format(result.losslessThreshold))× "
              + "(binned readout: \(ZoomPlanner.format(result.binnedThreshold))×); MTF50 in cycles per output pixel")
        let rows = result.rows.map { row -> [String] in
            [ZoomPlanner.format(row.zoom) + "×", "\(row.crop)", String(format: "%.2f", row.scale), row.lossless ? "yes" : "no",
             String(format: "%.3f", row.mtf50), String(format: "%.3f", row.binnedMTF50), String(format: "%.3f", row.enlargedMTF50),
             result.predicted(atZoom: row.zoom).map { String(format: "%.3f", $0) } ?? ""]
        }
        print(TextTable(header: ["zoom", "crop", "scale", "lossless", "MTF50 full", "MTF50 binned", "1× frame enlarged", "flat, then 1/zoom"], rows: rows).text)
        if let plot { print("plot: \(plot)") }
    }
}

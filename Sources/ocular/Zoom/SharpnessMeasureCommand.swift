import ArgumentParser
import Foundation
import Ocular

struct SharpnessMeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure the MTF of a slanted edge: MTF50 and MTF10 in cycles per pixel, and the curve.",
        discussion: """
            ISO 12233's slanted-edge method (Burns' sfrmat): the edge is fitted as a line through each row's \
            centroid of the derivative, every pixel is projected onto the edge's normal into a 4× oversampled \
            edge-spread function, whose derivative (the line-spread function), windowed and Fourier-transformed, \
            gives the MTF, corrected for the derivative's own response. Photograph a dark-to-light edge tilted \
            2–10° from vertical or horizontal (5° is usual) and give the region around it with --roi. 0.5 \
            cycles per pixel is the Nyquist frequency.
            """)

    @Argument(help: "The picture with a slanted edge.")
    var image: String

    @Option(help: "The region to measure, x,y,width,height in pixels (default: the whole picture).")
    var roi: String?

    @Flag(help: "Print JSON (with the curve) instead of text.")
    var json = false

    @Option(help: "Draw the MTF curve into this picture (.png, .jpg, …).")
    var plot: String?

    @OptionGroup var read: ReadOptions

    func validate() throws {
        if let roi { _ = try Self.region(parsing: roi) }
    }

    func run() throws {
        let region = try roi.map(Self.region(parsing:))
        let picture = try Image(contentsOfFile: image, options: read.imageReadOptions)
        let measurement = try SlantedEdge.measure(picture, region: region)
        if let plot {
            try measurement.chart(title: "MTF of \(URL(fileURLWithPath: image).lastPathComponent)").rendered().write(toFile: plot)
        }
        if json {
            try JSONOutput.print(SharpnessReport(path: image, measurement: measurement))
            return
        }
        func frequency(_ value: Double?) -> String {
            value.map { String(format: "%.3f cycles/pixel", $0) } ?? "above \(SlantedEdge.highestFrequency) cycles/pixel"
        }
        print("""
            \(image): \(measurement.edge) edge \(String(format: "%.2f", measurement.degrees))° from the pixel grid, region \(measurement.region), \(measurement.rowsUsed) \(measurement.edge == .vertical ? "rows" : "columns") used
              sides       \(Int(measurement.dark.rounded())) → \(Int(measurement.light.rounded())) (luma)
              MTF50       \(frequency(measurement.mtf50))
              MTF10       \(frequency(measurement.mtf10))
              at Nyquist  \(String(format: "%.3f", measurement.atNyquist)) (0.5 cycles/pixel)
            """)
        if let plot { print("  plot        \(plot)") }
    }

    /// `x,y,width,height` in whole pixels.
    static func region(parsing text: String) throws -> PixelRectangle {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3] else {
            throw ValidationError("--roi must be four whole numbers x,y,width,height (e.g. 100,80,128,128), got '\(text)'")
        }
        guard x >= 0, y >= 0, width >= 1, height >= 1 else {
            throw ValidationError("--roi needs x and y of 0 or more and a width and height of 1 or more, got '\(text)'")
        }
        return PixelRectangle(x: x, y: y, width: width, height: height)
    }
}

/// The JSON shape of `ocular sharpness --json`.
struct SharpnessReport: Encodable {
    let path: String
    let measurement: SharpnessMeasurement
}

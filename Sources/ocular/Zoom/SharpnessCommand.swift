import ArgumentParser
import Foundation
import Ocular

struct SharpnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharpness",
        abstract: "Measure a picture's sharpness (MTF50, MTF10) on a slanted edge by ISO 12233, or check the meter.",
        subcommands: [SharpnessMeasureCommand.self, SharpnessCheckCommand.self, SharpnessChartCommand.self],
        defaultSubcommand: SharpnessMeasureCommand.self)
}

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

struct SharpnessCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the meter against the analytic answer on synthetic Gaussian-blurred edges.",
        discussion: """
            An edge blurred by a Gaussian of σ pixels has MTF(f) = exp(−2π²σ²f²), so MTF50 = 0.1874/σ cycles \
            per pixel. Edges at 2–10° with σ from 0.5 to 3 are measured under three conditions of contrast and \
            noise (\(SlantedEdgeCheck.conditions.map(\.name).joined(separator: "; "))); each cell shows the \
            largest error of the three. The promise: within 3 % for σ ≥ 0.7.
            """)

    @Flag(help: "Print every measurement as JSON.")
    var json = false

    func run() throws {
        let progress = ProgressDisplay(title: "measuring edges", total: SlantedEdgeCheck.sigmas.count * SlantedEdgeCheck.angles.count
                                       * SlantedEdgeCheck.conditions.count, unit: "edges")
        let rows = try SlantedEdgeCheck.run { _, _ in progress.advance() }
        progress.finish()
        if json {
            try JSONOutput.print(rows)
            return
        }
        let table = SlantedEdgeCheck.sigmas.map { sigma -> [String] in
            let cells = SlantedEdgeCheck.angles.map { degrees -> String in
                let cell = rows.filter { $0.sigma == sigma && $0.degrees == degrees }
                let worst = cell.max { abs($0.error) < abs($1.error) }
                return worst.map { String(format: "%.4f (%+.1f%%)", $0.measured, $0.error * 100) } ?? ""
            }
            return [String(format: "%.1f", sigma), String(format: "%.4f", SlantedEdgeChart.gaussianMTF50(sigma: sigma))] + cells
        }
        print("MTF50 in cycles/pixel, the worst of three conditions per cell (measured, error against 0.1874/σ)")
        print(TextTable(header: ["σ", "analytic"] + SlantedEdgeCheck.angles.map { "\(ZoomPlanner.format($0))°" }, rows: table).text)
        let promised = rows.filter { $0.sigma >= 0.7 }
        let worst = promised.map { abs($0.error) }.max() ?? 0
        print(String(format: "σ ≥ 0.7: worst error %.2f %% over %d edges (promise: 3 %%)", worst * 100, promised.count))
        if worst > 0.03 { throw ExitCode(1) }
    }
}

struct SharpnessChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Draw a slanted-edge target with a known blur: to print and photograph, or to try the meter on.",
        discussion: """
            The edge runs through the middle, tilted clockwise from vertical; blurred by a Gaussian of --blur \
            pixels (sampled at the pixel centres) its MTF50 is 0.1874 / blur cycles per pixel. --blur 0 \
            integrates a sharp edge over each pixel's square instead, as a perfect lens on a sensor would.
            """)

    @Argument(help: "The picture to write (.png keeps it exact).")
    var output: String

    @Option(help: "The picture's size, WIDTHxHEIGHT.")
    var size = "256x256"

    @Option(help: "The edge's tilt from vertical, degrees (−45 to 45; 2–10 for measuring).")
    var degrees = 5.0

    @Option(help: "The Gaussian blur's σ in pixels (0 to 20).")
    var blur = 1.0

    @Option(help: "Gaussian noise, standard deviation in levels (0 to 50).")
    var noise = 0.0

    func validate() throws {
        guard degrees.isFinite, (-45...45).contains(degrees) else { throw ValidationError("--degrees must be from -45 to 45, got \(degrees)") }
        guard blur.isFinite, (0...20).contains(blur) else { throw ValidationError("--blur must be from 0 to 20 pixels, got \(blur)") }
        guard noise.isFinite, (0...50).contains(noise) else { throw ValidationError("--noise must be from 0 to 50 levels, got \(noise)") }
    }

    func run() throws {
        let pictureSize = try PixelSize(parsing: size)
        let chart = SlantedEdgeChart(degrees: degrees, blur: blur, noise: noise, sampling: blur == 0 ? .pixelArea : .pointCentre)
        try chart.rendered(width: pictureSize.width, height: pictureSize.height).write(toFile: output)
        let expected = blur > 0 ? String(format: ", MTF50 %.4f cycles/pixel by the formula", SlantedEdgeChart.gaussianMTF50(sigma: blur)) : ""
        print("\(output): \(pictureSize) slanted edge at \(degrees)°, blur σ \(blur) px\(expected)")
    }
}

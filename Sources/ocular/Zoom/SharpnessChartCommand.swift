import ArgumentParser
import Foundation
import Ocular

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

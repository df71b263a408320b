import ArgumentParser
import Foundation
import Ocular

struct ZoomPlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "The lossless zoom threshold, the maximum zoom and the capture to request at each zoom.",
        discussion: """
            Digital zoom crops the middle of the sensor's picture and scales it to the output. While the crop \
            has at least the output's pixels, the zoom is lossless: up to the sensor's width over the output's \
            (3264 / 1920 = 1.7×), half that when the sensor reads out 2 × 2-binned pixels. The maximum zoom \
            leaves a view 10 × 10 output pixels of the unzoomed picture (output height / 10: 108× for 1080). \
            Each row gives the readout and the crop of it to request at that zoom: the smallest that still covers \
            the output 1 : 1 (2 × 2-binned where it does, as for a small output at low zooms; with --binned the \
            sensor offers only that), else the full readout's crop, enlarged.
            """)

    @Option(help: "The sensor's full resolution, WIDTHxHEIGHT (e.g. 3264x2448).")
    var sensor: String

    @Option(help: "The frames delivered, WIDTHxHEIGHT (e.g. 1920x1080).")
    var output: String

    @Flag(help: "The sensor reads out 2 × 2-binned pixels (as many video modes do).")
    var binned = false

    @Option(help: "Plan this zoom only (1 to the maximum); by default 1×, the threshold and doublings to the maximum.")
    var zoom: Double?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let planner = try ZoomPlanner(sensor: PixelSize(parsing: sensor), output: PixelSize(parsing: output), binned: binned)
        let captures = try (zoom.map { [$0] } ?? planner.landmarkZooms).map { try planner.capture(atZoom: $0) }
        if json {
            try JSONOutput.print(ZoomPlanReport(planner: planner, captures: captures))
            return
        }
        let threshold = ZoomPlanner.format(planner.losslessThreshold)
        print("sensor \(planner.sensor)\(binned ? ", read out 2 × 2-binned as \(planner.readout)" : ""); output \(planner.output)")
        if planner.losslessThreshold >= 1 {
            print("lossless zoom up to \(threshold)× (the view's \(ZoomPlanner.format(planner.field.width)) readout pixels across over the output's \(planner.output.width))")
            if planner.losslessThreshold > planner.maximumZoom {
                print("the threshold lies past the maximum zoom of \(ZoomPlanner.format(planner.maximumZoom))×: every zoom this output allows is lossless")
            }
        } else {
            print("no lossless zoom: the view is \(ZoomPlanner.format(planner.field.width)) readout pixels across, fewer than the output's \(planner.output.width) (threshold \(threshold)×); every zoom enlarges")
        }
        if !binned, planner.binnedThreshold > 1 {
            print("the 2 × 2-binned readout (\(planner.size(of: .binned))) covers the output 1:1 up to \(ZoomPlanner.format(planner.binnedThreshold))×: the smaller capture there")
        }
        print("maximum zoom \(ZoomPlanner.format(planner.maximumZoom))× (the output's \(planner.output.height) lines / \(ZoomPlanner.smallestViewSide): the view is then \(ZoomPlanner.smallestViewSide) lines of the unzoomed picture tall)")
        print("")
        let rows = captures.map { capture -> [String] in
            let scale = abs(capture.scale - 1) < 0.005 ? "1:1" : capture.scale < 1 ? String(format: "shrink %.2f", capture.scale) : String(format: "enlarge %.2f", capture.scale)
            return [ZoomPlanner.format(capture.zoom) + "×", capture.readout.rawValue, "\(capture.crop)", scale, capture.lossless ? "lossless" : "upscaled"]
        }
        print(TextTable(header: ["zoom", "readout", "capture (crop of it)", "to the output", ""], rows: rows).text)
    }
}

/// The JSON shape of `ocular zoom plan --json`.
struct ZoomPlanReport: Encodable {
    let sensor: PixelSize
    let output: PixelSize
    let binned: Bool
    let readout: PixelSize
    let losslessThreshold: Double
    let maximumZoom: Double
    let captures: [ZoomPlanner.Capture]

    init(planner: ZoomPlanner, captures: [ZoomPlanner.Capture]) {
        (sensor, output, binned, readout) = (planner.sensor, planner.output, planner.binned, planner.readout)
        (losslessThreshold, maximumZoom, self.captures) = (planner.losslessThreshold, planner.maximumZoom, captures)
    }
}

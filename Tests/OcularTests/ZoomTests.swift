import Foundation
import Testing
@testable import Ocular

/// The zoom planner's figures from the lossless-zoom article and the zoom stage's crops.
@Suite("zoom")
struct ZoomTests {
    static let sensor = PixelSize(width: 3264, height: 2448)
    static let fullHD = PixelSize(width: 1920, height: 1080)

    @Test("a 3264-wide sensor and a 1080p output: lossless to 1.7×, at most 108×; binning halves the threshold")
    func articleFigures() throws {
        let planner = try ZoomPlanner(sensor: Self.sensor, output: Self.fullHD)
        #expect(abs(planner.losslessThreshold - 1.7) < 1e-9)
        #expect(planner.maximumZoom == 108)
        #expect(planner.field.width == 3264 && planner.field.height == 1836)
        let binned = try ZoomPlanner(sensor: Self.sensor, output: Self.fullHD, binned: true)
        #expect(binned.readout == PixelSize(width: 1632, height: 1224))
        #expect(abs(binned.losslessThreshold - 0.85) < 1e-9)
        #expect(binned.maximumZoom == 108)
        // 720p from the same sensor: 2.55×, 72×.
        let hd = try ZoomPlanner(sensor: Self.sensor, output: PixelSize(width: 1280, height: 720))
        #expect(abs(hd.losslessThreshold - 2.55) < 1e-9 && hd.maximumZoom == 72)
        // A portrait output takes the sensor's height as its limit: 2448 / 1920 = 1.275.
        let portrait = try ZoomPlanner(sensor: Self.sensor, output: PixelSize(width: 1080, height: 1920))
        #expect(abs(portrait.losslessThreshold - 2448.0 / 1920) < 1e-9)
    }

    @Test("the capture to request: the crop of the readout at each zoom, shrunk below the threshold, enlarged above")
    func captures() throws {
        let planner = try ZoomPlanner(sensor: Self.sensor, output: Self.fullHD)
        let unzoomed = try planner.capture(atZoom: 1)
        #expect(unzoomed.crop == PixelSize(width: 3264, height: 1836) && unzoomed.lossless && abs(unzoomed.scale - 1920.0 / 3264) < 1e-9)
        let threshold = try planner.capture(atZoom: 1.7)
        #expect(threshold.crop == Self.fullHD && threshold.lossless)
        let twice = try planner.capture(atZoom: 2)
        #expect(twice.crop == PixelSize(width: 1632, height: 918) && !twice.lossless && abs(twice.scale - 2 / 1.7) < 1e-9)
        let most = try planner.capture(atZoom: 108)
        #expect(most.crop == PixelSize(width: 31, height: 17) && abs(most.scale - 108 / 1.7) < 1e-9)
        #expect(planner.landmarkZooms.first == 1 && planner.landmarkZooms.last == 108 && planner.landmarkZooms.contains(1.7))
        #expect([unzoomed, threshold, twice, most].allSatisfy { $0.readout == .full })
        // A 720p output: the binned readout (1632 wide) covers it 1 : 1 up to 1632 / 1280 = 1.275×, and is
        // the smaller capture; beyond, the full readout's crop.
        let hd = try ZoomPlanner(sensor: Self.sensor, output: PixelSize(width: 1280, height: 720))
        let low = try hd.capture(atZoom: 1), edge = try hd.capture(atZoom: 1.275), past = try hd.capture(atZoom: 1.5)
        #expect(low.readout == .binned && low.crop == PixelSize(width: 1632, height: 918) && low.lossless)
        #expect(edge.readout == .binned && edge.crop == PixelSize(width: 1280, height: 720) && edge.lossless)
        #expect(past.readout == .full && past.crop == PixelSize(width: 2176, height: 1224) && past.lossless)
        // A sensor that only bins: every capture from the binned readout.
        let binnedOnly = try ZoomPlanner(sensor: Self.sensor, output: Self.fullHD, binned: true)
        #expect(binnedOnly.readouts == [.binned])
        let binnedTwice = try binnedOnly.capture(atZoom: 2)
        #expect(binnedTwice.readout == .binned && binnedTwice.crop == PixelSize(width: 816, height: 459) && !binnedTwice.lossless)
        #expect(throws: OcularError.self) { try planner.capture(atZoom: 0.5) }
        #expect(throws: OcularError.self) { try planner.capture(atZoom: 109) }
        #expect(throws: OcularError.self) { try planner.capture(atZoom: .nan) }
    }

    @Test("impossible sizes are refused in words")
    func impossibleSizes() throws {
        #expect { try ZoomPlanner(sensor: Self.sensor, output: PixelSize(width: 1920, height: 8)) } throws: { "\($0)".contains("under 1×") }
        #expect { try ZoomPlanner(sensor: PixelSize(width: 0, height: 10), output: Self.fullHD) } throws: { "\($0)".contains("no pixels") }
        #expect { try ZoomPlanner(sensor: PixelSize(width: 1, height: 1), output: Self.fullHD, binned: true) } throws: { "\($0)".contains("cannot bin") }
        #expect(try PixelSize(parsing: "3264x2448") == Self.sensor)
        #expect(try PixelSize(parsing: "1920×1080") == Self.fullHD)
        for text in ["", "1920", "1920x", "x1080", "axb", "0x10", "-5x10", "100001x10", "1920x1080x3"] {
            #expect(throws: OcularError.self, "'\(text)'") { try PixelSize(parsing: text) }
        }
    }

    @Test("the zoom stage crops around its centre and keeps the frame's size; the view slides to stay inside")
    func stage() throws {
        // A 200×100 picture whose pixel (x, y) holds x in blue and y in green.
        var bytes = [UInt8](repeating: 0, count: 200 * 100 * 3)
        for y in 0..<100 { for x in 0..<200 { bytes[(y * 200 + x) * 3] = UInt8(x); bytes[(y * 200 + x) * 3 + 1] = UInt8(y) } }
        let picture = try Image(width: 200, height: 100, format: .bgr8, bytes: bytes)
        func zoom(_ json: String) throws -> Image {
            let recipe = try Recipe(json: #"{"stages":[{"stage":"zoom", \#(json)}]}"#)
            return try Pipeline(recipe).process(Frame(image: picture)).image
        }
        let double = try zoom(#""factor": 2, "interpolation": "nearest""#)
        #expect(double.width == 200 && double.height == 100)
        // The middle 100×50 (x 50…149, y 25…74) fills the frame: each source pixel twice.
        #expect(double.pixel(x: 0, y: 0)[0...1] == [50, 25])
        #expect(double.pixel(x: 199, y: 99)[0...1] == [149, 74])
        #expect(double.pixel(x: 101, y: 51)[0...1] == [100, 50])
        // Centred at the top-left corner: the view slides to x 0…99, y 0…49.
        let corner = try zoom(#""factor": 2, "centre": [0, 0], "interpolation": "nearest""#)
        #expect(corner.pixel(x: 0, y: 0)[0...1] == [0, 0] && corner.pixel(x: 199, y: 99)[0...1] == [99, 49])
        // Bilinear between pixels: the middle of the doubled view is the mean of 99 and 100.
        let smooth = try zoom(#""factor": 2, "interpolation": "bilinear""#)
        #expect(Int(smooth.pixel(x: 100, y: 50)[0]) - 100 <= 1)
        // The factor stops where the view is 10 pixels high: 100 / 10 = 10×.
        let most = try zoom(#""factor": 50, "interpolation": "nearest""#)
        #expect(most.pixel(x: 0, y: 0)[0...1] == [90, 45] && most.pixel(x: 199, y: 99)[0...1] == [109, 54])
        #expect(try zoom(#""factor": 1"#) == picture)
    }

    @Test("zooming a sensor picture onto a smaller output averages when shrinking and interpolates when enlarging")
    func sensorToOutput() throws {
        let chart = try SlantedEdgeChart(degrees: 0, blur: 0).rendered(width: 400, height: 300)
        let shrunk = try chart.zoomed(by: 1, to: PixelSize(width: 160, height: 90))
        #expect(shrunk.width == 160 && shrunk.height == 90)
        // The edge stays in the middle: dark on the left, light on the right.
        #expect(shrunk.pixel(x: 40, y: 45)[0] == 51 && shrunk.pixel(x: 120, y: 45)[0] == 204)
        let enlarged = try chart.zoomed(by: 4, to: PixelSize(width: 160, height: 90), interpolation: .bicubic)
        #expect(enlarged.pixel(x: 10, y: 45)[0] == 51 && enlarged.pixel(x: 150, y: 45)[0] == 204)
        #expect(throws: OcularError.self) { try chart.zoomed(by: 0.5, to: PixelSize(width: 160, height: 90)) }
    }

    @Test("damaged sizes: any text parses to a size within the limits or is refused in words")
    func sizeFuzz() throws {
        let fragments = ["1920", "1080", "x", "X", "×", " ", "-", "0", "00", "99999", "100000", "100001", "9223372036854775807", "1e3", ".", "+", "\u{0}", "é"]
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...4, using: &generator)).map { _ in fragments.randomElement(using: &generator)! }.joined()
            switch Result(catching: { () throws(OcularError) in try PixelSize(parsing: text) }) {
            case .success(let size):
                #expect((1...PixelSize.largestSide).contains(size.width) && (1...PixelSize.largestSide).contains(size.height), "'\(text)'")
                _ = try? ZoomPlanner(sensor: size, output: size, binned: true).capture(atZoom: 1)
            case .failure(let error):
                #expect("\(error)".count < 200)
            }
        }
    }
}

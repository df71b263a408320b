import Foundation
import Ocular
import OcularTestSupport
import Testing

@Suite("ocular zoom and ocular sharpness")
struct ZoomCLITests {
    @Test("zoom plan prints the article's figures and the capture per zoom; --json the same in numbers")
    func plan() throws {
        let run = try ocular("zoom", "plan", "--sensor", "3264x2448", "--output", "1920x1080")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("lossless zoom up to 1.7×") && run.output.contains("maximum zoom 108×"), "\(run.output)")
        #expect(run.output.contains("1.7×  full     1920×1080") && run.output.contains("108×  full     31×17"), "\(run.output)")
        let binned = try ocular("zoom", "plan", "--sensor", "3264x2448", "--output", "1920x1080", "--binned", "--json")
        #expect(binned.status == 0, "\(binned.errors)")
        let plan = try JSON(parsing: binned.output)
        #expect(plan["losslessThreshold"] == 0.85 && plan["maximumZoom"] == 108, "\(binned.output)")
        #expect(plan["captures"][0]["crop"] == ["width": 1632, "height": 918])
        let one = try ocular("zoom", "plan", "--sensor", "4000x3000", "--output", "1280x720", "--zoom", "2", "--json")
        let single = try JSON(parsing: one.output)
        // At 2× the binned readout's crop (1000 wide) is under 1280: the full readout's (2000×1125) covers it.
        let capture = single["captures"][0]
        #expect(capture["lossless"] == true && capture["readout"] == "full", "\(one.output) \(one.errors)")
        // At 1.5× the binned readout's crop (1334 wide) still covers 1280, and is the smaller capture.
        let low = try ocular("zoom", "plan", "--sensor", "4000x3000", "--output", "1280x720", "--zoom", "1.5")
        #expect(low.output.contains("1.5×  binned   1334×750"), "\(low.output)")
    }

    @Test("a small output from a large sensor: the threshold past the maximum zoom is said, and the plan printed (it exited 65)")
    func thresholdPastMaximum() throws {
        let run = try ocular("zoom", "plan", "--sensor", "3840x2160", "--output", "160x90")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("lossless zoom up to 24×") && run.output.contains("the threshold lies past the maximum zoom of 9×"), "\(run.output)")
        #expect(run.output.contains("maximum zoom 9×") && run.output.contains("9×  "), "\(run.output)")
        let json = try ocular("zoom", "plan", "--sensor", "3840x2160", "--output", "160x90", "--json")
        let plan = try JSON(parsing: json.output)
        let zooms = plan["captures"].list.compactMap { $0["zoom"].double }
        #expect(zooms.first == 1 && zooms.last == 9 && zooms.allSatisfy { $0 <= 9 }, "\(zooms) \(json.errors)")
        #expect(plan["captures"].list.allSatisfy { $0["lossless"] == true })
    }

    @Test("zoom plan refuses impossible sizes and zooms in words")
    func planErrors() throws {
        expectCleanFailure(try ocular("zoom", "plan", "--sensor", "3264", "--output", "1920x1080"), mentioning: "'3264' is not a size")
        expectCleanFailure(try ocular("zoom", "plan", "--sensor", "0x2448", "--output", "1920x1080"), mentioning: "has no pixels")
        expectCleanFailure(try ocular("zoom", "plan", "--sensor", "3264x2448", "--output", "1920x5"), mentioning: "cannot zoom")
        expectCleanFailure(try ocular("zoom", "plan", "--sensor", "3264x2448", "--output", "1920x1080", "--zoom", "200"),
                           mentioning: "outside 1× to 108×")
    }

    @Test("zoom prove measures MTF50 flat-ish to the threshold and about 1/zoom beyond, and draws the plot")
    func prove() throws {
        let folder = try Folder()
        let run = try ocular("zoom", "prove", "--sensor", "1632x1224", "--output", "960x540", "--json", "--plot", folder.file("proof.png"))
        #expect(run.status == 0, "\(run.errors)")
        let rows = try JSON(parsing: run.output)["rows"].list
        let figures = rows.compactMap { row -> (zoom: Double, mtf50: Double, binned: Double, enlarged: Double)? in
            guard let zoom = row["zoom"].double, let mtf50 = row["mtf50"].double, let binned = row["binnedMTF50"].double,
                  let enlarged = row["enlargedMTF50"].double else { return nil }
            return (zoom, mtf50, binned, enlarged)
        }
        #expect(figures.count == 12)
        let threshold = 1632.0 / 960
        let atThreshold = try #require(figures.first { abs($0.zoom - 1.7) < 1e-9 }?.mtf50)
        // Up to the threshold, within 25 % of the value there (averaging when shrinking costs a little).
        for row in figures where row.zoom <= threshold + 1e-9 {
            #expect(abs(row.mtf50 / atThreshold - 1) < 0.25, "\(row)")
        }
        // Beyond, about 1/zoom: within 15 % of MTF50 at the threshold × threshold / zoom.
        for row in figures where row.zoom > threshold + 1e-9 {
            #expect(abs(row.mtf50 / (atThreshold * threshold / row.zoom) - 1) < 0.15, "\(row)")
        }
        // Enlarging the unzoomed output frame instead loses detail from the first step: what the planner's crop saves.
        for row in figures where row.zoom > 1 && row.zoom <= threshold + 1e-9 {
            #expect(row.enlarged < 0.9 * row.mtf50, "\(row)")
        }
        // The binned readout enlarges from the start: below the full readout at every zoom.
        #expect(figures.allSatisfy { $0.binned < $0.mtf50 })
        let plot = try Image(contentsOfFile: folder.file("proof.png"))
        #expect(plot.width == 1000 && plot.height == 640)
    }

    @Test("sharpness measures a chart it drew: MTF50 0.1874/σ; --json has the curve; --plot writes the chart")
    func sharpness() throws {
        let folder = try Folder()
        let made = try ocular("sharpness", "chart", folder.file("edge.png"), "--blur", "1.5", "--degrees", "4", "--size", "200x160")
        #expect(made.status == 0, "\(made.errors)")
        let text = try ocular("sharpness", folder.file("edge.png"))
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.contains("vertical edge 4.00°") && text.output.contains("MTF50       0.12"), "\(text.output)")
        let run = try ocular("sharpness", folder.file("edge.png"), "--roi", "20,10,160,140", "--json", "--plot", folder.file("mtf.png"))
        #expect(run.status == 0, "\(run.errors)")
        let measurement = try JSON(parsing: run.output)["measurement"]
        let mtf50 = try #require(measurement["mtf50"].double, "\(run.output)")
        #expect(abs(mtf50 / SlantedEdgeChart.gaussianMTF50(sigma: 1.5) - 1) < 0.03)
        #expect(measurement["curve"].list.count == 101)
        #expect(try Image(contentsOfFile: folder.file("mtf.png")).width == 1000)
    }

    @Test("sharpness refuses a picture without an edge, a bad or tiny region and a missing file, in words")
    func sharpnessErrors() throws {
        let folder = try Folder()
        _ = try ocular("sharpness", "chart", folder.file("edge.png"), "--degrees", "0")
        expectCleanFailure(try ocular("sharpness", folder.file("edge.png")), mentioning: "tilt the target")
        expectCleanFailure(try ocular("sharpness", dataRoot + "/images/coffee.png"), mentioning: "no straight edge found")
        expectCleanFailure(try ocular("sharpness", folder.file("edge.png"), "--roi", "1,2,3"), mentioning: "--roi must be four whole numbers")
        expectCleanFailure(try ocular("sharpness", folder.file("edge.png"), "--roi", "0,0,10,10"), mentioning: "too small to measure")
        expectCleanFailure(try ocular("sharpness", folder.file("edge.png"), "--roi", "200,0,100,100"), mentioning: "is not inside the 256×256 picture")
        expectCleanFailure(try ocular("sharpness", folder.file("missing.png")), mentioning: "no such file")
        expectCleanFailure(try ocular("sharpness", "chart", folder.file("x.png"), "--blur=-1"), mentioning: "--blur must be from 0 to 20")
    }

    @Test("sharpness check prints the table and holds the 3 % promise")
    func check() throws {
        let run = try ocular("sharpness", "check")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("σ ≥ 0.7: worst error") && run.output.contains("(promise: 3 %)"), "\(run.output)")
    }
}

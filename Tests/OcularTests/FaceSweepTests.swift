import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

@Suite("Face sweep and evaluation")
struct FaceSweepTests {
    @Test("the sweep's labels move with the faces: the pixel at a label's centre is the source's face centre, and a mirrored or tilted face's eye corner lands where the map sends it")
    func labelsAreExact() throws {
        let sweep = try SweepSources.sweep.get()
        let names = sweep.names.map(\.name)
        let astronaut = try #require(sweep.humans.first { $0.name == "astronaut" })
        let source = astronaut.image, face = astronaut.face.bounds
        let centre = Point(x: Double(face.x) + Double(face.width) / 2, y: Double(face.y) + Double(face.height) / 2)
        // An off-centre point of the face: the subject's right eye region, where the picture has detail.
        let offset = Point(x: -0.2 * Double(face.width), y: -0.15 * Double(face.height))
        for (name, tilt) in [("size-0.50-astronaut", 0.0), ("mirror-astronaut", 0), ("tilt-20-astronaut", 20), ("tilt--25-astronaut", -25),
                             ("position-bottom-right-astronaut", 0)] {
            let index = try #require(names.firstIndex(of: name), "\(name) is in the sweep")
            let frame = try sweep.frame(index)
            let label = try #require(frame.faces.first).bounds
            let scale = Double(label.width) / Double(face.width)
            #expect(abs(Double(label.height) / Double(face.height) - scale) < 0.02, "\(name): the box keeps the face's proportions")
            let mirrored = name.hasPrefix("mirror")
            // Where the frame shows source point centre + offset: centre' + R(tilt)·scale·(±dx, dy).
            let dx = (mirrored ? -offset.x : offset.x) * scale, dy = offset.y * scale
            let angle = tilt * .pi / 180
            let labelCentre = Point(x: Double(label.x) + Double(label.width) / 2, y: Double(label.y) + Double(label.height) / 2)
            let target = Point(x: labelCentre.x + cos(angle) * dx - sin(angle) * dy, y: labelCentre.y + sin(angle) * dx + cos(angle) * dy)
            for (point, expected) in [(labelCentre, centre), (target, Point(x: centre.x + offset.x, y: centre.y + offset.y))] {
                let shown = frame.image.pixel(x: Int(point.x.rounded()), y: Int(point.y.rounded()))
                let original = source.pixel(x: Int(expected.x.rounded()), y: Int(expected.y.rounded()))
                let difference = zip(shown, original).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(difference <= 40, "\(name): frame \(point) shows \(shown), the source's \(expected) is \(original)")
            }
        }
    }

    @Test("the sweep covers every axis the issue names, at 640×480, 1280×720 and 720×1280, with a cat, several faces and faceless frames")
    func coverage() throws {
        let sweep = try SweepSources.sweep.get()
        let axes = Dictionary(grouping: sweep.names, by: \.axis).mapValues(\.count)
        for axis in ["size", "position", "cut-off", "mirror", "tilt", "light", "quality", "frame", "background", "several", "none", "cat"] {
            #expect((axes[axis] ?? 0) > 0, "axis \(axis)")
        }
        #expect(sweep.humans.map(\.name) == ["astronaut", "Piggy", "grace_hopper", "messi5"])
        #expect(sweep.cats.map(\.name) == ["chelsea"])
        let tall = try sweep.frame(try #require(sweep.names.firstIndex { $0.name == "frame-720x1280-0.50-Piggy" }))
        #expect(tall.image.width == 720 && tall.image.height == 1280)
        #expect(tall.faces.first?.bounds.width == 360)
        // A face cut off by a quarter keeps three quarters of its box.
        let cut = try sweep.frame(try #require(sweep.names.firstIndex { $0.name == "cut-left-0.25-grace_hopper" }))
        let box = try #require(cut.faces.first).bounds
        #expect(box.x == 0 && abs(Double(box.width) / Double(box.height) - 0.75) < 0.02, "\(box)")
        // The same frame twice is the same picture: the sweep is deterministic.
        let noisy = try #require(sweep.names.firstIndex { $0.name == "noise-8-astronaut" })
        #expect(try sweep.frame(noisy).image == sweep.frame(noisy).image)
    }

    @Test("scoring: a box finds a label of its species at IoU ≥ 0.5, each counts once, misses and false boxes are listed by picture")
    func scoring() {
        var evaluation = FaceEvaluation()
        let face = PixelRectangle(x: 100, y: 100, width: 100, height: 100)
        evaluation.score(picture: "a", group: "g", labels: [LabelledFace(species: .human, bounds: face)],
                         found: [LabelledFace(species: .human, bounds: face.offsetBy(dx: 20, dy: 0)),   // IoU 0.67: found
                                 LabelledFace(species: .human, bounds: face.offsetBy(dx: 10, dy: 0))])  // a second box: false
        evaluation.score(picture: "b", labels: [LabelledFace(species: .cat, bounds: face)],
                         found: [LabelledFace(species: .human, bounds: face)])  // the wrong species: a miss and a false box
        evaluation.score(picture: "c", labels: [LabelledFace(species: .human, bounds: face)],
                         found: [LabelledFace(species: .human, bounds: face.offsetBy(dx: 50, dy: 0))])  // IoU 0.33: neither
        let human = evaluation.tally(.human), cat = evaluation.tally(.cat)
        #expect(human.labelled == 2 && human.found == 4 && human.matched == 1)
        #expect(abs(human.recall - 0.5) < 1e-9 && abs(human.precision - 0.25) < 1e-9)
        #expect(abs(human.meanOverlap - 0.9 / 1.1) < 1e-9, "the better of the two boxes is the match: IoU 90/110")
        #expect(cat.labelled == 1 && cat.matched == 0 && cat.recall == 0 && cat.precision == 1)
        #expect(evaluation.misses.map(\.picture) == ["b", "c"])
        #expect(evaluation.falseBoxes.map(\.picture) == ["a", "b", "c"])
        #expect(evaluation.groups["g"]?[.human]?.found == 2)
        #expect(evaluation.pictures == 3)
    }

    @Test("label lists: a list file or a folder's faces.json; what is wrong is named with the file")
    func labelLists() throws {
        let folder = try TemporaryFolder()
        try Data(#"[{"file":"a.png","faces":[{"species":"cat","bounds":[1,2,3,4]}],"group":"x"},{"file":"/abs/b.png","faces":[]}]"#.utf8)
            .write(to: URL(fileURLWithPath: folder.file("faces.json")))
        let list = try FaceLabelList(contentsOf: folder.path)
        #expect(list.entries.count == 2)
        #expect(list.path(of: list.entries[0]) == folder.file("a.png") && list.path(of: list.entries[1]) == "/abs/b.png")
        #expect(list.entries[0].faces == [LabelledFace(species: .cat, bounds: PixelRectangle(x: 1, y: 2, width: 3, height: 4))])
        #expect(list.entries[0].group == "x")
        // Written and read back: the same entries.
        try list.encoded().write(to: URL(fileURLWithPath: folder.file("again.json")))
        #expect(try FaceLabelList(contentsOf: folder.file("again.json")).entries == list.entries)

        for (text, reason) in [
            (#"{"file":"a.png"}"#, "not a JSON list"),
            (#"[{"file":"a.png","faces":[{"species":"dog","bounds":[1,2,3,4]}]}]"#, "species"),
            (#"[{"file":"a.png","faces":[{"species":"cat","bounds":[1,2,0,4]}]}]"#, "positive width and height"),
            (#"[{"file":"","faces":[]}]"#, "names no file"),
        ] {
            let path = folder.file("bad.json")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            #expect {
                try FaceLabelList(contentsOf: path)
            } throws: { error in
                let message = "\(error)"
                return message.contains(path) && message.contains(reason)
            }
        }
        let empty = try TemporaryFolder()
        #expect(throws: FaceError.self) { try FaceLabelList(contentsOf: empty.path) }
    }
}

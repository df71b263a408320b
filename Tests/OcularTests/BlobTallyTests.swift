import Foundation
import Testing
@testable import Ocular
import OcularTestSupport

@Suite("Bean counter: every object named, the tally and the money")
struct BlobTallyTests {
    static let shippedList = TestData.shippedTrainingList

    static func classifier(values: [Int: TrainingList.Worth] = [:]) throws -> BlobClassifier {
        try BlobClassifier(profile: .standard, labelDescriptions: ["unidentified", "Canadian penny", "Canadian quarter", "loonie, Canadian dollar",
                                                                   "pinto bean", "box", "cherry"],
                           references: [], values: values)
    }

    @Test("a tally counts each label, names it in the plural, and adds up the money by currency")
    func tally() throws {
        let values: [Int: TrainingList.Worth] = [2: .init(label: 2, value: 0.25, currency: "CAD"), 3: .init(label: 3, value: 1, currency: "CAD"),
                                                 1: .init(label: 1, value: 0.01, currency: "CAD")]
        let tally = BlobTally(counts: [4: 3, 3: 1, 2: 2, 0: 1, 5: 0], classifier: try Self.classifier(values: values))
        #expect(tally.lines.map(\.label) == [2, 3, 4, 0])
        #expect(tally.count == 7)
        #expect(tally.totals == ["CAD": 1.5])
        #expect(tally.text == "2 Canadian quarters, 1 loonie, 3 pinto beans, 1 unidentified: $1.50")
        #expect(BlobTally(counts: [:], classifier: try Self.classifier()).text == "nothing")
        #expect(BlobTally(counts: [4: 2], classifier: try Self.classifier()).text == "2 pinto beans")
        // English's regular plurals.
        #expect(BlobTally.name("box", count: 2) == "boxes" && BlobTally.name("cherry", count: 3) == "cherries")
        #expect(BlobTally.name("Canadian penny", count: 2) == "Canadian pennies" && BlobTally.name("toy", count: 2) == "toys")
        #expect(BlobTally.name("loonie, Canadian dollar", count: 1) == "loonie")
        #expect(BlobTally.name("unidentified", count: 27) == "unidentified")
        #expect(BlobTally.money(1.5, currency: "EUR") == "€1.50" && BlobTally.money(300, currency: "JPY") == "¥300")
        #expect(BlobTally.money(0.2, currency: "CHF") == "0.20 CHF")
    }

    @Test("a steadied tally takes each label's median over the last five frames")
    func smoother() {
        var smoother = BlobTally.Smoother(window: 5)
        #expect(smoother.add([7: 3]) == [7: 3])
        // One frame that misses a bean and splits a coin does not move the count.
        _ = smoother.add([7: 3, 5: 1])
        _ = smoother.add([7: 3, 5: 1])
        #expect(smoother.add([7: 2, 5: 2]) == [7: 3, 5: 1])
        // A change that lasts wins once it holds most of the window.
        _ = smoother.add([7: 4, 5: 1])
        _ = smoother.add([7: 4, 5: 1])
        #expect(smoother.add([7: 4, 5: 1]) == [7: 4, 5: 1])
        smoother.reset()
        #expect(smoother.add([:]) == [:])
    }

    @Test("a training list's values are read, and wrong ones refused by name")
    func values() throws {
        let list = try TrainingList(contentsOfFile: Self.shippedList)
        #expect(list.values[6] == TrainingList.Worth(label: 6, value: 2, currency: "CAD"))
        #expect(list.values[7] == nil && list.values.count == 6)
        let folder = try TemporaryFolder()
        let start = #"{"labelDescriptions": ["unidentified", "dime"], "blobs": [{"imageFilename": "a.png", "label": 1}], "values": "#
        for (values, reason) in [(#"[{"label": 2, "value": 1, "currency": "CAD"}]"#, "values[0] is for label 2"),
                                 (#"[{"label": 1, "value": -1, "currency": "CAD"}]"#, "worth -1.0"),
                                 (#"[{"label": 1, "value": 0.1, "currency": "cad"}]"#, "three capitals"),
                                 (#"[{"label": 1, "value": 0.1, "currency": "CAD"}, {"label": 1, "value": 0.2, "currency": "CAD"}]"#, "second value"),
                                 (#"[{"label": 1, "value": 0.1}]"#, "currency")] {
            let path = folder.file("list.json")
            try (start + values + "}").write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try TrainingList(contentsOfFile: path)
                Issue.record("accepted \(values)")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
    }

    @Test("a training list's sizes are read, and wrong ones refused by name")
    func sizes() throws {
        let list = try TrainingList(contentsOfFile: Self.shippedList)
        #expect(list.millimetres[4] == 23.88 && list.millimetres[3] == 18.03 && list.millimetres.count == 8)
        let folder = try TemporaryFolder()
        let start = #"{"labelDescriptions": ["unidentified", "dime"], "blobs": [{"imageFilename": "a.png", "label": 1}], "sizes": "#
        for (sizes, reason) in [(#"[{"label": 2, "millimetres": 18}]"#, "sizes[0] is for label 2"),
                                (#"[{"label": 1, "millimetres": 0}]"#, "0.0 mm long"),
                                (#"[{"label": 1, "millimetres": 1e9}]"#, "from 0.1 to 10000 millimetres"),
                                (#"[{"label": 1, "millimetres": 18}, {"label": 1, "millimetres": 19}]"#, "second size"),
                                (#"[{"label": 1}]"#, "millimetres")] {
            let path = folder.file("list.json")
            try (start + sizes + "}").write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try TrainingList(contentsOfFile: path)
                Issue.record("accepted \(sizes)")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
    }

    @Test("the blobs stage with a training list names every object of the demo scene and attaches the tally")
    func stage() throws {
        let stage = try BlobsStage.with(["training": .text(Self.shippedList)], images: ImageFiles())
        let frame = try stage.process(Frame(image: try Image(contentsOfFile: TestData.demo("beans.jpg"))))
        let blobs = frame.annotations(of: Blob.self)
        #expect(blobs.map(\.label).sorted() == Array(2...8))
        let tally = try #require(frame.annotations(of: BlobTally.self).first)
        #expect(tally.count == 7 && tally.totals == ["CAD": 3.4])
        // Each named blob's box is in its label's colour, a tag above it.
        let toonie = try #require(blobs.first { $0.label == 6 })
        let colour = toonie.boxColour
        #expect(frame.image.pixel(x: toonie.bounds.x, y: toonie.bounds.y + toonie.bounds.height / 2)
                == [UInt8(colour.blue), UInt8(colour.green), UInt8(colour.red)])
        // On a stream the names hold (reused where a named blob lay, one checked afresh a frame).
        for _ in 0..<6 {
            let again = try stage.process(Frame(image: try Image(contentsOfFile: TestData.demo("beans.jpg"))))
            #expect(again.annotations(of: Blob.self).map(\.label) == blobs.map(\.label))
            #expect(again.annotations(of: BlobTally.self).first == tally)
        }
        // A coin swapped for another where it lay is renamed within a few frames: the dime's place
        // given the nickel's picture.
        var swapped = try Image(contentsOfFile: TestData.demo("beans.jpg"))
        let nickel = try #require(blobs.first { $0.label == 2 }), dime = try #require(blobs.first { $0.label == 3 })
        let side = min(nickel.bounds.width, dime.bounds.width, nickel.bounds.height, dime.bounds.height)
        let coin = try swapped.cropped(to: PixelRectangle(x: nickel.bounds.x + (nickel.bounds.width - side) / 2,
                                                          y: nickel.bounds.y + (nickel.bounds.height - side) / 2, width: side, height: side))
        swapped = try coin.warped(by: try AffineMatrix(coefficients: [1, 0, Double(dime.bounds.x + (dime.bounds.width - side) / 2),
                                                                      0, 1, Double(dime.bounds.y + (dime.bounds.height - side) / 2)]),
                                  over: swapped)
        var renamed = false
        for _ in 0..<12 where !renamed {
            let labels = try stage.process(Frame(image: swapped)).annotations(of: Blob.self).map(\.label)
            renamed = labels.filter { $0 == 2 }.count == 2 && !labels.contains(3)
        }
        #expect(renamed, "the swapped coin keeps its old name")
        // Without a list the stage boxes in green and counts nothing.
        let plain = try BlobsStage.withDefaults().process(Frame(image: try Image(contentsOfFile: TestData.demo("beans.jpg"))))
        #expect(plain.annotations(of: BlobTally.self).isEmpty && plain.annotations(of: Blob.self).allSatisfy { $0.classification == nil })
        // Where no list can be named, the stage says so for its parameter.
        #expect(throws: StageError.self) { try BlobsStage.with(["training": .text(Self.shippedList)]) }
        do {
            _ = try BlobsStage.with(["training": .text("/nowhere/labels.json")], images: ImageFiles())
        } catch {
            #expect(error.description.contains("training") && error.description.contains("/nowhere/labels.json"), "\(error)")
        }
    }

    @Test("name tags of objects that touch do not cover each other: above the box, else below, else inside")
    func tagsClearEachOther() {
        let size = Image.labelSize("Canadian quarter", height: 16)
        #expect(size.width > 100 && size.height > 16 && size.height < 40, "\(size)")
        // A lone box: its tag sits just above it.
        let lone = BlobsStage.tagOrigins(boxes: [PixelRectangle(x: 100, y: 100, width: 60, height: 60)], sizes: [size],
                                         width: 640, height: 480, gap: 2)
        #expect(lone[0].x == 100 && lone[0].y == 100 - size.height - 2)
        // Three coins in a row, touching, with tags wider than each coin.
        let boxes = (0..<3).map { PixelRectangle(x: 200 + 60 * $0, y: 200, width: 60, height: 60) }
        let origins = BlobsStage.tagOrigins(boxes: boxes, sizes: Array(repeating: size, count: 3), width: 640, height: 480, gap: 2)
        let tags = origins.map { PixelRectangle(x: $0.x, y: $0.y, width: size.width, height: size.height) }
        for a in tags.indices {
            for b in tags.indices where a < b {
                #expect(tags[a].intersectionOverUnion(tags[b]) == 0, "tags \(a) and \(b) overlap: \(tags[a]) \(tags[b])")
            }
        }
        // Each tag stays by its own box: it touches the box's columns.
        for (tag, box) in zip(tags, boxes) {
            #expect(tag.x < box.x + box.width && tag.x + tag.width > box.x)
        }
    }
}

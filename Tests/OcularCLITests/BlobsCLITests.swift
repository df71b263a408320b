import Foundation
import Ocular
import OcularTestSupport
import Testing

@Suite("ocular blobs")
struct BlobsCLITests {
    static let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/OcularStudio/Public/demo/beans.jpg").path

    /// The shared training set copied where the test may write its model.
    static func trainingSet(in folder: Folder) throws -> String {
        for name in ["labels.json", "BlobClassifierTraining.plist"] + (try FileManager.default.contentsOfDirectory(atPath: dataRoot + "/beancounter")).filter({ $0.hasSuffix(".png") }) {
            try FileManager.default.copyItem(atPath: dataRoot + "/beancounter/" + name, toPath: folder.file(name))
        }
        return folder.file("labels.json")
    }

    static func object(_ text: String) throws -> JSON {
        try JSON(parsing: text)
    }

    @Test("detect: seven blobs of the demo scene as JSON, drawn and masked")
    func detect() throws {
        let folder = try Folder()
        let run = try ocular("blobs", "detect", Self.scene, "--json", "--draw", folder.file("drawn.png"), "--mask", folder.file("mask.png"))
        #expect(run.status == 0, "\(run.errors)")
        let blobs = try Self.object(run.output)["blobs"].list
        #expect(blobs.count == 7)
        #expect(blobs.allSatisfy { $0["bounds"].list.compactMap(\.int).count == 4 && $0["label"] == 0 })
        let drawn = try Image(contentsOfFile: folder.file("drawn.png")), mask = try Image(contentsOfFile: folder.file("mask.png"))
        #expect(drawn.width == 1280 && mask.width == 1280 && mask.height == 720)
        let first = try #require(blobs.first)["bounds"].list.compactMap(\.int)
        try #require(first.count == 4)
        #expect(drawn.pixel(x: first[0], y: first[1] + first[3] / 2) == [0, 255, 0])
        let plain = try ocular("blobs", "detect", Self.scene)
        #expect(plain.output.split(separator: "\n").filter { $0.hasPrefix("blob ") }.count == 7)
    }

    @Test("count: the tally of the demo scene with the shipped list's money, as text and JSON, drawn with names")
    func count() throws {
        let folder = try Folder()
        let list = URL(fileURLWithPath: Self.scene).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TrainingList/labels.json").path
        let run = try ocular("blobs", "count", Self.scene, "--training", list, "--draw", folder.file("named.png"))
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "1 Canadian nickel, 1 Canadian dime, 1 Canadian quarter, 1 loonie, 1 toonie, 1 pinto bean, 1 romano bean: $3.40")
        #expect(lines.contains("  1 × toonie, Canadian two-dollar (label 6) at $2.00"))
        #expect(try Image(contentsOfFile: folder.file("named.png")).width == 1280)
        let json = try Self.object(try ocular("blobs", "count", Self.scene, "--training", list, "--json").output)
        #expect(json["tally"]["count"] == 7 && json["tally"]["totals"] == ["CAD": 3.4])
        #expect(json["blobs"].list.count == 7)
        // A list without values counts without money.
        let shared = try ocular("blobs", "count", Self.scene, "--training", try Self.trainingSet(in: folder))
        #expect(shared.output.hasPrefix("1 Canadian nickel,") && !shared.output.contains("$"))
        let missing = try ocular("blobs", "count", folder.file("none.png"), "--training", list)
        #expect(missing.status != 0 && missing.errors.contains("none.png"))
    }

    @Test("classify: the biggest blob by default, every blob with --all, in the issue's JSON format")
    func classify() throws {
        let folder = try Folder()
        let list = try Self.trainingSet(in: folder)
        let biggest = try ocular("blobs", "classify", Self.scene, "--training", list)
        #expect(biggest.status == 0, "\(biggest.errors)")
        #expect(biggest.output.hasPrefix("toonie, Canadian two-dollar (label 6) at 193×199"), "\(biggest.output)")
        #expect(biggest.errors.contains("training 7/7 pictures"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("labels.default.blobmodel")), "the model is a cache, not kept beside the list")
        let all = try ocular("blobs", "classify", Self.scene, "--training", list, "--all", "--json")
        #expect(all.errors.isEmpty, "the stored model is loaded, not retrained: \(all.errors)")
        let blobs = try Self.object(all.output)["blobs"].list
        #expect(blobs.count == 7)
        #expect(Set(blobs.compactMap { $0["label"].int }) == Set(2...8))
        #expect(blobs.allSatisfy { $0.keys == ["bounds", "label", "description", "distance"] })
        #expect(blobs.allSatisfy { ($0["distance"].double ?? 1) < 0.33 })
        // The plist trains the same; the textbook profile has its own scale.
        let textbook = try ocular("blobs", "classify", Self.scene, "--training", folder.file("BlobClassifierTraining.plist"),
                                  "--profile", "textbook", "--json")
        let answer = try Self.object(textbook.output)["blobs"][0]
        #expect(answer["label"] == 6 && (answer["distance"].double ?? 0) > 100)
        // Something else is unidentified, unless the threshold is lifted.
        let coffee = dataRoot + "/images/coffee.png"
        #expect(try ocular("blobs", "classify", coffee, "--training", list).output.hasPrefix("unidentified (label 0)"))
        #expect(try !ocular("blobs", "classify", coffee, "--training", list, "--no-threshold").output.hasPrefix("unidentified"))
    }

    @Test("train shows progress and names missing pictures; evaluate prints accuracy and the confusion matrix")
    func trainAndEvaluate() throws {
        let folder = try Folder()
        let list = try Self.trainingSet(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("Loonie_Heads_000.png"))
        let train = try ocular("blobs", "train", "--training", list)
        #expect(train.status == 0, "\(train.errors)")
        #expect(train.output.contains("trained 6 pictures with the default profile"))
        #expect(train.errors.contains("training 7/7 pictures") && train.errors.contains("not trained: Loonie_Heads_000.png: no such file"))

        // A labelled folder: each scene object cut out into a subfolder named by its label's number,
        // the pinto bean's by its description.
        try FileManager.default.copyItem(atPath: dataRoot + "/beancounter/Loonie_Heads_000.png", toPath: folder.file("Loonie_Heads_000.png"))
        let labelled = folder.file("labelled")
        let image = try Image(contentsOfFile: Self.scene)
        let positions = [(2, 170, 190), (3, 470, 170), (4, 800, 200), (5, 1110, 210), (6, 230, 520), (7, 560, 520), (8, 900, 520)]
        for (label, x, y) in positions {
            let name = label == 7 ? "pinto bean" : String(label)
            try FileManager.default.createDirectory(atPath: labelled + "/" + name, withIntermediateDirectories: true)
            try image.cropped(to: PixelRectangle(x: x - 130, y: y - 130, width: 260, height: 260)).write(toFile: labelled + "/\(name)/crop.png")
        }
        let evaluate = try ocular("blobs", "evaluate", "--training", list, "--labelled", labelled)
        #expect(evaluate.status == 0, "\(evaluate.errors)")
        #expect(evaluate.output.hasPrefix("accuracy (default profile): 7 of 7, 100 %"), "\(evaluate.output)")
        #expect(evaluate.output.contains("  7   0   0   0   0   0   0   0   1   0   pinto bean"), "\(evaluate.output)")
        let json = try Self.object(try ocular("blobs", "evaluate", "--training", list, "--labelled", labelled, "--json", "--profile", "textbook").output)
        #expect(json["total"] == 7 && json["profile"] == "textbook")
        #expect(json["confusion"].list.count == 9)
    }

    @Test("bad training lists, profiles and folders fail cleanly, by name")
    func errors() throws {
        let folder = try Folder()
        try "{}".write(toFile: folder.file("empty.json"), atomically: true, encoding: .utf8)
        expectCleanFailure(try ocular("blobs", "train", "--training", folder.file("empty.json")),
                           mentioning: "cannot use the training list '\(folder.file("empty.json"))': no 'labelDescriptions'")
        expectCleanFailure(try ocular("blobs", "classify", Self.scene, "--training", folder.file("none.json")), mentioning: "no such file")
        expectCleanFailure(try ocular("blobs", "classify", Self.scene, "--training", "x", "--profile", "best"), mentioning: "The value 'best' is invalid for '--profile <profile>'. Please provide one of 'default' and 'textbook'.")
        expectCleanFailure(try ocular("blobs", "classify", Self.scene, "--training", "x", "--threshold=-1"), mentioning: "--threshold must be")
        let list = try Self.trainingSet(in: folder)
        let blank = folder.file("blank.png")
        try Image(width: 64, height: 48, format: .gray8, filledWith: [128]).write(toFile: blank)
        expectCleanFailure(try ocular("blobs", "classify", blank, "--training", list), mentioning: "no blob found in '\(blank)'")
        let noBlobs = try ocular("blobs", "classify", blank, "--training", list, "--all", "--json").output
        #expect(try JSON(parsing: noBlobs) == ["blobs": []], "\(noBlobs)")
        try FileManager.default.createDirectory(atPath: folder.file("sorted/nickels"), withIntermediateDirectories: true)
        expectCleanFailure(try ocular("blobs", "evaluate", "--training", list, "--labelled", folder.file("sorted/nickels")),
                           mentioning: "holds neither a labels.json nor subfolders of pictures named by label")
        expectCleanFailure(try ocular("blobs", "evaluate", "--training", list, "--labelled", folder.file("sorted")),
                           mentioning: "the folder's name is no label's number or description")
    }
}

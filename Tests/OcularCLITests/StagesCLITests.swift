import Foundation
import Ocular
import OcularTestSupport
import Testing

@Suite("ocular apply and ocular stages")
struct StagesCLITests {
    @Test("apply runs an inline recipe: the same pixels as the library's pipeline")
    func applyInline() throws {
        let folder = try Folder()
        let recipe = #"{"stages":[{"stage":"whiteBalance"},{"stage":"tint","seed":7}]}"#
        let run = try ocular("apply", dataRoot + "/images/coffee.png", "-o", folder.file("out.png"), "--recipe", recipe)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("600 × 400") && run.output.contains("whiteBalance → tint"), "\(run.output)")
        let expected = try Pipeline(Recipe(json: recipe)).process(Image(contentsOfFile: dataRoot + "/images/coffee.png"))
        #expect(try Image(contentsOfFile: folder.file("out.png")) == expected)
    }

    @Test("apply --json prints what the detection stages found, one list per kind the recipe looks for; -o is optional")
    func applyJSON() throws {
        let folder = try Folder()
        let astronaut = dataRoot + "/faces/astronaut.png"
        let recipe = #"{"stages":[{"stage":"faces"},{"stage":"blobs"}]}"#
        let run = try ocular("apply", astronaut, "--recipe", recipe, "--json")
        #expect(run.status == 0, "\(run.errors)")
        let found = try JSON(parsing: run.output)
        #expect(found.keys == ["faces", "blobs"], "\(run.output)")
        // The same faces as the stage's tracker finds on a first frame, box for box.
        let faces = try FaceTracker(detector: FaceDetector(profile: .standard)).faces(in: Image(contentsOfFile: astronaut))
        #expect(found["faces"].list.count == faces.count && !faces.isEmpty)
        #expect(found["faces"].list.map { $0["bounds"].list.compactMap(\.int) } == faces.map { [$0.bounds.x, $0.bounds.y, $0.bounds.width, $0.bounds.height] })
        #expect(folder.contents.isEmpty)
        // A recipe that detects nothing prints an empty object; with -o the picture is written and stdout stays JSON.
        let gray = try ocular("apply", astronaut, "--recipe", #"{"stages":[{"stage":"gray"}]}"#, "--json", "-o", folder.file("g.png"))
        #expect(gray.status == 0 && (try? JSON(parsing: gray.output)) == [:], "\(gray.output) \(gray.errors)")
        #expect(folder.contents == ["g.png"])
    }

    @Test("apply reads a recipe file, and --time picks the tint of that moment")
    func applyFileAndTime() throws {
        let folder = try Folder()
        try Data(#"{"stages":[{"stage":"gray"},{"stage":"tint","seed":3,"interval":1}]}"#.utf8).write(to: URL(fileURLWithPath: folder.file("r.json")))
        let run = try ocular("apply", dataRoot + "/book/Piggy.png", "-o", folder.file("pig.png"), "--recipe", folder.file("r.json"), "--time", "4.5")
        #expect(run.status == 0, "\(run.errors)")
        let piggy = try Image(contentsOfFile: dataRoot + "/book/Piggy.png")
        // 4.5 s at 1 s per tint: tint number 4 of seed 3. A gray frame is tinted as RGB; files read back as BGR.
        let expected = try TintSequence(seed: 3).tint(number: 4).apply(to: piggy.converted(to: .gray8)).converted(to: .bgr8)
        #expect(try Image(contentsOfFile: folder.file("pig.png")) == expected)
    }

    @Test("apply refuses bad recipes with the stage, the parameter and what is allowed, and writes nothing")
    func applyErrors() throws {
        let folder = try Folder()
        let input = dataRoot + "/images/coffee.png", output = folder.file("out.png")
        expectCleanFailure(try ocular("apply", input, "-o", output, "--recipe", #"{"stages":[{"stage":"glitter"}]}"#),
                           mentioning: "unknown stage 'glitter'; the nearest names are \(StageRegistry.standard.nearestNames(to: "glitter", count: 3).map { "'\($0)'" }.joined(separator: ", ")) (\(StageRegistry.standard.stages.count) stages in all)")
        expectCleanFailure(try ocular("apply", input, "-o", output, "--recipe", #"{"stages":[{"stage":"tint","interval":0}]}"#),
                           mentioning: "stage 'tint', parameter 'interval': must be a number from 0.1 to 60, got 0")
        expectCleanFailure(try ocular("apply", input, "-o", output, "--recipe", "{stages"), mentioning: "not a recipe: not valid JSON")
        expectCleanFailure(try ocular("apply", input, "-o", output, "--recipe", folder.file("missing.json")),
                           mentioning: "cannot read '\(folder.file("missing.json"))': no such file")
        expectCleanFailure(try ocular("apply", input, "-o", output, "--recipe", #"{"stages":[]}"#, "--time=-1"), mentioning: "--time must be")
        #expect(folder.contents.isEmpty)
    }

    @Test("stages lists every stage with its parameters; --json gives the declarations")
    func listStages() throws {
        let text = try ocular("stages")
        #expect(text.status == 0)
        #expect(text.output.contains("whiteBalance — White balance (colourAdjustment)"))
        #expect(text.output.contains("seed          a whole number from 0 to 4294967295, default 0"), "\(text.output)")
        #expect(text.output.contains("saturationThreshold  a number from 0 to 1, default 0.9"))

        let json = try ocular("stages", "--json")
        #expect(json.status == 0)
        let stages = try JSON(parsing: json.output)["stages"].list
        #expect(stages.map { $0["name"].text } == StageRegistry.standard.names)
        let tint = try #require(stages.first { $0["name"] == "tint" })
        let interval = try #require(tint["parameters"].list.first { $0["name"] == "interval" })
        #expect(interval["kind"] == "number" && interval["minimum"] == 0.1 && interval["maximum"] == 60
            && interval["default"] == 2 && interval["step"] == 0.1)
    }

    @Test("stages --category keeps one category; stages describe prints one declaration as JSON; mistakes are named")
    func categoryAndDescribe() throws {
        let blur = try ocular("stages", "--category", "blur")
        #expect(blur.status == 0 && blur.output.hasPrefix("gaussianBlur — Gaussian blur (blur)"), "\(blur.output)")
        #expect(!blur.output.contains("sepiaTone"))
        let geometry = try ocular("stages", "--category", "geometry", "--json")
        let listed = try JSON(parsing: geometry.output)
        #expect(listed["stages"].list.compactMap { $0["name"].text } == ["zoom", "straighten", "affineTransform", "crop"])
        // Core Image's spelling of colour works too.
        #expect(try ocular("stages", "--category", "colorEffect").output.contains("sepiaTone — Sepia tone"))
        let described = try ocular("stages", "describe", "gammaAdjust")
        #expect(described.status == 0, "\(described.errors)")
        let gamma = try JSON(parsing: described.output)
        #expect(gamma["name"] == "gammaAdjust" && gamma["category"] == "colourAdjustment" && gamma["filter"] == true)
        let power = gamma["parameters"][0]
        #expect(power["name"] == "power" && power["minimum"] == 0.25 && power["maximum"] == 4 && power["default"] == 1)
        expectCleanFailure(try ocular("stages", "describe", "glitter"), mentioning: "unknown stage 'glitter'")
        expectCleanFailure(try ocular("stages", "--category", "sparkle"), mentioning: "no category 'sparkle'; the categories are colourAdjustment")
    }

    @Test("filters lists the Core Image–style filters alone and describes one; a stage that is not a filter is named")
    func filtersCommand() throws {
        let listed = try ocular("filters", "--json")
        #expect(listed.status == 0, "\(listed.errors)")
        let filters = try JSON(parsing: listed.output)["stages"].list
        #expect(filters.compactMap { $0["name"].text } == StageRegistry.standard.descriptions.filter(\.filter).map(\.name))
        #expect(filters.count == 17)
        #expect(try ocular("filters", "list", "--category", "blur").output.hasPrefix("gaussianBlur — Gaussian blur (blur)"))
        let sepia = try ocular("filters", "describe", "sepiaTone")
        #expect(sepia.status == 0 && sepia.output.contains(#""name" : "sepiaTone""#), "\(sepia.output)")
        expectCleanFailure(try ocular("filters", "describe", "gray"), mentioning: "'gray' is a stage but not one of the filters")
    }

    @Test("apply --explain prints the passes a recipe compiles to, with or without an image")
    func explain() throws {
        let recipe = #"{"stages":[{"stage":"colorControls","saturation":1.2},{"stage":"exposureAdjust","ev":0.5},{"stage":"gammaAdjust","power":0.8},{"stage":"gaussianBlur"}]}"#
        let run = try ocular("apply", "--explain", "--recipe", recipe)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.split(separator: "\n") == [
            "pass 1: colorControls, exposureAdjust, gammaAdjust fused into one pass over the pixels",
            "  step 1: colorControls → 3×4 matrix [1.157 -0.143 -0.014 0] [-0.043 1.057 -0.014 0] [-0.043 -0.143 1.186 0]",
            "  step 2: exposureAdjust + gammaAdjust → one lookup table per channel",
            "pass 2: gaussianBlur",
        ], "\(run.output)")
        let folder = try Folder()
        let withImage = try ocular("apply", dataRoot + "/images/coffee.png", "-o", folder.file("out.png"), "--recipe", recipe, "--explain")
        #expect(withImage.status == 0 && withImage.output.hasPrefix("pass 1:") && folder.contents == ["out.png"], "\(withImage.errors)")
        expectCleanFailure(try ocular("apply", "-o", folder.file("x.png"), "--recipe", recipe), mentioning: "give the image to process")
    }
}

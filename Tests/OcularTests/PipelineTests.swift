import Foundation
import Testing
@testable import Ocular
import OcularTestSupport

@Suite("Stages, recipes and pipelines")
struct PipelineTests {
    let coffee: Image

    init() throws {
        coffee = try Image(contentsOfFile: TestData.path("images/coffee.png"))
    }

    func error(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch let error as StageError {
            return error.description
        } catch {
            return "not a StageError: \(error)"
        }
    }

    @Test("the issue's recipe reads, builds, and spells out every default")
    func readsRecipe() throws {
        let recipe = try Recipe(json: #"{"stages":[{"stage":"whiteBalance"},{"stage":"tint","seed":7}]}"#)
        #expect(recipe.stages == [.init("whiteBalance"), .init("tint", ["seed": 7])])
        let pipeline = try Pipeline(recipe)
        #expect(pipeline.steps.map(\.values.stage) == ["whiteBalance", "tint"])
        let full = pipeline.recipe
        #expect(full.stages[0].values == ["saturationThreshold": 0.9, "keepBrightness": true])
        #expect(full.stages[1].values["seed"] == 7 && full.stages[1].values["interval"] == 2 && full.stages[1].values["blueMaximum"] == 1.6)
        // Written and read back, the same recipe.
        #expect(try Recipe(json: full.json) == full)
        #expect(full.json.hasPrefix(#"{"stages":[{"keepBrightness":true,"saturationThreshold":0.9,"stage":"whiteBalance"}"#))
    }

    @Test("a pipeline applies its stages in order, as the stages alone would")
    func appliesInOrder() throws {
        let pipeline = try Pipeline(Recipe(json: #"{"stages":[{"stage":"whiteBalance"},{"stage":"tint","seed":7}]}"#))
        let expected = try TintSequence(seed: 7).tint(number: 0).apply(to: WhiteBalance().apply(to: coffee))
        #expect(try pipeline.process(coffee) == expected)
        #expect(try Pipeline(Recipe()).process(coffee) == coffee)
        let gray = try Pipeline(Recipe(stages: [.init("gray")])).process(coffee)
        #expect(gray == (try coffee.converted(to: .gray8)))
    }

    @Test("the tint follows the frame's timestamp and its declared interval")
    func tintFollowsTimestamp() throws {
        let tint = try TintStage.with(["seed": 3, "interval": 0.5])
        let at = try tint.process(Frame(image: coffee, timestamp: .milliseconds(2600))).image
        #expect(at == (try TintSequence(seed: 3).tint(number: 5).apply(to: coffee)))  // 2.6 s / 0.5 s → tint 5
        let atDefault = try TintStage.with(["seed": 3]).process(Frame(image: coffee, timestamp: .milliseconds(2600))).image
        #expect(atDefault == (try TintSequence(seed: 3).tint(number: 1).apply(to: coffee)))  // 2.6 s / 2 s → tint 1
    }

    @Test("the tint's declared ranges are the ones drawn from")
    func tintRanges() throws {
        let fixed = try TintStage.with(["redMinimum": 1.2, "redMaximum": 1.2, "greenMinimum": 0.5, "greenMaximum": 0.5,
                                        "blueMinimum": 1, "blueMaximum": 1])
        let pixel = try Image(width: 1, height: 1, format: .rgb8, bytes: [100, 100, 100])
        #expect(try fixed.process(Frame(image: pixel)).image.bytes == [120, 50, 100])
    }

    @Test("errors name the stage, the parameter and what is allowed")
    func errors() {
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"glitter"}]}"#)) }
            == "unknown stage 'glitter'; the nearest names are \(StageRegistry.standard.nearestNames(to: "glitter", count: 3).map { "'\($0)'" }.joined(separator: ", ")) (\(StageRegistry.standard.stages.count) stages in all)")
        // A slip of the keyboard is named first.
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"whiteBalanse"}]}"#)) }.hasPrefix("unknown stage 'whiteBalanse'; the nearest names are 'whiteBalance', "))
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"SepiaTone"}]}"#)) }.hasPrefix("unknown stage 'SepiaTone'; the nearest names are 'sepiaTone', 'sepia', "))
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"tint","colour":"red"}]}"#)) }
            == "stage 'tint', parameter 'colour': no such parameter; its parameters are seed, interval, redMinimum, redMaximum, greenMinimum, greenMaximum, blueMinimum, blueMaximum")
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"gray","amount":1}]}"#)) }
            == "stage 'gray', parameter 'amount': no such parameter; it has no parameters")
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"whiteBalance","saturationThreshold":1.5}]}"#)) }
            == "stage 'whiteBalance', parameter 'saturationThreshold': must be a number from 0 to 1, got 1.5")
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"tint","seed":"seven"}]}"#)) }
            == #"stage 'tint', parameter 'seed': must be a whole number from 0 to 4294967295, got "seven""#)
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"tint","seed":1.5}]}"#)) }
            == "stage 'tint', parameter 'seed': must be a whole number from 0 to 4294967295, got 1.5")
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"whiteBalance","keepBrightness":1}]}"#)) }
            == "stage 'whiteBalance', parameter 'keepBrightness': must be true or false, got 1")
        #expect(error { _ = try Pipeline(Recipe(json: #"{"stages":[{"stage":"tint","redMinimum":2}]}"#)) }
            == "stage 'tint', parameter 'redMinimum': must not exceed redMaximum (1.5), got 2")
        #expect(error { _ = try Recipe(json: #"{"stages":[{"seed":1}]}"#) }.contains("not a recipe: stages[0] has no 'stage'"))
        #expect(error { _ = try Recipe(json: #"{"stages":{"stage":"gray"}}"#) }.contains("not a recipe: stages should be a list of stages"))
        #expect(error { _ = try Recipe(json: "[1, 2]") }.contains("not a recipe: not a JSON object"))
        #expect(error { _ = try Recipe(json: "{nope") }.contains("not a recipe: not valid JSON"))
        #expect(error { _ = try Recipe(json: "{}") }.contains("not a recipe: no 'stages'"))
        #expect(error { _ = try Recipe(json: #"{"stages":[{"stage":"blur","stage":"gray"}]}"#) }
            .contains("not a recipe: it names 'stage' twice in one object; each key may appear once"))
        #expect(error { _ = try Recipe(json: #"{"stage":[]}"#) }.contains("not a recipe: 'stage' is no part of a recipe; it has only 'stages'"))
        let long = "{\"stages\":[" + Array(repeating: #"{"stage":"gray"}"#, count: 65).joined(separator: ",") + "]}"
        #expect(error { _ = try Recipe(json: long) }.contains("not a recipe: stages: 65 stages, more than the 64 a recipe may have"))
        #expect(error { _ = try Pipeline(Recipe(stages: Array(repeating: .init("gray"), count: 65))) }
            == "a recipe has at most 64 stages, this one 65")
    }

    @Test("a recipe file that is missing, a folder or too large is refused by name")
    func recipeFiles() throws {
        let folder = try TemporaryFolder()
        #expect(error { _ = try Recipe(contentsOfFile: folder.file("none.json")) } == "cannot read '\(folder.file("none.json"))': no such file")
        #expect(error { _ = try Recipe(contentsOfFile: folder.path) }.contains("a directory"))
        try Data(repeating: 0x20, count: Recipe.largestFileBytes + 1).write(to: URL(fileURLWithPath: folder.file("big.json")))
        #expect(error { _ = try Recipe(contentsOfFile: folder.file("big.json")) }.contains("is not a recipe: it holds 1048577 bytes"))
        try Data(#"{"stages":[{"stage":"gray"}]}"#.utf8).write(to: URL(fileURLWithPath: folder.file("gray.json")))
        #expect(try Recipe(contentsOfFile: folder.file("gray.json")).stages == [.init("gray")])
    }

    @Test("every declared default is allowed by its own declaration, and names are unique")
    func declarationsAreConsistent() throws {
        let registry = StageRegistry.standard
        #expect(Set(registry.names).count == registry.names.count)
        for stage in registry.stages {
            #expect(Set(stage.parameters.map(\.name)).count == stage.parameters.count, "\(stage.name)")
            for parameter in stage.parameters {
                #expect(try parameter.validate(parameter.defaultValue, stage: stage.name) == parameter.defaultValue, "\(stage.name).\(parameter.name)")
            }
            _ = try stage.withDefaults()
        }
    }

    @Test("descriptors are published as JSON with kind, range, step and default")
    func descriptorJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let seed = try #require(TintStage.parameters.first)
        #expect(String(decoding: try encoder.encode(seed), as: UTF8.self)
            == #"{"default":0,"help":"Picks the sequence of tints; the same seed gives the same tints.","integer":true,"kind":"number","maximum":4294967295,"minimum":0,"name":"seed","step":1,"title":"Seed"}"#)
        let choice = ParameterDescriptor.choice("mode", title: "Mode", options: [.init("screen", title: "Screen")], default: "screen", help: "h")
        #expect(String(decoding: try encoder.encode(choice), as: UTF8.self)
            == #"{"default":"screen","help":"h","kind":"choice","name":"mode","options":[{"title":"Screen","value":"screen"}],"title":"Mode"}"#)
    }

    @Test("choice, colour, point and image values are checked against their kinds")
    func otherKinds() throws {
        let mode = ParameterDescriptor.choice("mode", title: "Mode", options: [.init("screen", title: "Screen"), .init("hud", title: "HUD")],
                                              default: "screen", help: "")
        #expect(try mode.validate("hud", stage: "blend") == "hud")
        #expect(error { _ = try mode.validate("glow", stage: "blend") } == #"stage 'blend', parameter 'mode': must be one of 'screen', 'hud', got "glow""#)
        let colour = ParameterDescriptor.colour("ink", title: "Ink", default: "#ffcc00", help: "")
        #expect(try colour.validate("#FFCC00", stage: "s") == "#ffcc00")
        #expect(throws: StageError.self) { try colour.validate("yellow", stage: "s") }
        // Only ASCII hex digits: a sign or fullwidth digits would pass a looser check and then not
        // read back as a Colour.
        for text in ["#+fffff", "#ＦＦ0000", "#ffcc0g", "ffcc00", "#ffcc00 "] {
            #expect(throws: StageError.self, "\(text)") { try colour.validate(.text(text), stage: "s") }
            #expect(Colour(hex: text) == nil, "\(text)")
        }
        #expect(Colour(hex: "#FFcc00") == Colour(red: 255, green: 204, blue: 0))
        let point = ParameterDescriptor.point("focus", title: "Focus", default: (0.5, 0.5), help: "")
        #expect(try point.validate(.point(x: 0.25, y: 1), stage: "s") == .point(x: 0.25, y: 1))
        #expect(throws: StageError.self) { try point.validate(.point(x: 1.5, y: 0), stage: "s") }
        let picture = ParameterDescriptor.image("source", title: "Source", help: "")
        #expect(try picture.validate(.none, stage: "s") == .none)
        #expect(try picture.validate("a1b2", stage: "s") == "a1b2")
        #expect(throws: StageError.self) { try picture.validate(3, stage: "s") }
        // Point values round-trip through JSON as [x, y].
        let step = try Recipe(json: #"{"stages":[{"stage":"x","focus":[0.25,0.75],"source":null}]}"#).stages[0]
        #expect(step.values == ["focus": .point(x: 0.25, y: 0.75), "source": ParameterValue.none])
    }

    @Test("annotations added by a stage are read back by kind")
    func annotations() throws {
        struct Box: FrameAnnotation, Equatable { static let kind = "box"; static let group = "boxes"; var x: Int }
        struct Label: FrameAnnotation {
            static let kind = "label"; static let group = "labels"; var text: String
            var markColour: Colour? { Colour(red: 255, green: 0, blue: 16) }
        }
        let frame = Frame(image: coffee, timestamp: .seconds(1), annotations: [Box(x: 1), Label(text: "a"), Box(x: 2)])
        #expect(frame.annotations(of: Box.self) == [Box(x: 1), Box(x: 2)])
        #expect(frame.annotations(of: Label.self).map(\.text) == ["a"])
        // Stages carry annotations through.
        let processed = try Pipeline(Recipe(stages: [.init("gray"), .init("tint")])).process(frame)
        #expect(processed.annotations(of: Box.self).count == 2 && processed.timestamp == .seconds(1))
        // Grouped as JSON shows them; a kind listed but not found is an empty list, unknown kinds pass
        // through; a finding its stage marks in a colour carries it.
        struct Mark: FrameAnnotation { static let kind = "mark"; static let group = "marks" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(processed.annotationGroups(listing: [Mark.self, Box.self])), as: UTF8.self)
            == ##"{"boxes":[{"x":1},{"x":2}],"labels":[{"colour":"#ff0010","text":"a"}],"marks":[]}"##)
        #expect(processed.annotationGroups()["boxes"].count == 2 && processed.annotationGroups()["marks"].isEmpty)
    }
}

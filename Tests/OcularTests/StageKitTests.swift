import Foundation
import Testing
@testable import Ocular

/// A stage written as a user outside the library would write one: typed keys, any error type.
private struct Stamp: Stage {
    enum Shape: String, ParameterChoice {
        case square, dot
        var title: String { rawValue.capitalized }
    }

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the stamp refuses frames narrower than 2 pixels" }
    }

    static let name = "stamp"
    static let title = "Stamp"
    static let category = StageCategory.stylize
    static let summary = "Stamps a mark at a point."

    static let size = Key<Int>.integer("size", title: "Size", in: 1...9, default: 3, help: "Side in pixels.")
    static let ink = Key<Colour>.colour("ink", title: "Ink", default: Colour(red: 255, green: 204, blue: 0), help: "The mark's colour.")
    static let at = Key<Point>.point("at", title: "At", default: Point(x: 0.5, y: 0.5), help: "Where, 0 to 1.")
    static let shape = Key<Shape>.choice("shape", title: "Shape", default: .square, help: "The mark's shape.")
    static let strength = Key<Double>.number("strength", title: "Strength", in: 0...1, step: 0.1, default: 1, help: "How much shows.")
    static let parameters = declared(size, ink, at, shape, strength)

    let size: Int, ink: Colour, at: Point, shape: Shape, strength: Double

    init(_ values: StageValues) {
        (size, ink, at, shape, strength) = (values[Self.size], values[Self.ink], values[Self.at], values[Self.shape], values[Self.strength])
    }

    func process(_ frame: Frame) throws -> Frame {
        guard frame.image.width >= 2 else { throw Refusal() }
        return frame
    }
}

/// Reads a key it never listed: a mistake in the stage, caught the first time it is built.
private struct Forgetful: Stage {
    static let name = "forgetful"
    static let title = "Forgetful"
    static let category = StageCategory.stylize
    static let summary = "Reads a parameter it does not declare."
    static let listed = Key<Double>.number("listed", title: "Listed", in: 0...1, step: 0.1, default: 0.5, help: "")
    static let unlisted = Key<Double>.number("unlisted", title: "Unlisted", in: 0...1, step: 0.1, default: 0.5, help: "")
    static let parameters = declared(listed)

    init(_ values: StageValues) { _ = values[Self.unlisted] }
    func process(_ frame: Frame) throws -> Frame { frame }
}

@Suite("The stage kit: typed parameter keys")
struct StageKitTests {
    let registry = StageRegistry([Stamp.self, Forgetful.self])

    @Test("a stage reads its keys as Swift values, defaults from the declarations, recipe values as given")
    func typedReads() throws {
        let defaults = try Stamp.withDefaults()
        #expect(defaults.size == 3 && defaults.ink == Colour(red: 255, green: 204, blue: 0) && defaults.at == Point(x: 0.5, y: 0.5))
        #expect(defaults.shape == .square && defaults.strength == 1)
        let recipe = try Recipe(json: ##"{"stages":[{"stage":"stamp","size":7,"ink":"#00FF80","at":[0.25,1],"shape":"dot","strength":0.3}]}"##)
        let stamp = try #require(try Pipeline(recipe, registry: registry).steps.first?.stage as? Stamp)
        #expect(stamp.size == 7 && stamp.ink == Colour(red: 0, green: 255, blue: 128) && stamp.at == Point(x: 0.25, y: 1))
        #expect(stamp.shape == .dot && stamp.strength == 0.3)
        // Built in code by typed settings: the same stage and the same recipe step.
        let typed = try Stamp.with(Stamp.size(7), Stamp.shape(.dot), Stamp.ink(Colour(red: 0, green: 255, blue: 128)))
        #expect(typed.size == 7 && typed.shape == .dot && typed.ink.hex == "#00ff80" && typed.strength == 1)
        #expect(Stamp.step(Stamp.size(7), Stamp.shape(.dot)) == Recipe.Step("stamp", ["size": 7, "shape": "dot"]))
    }

    @Test("a choice's declaration is built from its enum: options in case order with their titles")
    func choiceFromEnum() {
        #expect(Stamp.shape.descriptor.kind == .choice([.init("square", title: "Square"), .init("dot", title: "Dot")]))
        #expect(Stamp.shape.descriptor.defaultValue == "square")
        #expect(FacesStage.profile.descriptor.kind == .choice(FaceDetectionProfile.Name.allCases.map { .init($0.rawValue, title: $0.title) }))
        #expect(BlendStage.mode.descriptor.kind == .choice(BlendMode.allCases.map { .init($0.rawValue, title: $0.title) }))
    }

    @Test("values the declarations refuse never reach the stage")
    func refusedValues() {
        let refused: [(String, String)] = [
            (#"{"stages":[{"stage":"stamp","size":10}]}"#, "parameter 'size': must be a whole number from 1 to 9, got 10"),
            (##"{"stages":[{"stage":"stamp","ink":"#ffcc0"}]}"##, ##"parameter 'ink': must be a colour "#rrggbb", got "#ffcc0""##),
            (#"{"stages":[{"stage":"stamp","shape":"star"}]}"#, #"parameter 'shape': must be one of 'square', 'dot', got "star""#),
            (#"{"stages":[{"stage":"stamp","at":[2,0]}]}"#, "parameter 'at': must be a point [x, y] with x and y from 0 to 1, got [2.0, 0.0]"),
        ]
        for (json, message) in refused {
            do {
                _ = try Pipeline(Recipe(json: json), registry: registry)
                Issue.record("\(json) was accepted")
            } catch {
                #expect("\(error)" == "stage 'stamp', \(message)")
            }
        }
    }

    @Test("a stage's own error type passes through a pipeline as thrown")
    func openErrors() throws {
        let pipeline = try Pipeline(Recipe(stages: [Stamp.step()]), registry: registry)
        let narrow = try Image(width: 1, height: 4, format: .gray8, bytes: [0, 0, 0, 0])
        #expect(throws: Stamp.Refusal.self) { try pipeline.process(narrow) }
    }

    @Test("reading a key the stage did not list stops the program with the key's name, not a made-up value")
    func undeclaredKeyFailsLoudly() async {
        await #expect(processExitsWith: .failure) {
            _ = try? Forgetful.withDefaults()
        }
    }

    @Test("reading another stage's key stops the program too")
    func foreignKeyFailsLoudly() async {
        await #expect(processExitsWith: .failure) {
            let values = try? StageValues(stage: TintStage.name, declarations: TintStage.parameters, given: [:])
            _ = values?[WhiteBalanceStage.saturationThreshold]
        }
    }
}

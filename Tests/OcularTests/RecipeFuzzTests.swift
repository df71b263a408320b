import Foundation
import OcularTestSupport
import Testing
@testable import Ocular

/// A deterministic fuzz test of the recipe parser and the stage checks: thousands of damaged recipes,
/// each of which must either be refused with a short, one-line ``StageError`` or give a pipeline whose
/// every value its declaration allows, that writes and reads back as the same recipe, and that
/// processes a frame.
@Suite("Damaged recipes", .timeLimit(.minutes(2)))
struct RecipeFuzzTests {
    static let seeds = [
        #"{"stages":[{"stage":"whiteBalance"},{"stage":"tint","seed":7}]}"#,
        #"{"stages":[{"stage":"gray"},{"stage":"tint","seed":4294967295,"interval":0.1,"redMinimum":0,"redMaximum":4}]}"#,
        #"{"stages":[{"stage":"whiteBalance","saturationThreshold":0.25,"keepBrightness":false},{"stage":"gray"}]}"#,
        #"{"stages":[{"stage":"tint","greenMinimum":1.2,"greenMaximum":1.2,"blueMinimum":0.05,"blueMaximum":3.95}]}"#,
        #"{"stages":[]}"#,
        #"{"stages":[{"stage":"tint","seed":12,"interval":60},{"stage":"whiteBalance","saturationThreshold":1},{"stage":"gray"}]}"#,
    ] + StageRegistry.standard.names.map { #"{"stages":[{"stage":"\#($0)"}]}"# }  // every stage, so a new one is fuzzed too

    /// What a mutation may write: JSON's structure, numbers at their edges, names that exist and names that do not.
    static let fragments = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "null", "true", "false", "-", ".", "e", "E", "+", "0", "1", "9",
        "1e308", "-1e308", "1e-320", "-0", "4294967296", "0.1", "-1", "NaN", "Infinity", "\"\\u0000\"", "\"\\ud800\"",
        "\"gray\"", "\"tint\"", "\"whiteBalance\"", "\"sepia\"", "\"stage\"", "\"stages\"", "\"seed\"", "\"interval\"",
        "\"redMinimum\"", "\"keepBrightness\"", "[0.5,0.5]", "[]", "{}", String(repeating: "x", count: 5000),
        String(repeating: "[", count: 300), "\u{00E9}", "\u{1F437}",
    ]

    static func mutate(_ text: String, using generator: inout SeededGenerator) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:  // replace one character with a fragment
                if !characters.isEmpty { characters.remove(at: position) }
                characters.insert(contentsOf: fragments.randomElement(using: &generator)!, at: min(position, characters.count))
            case 1:  // insert a fragment
                characters.insert(contentsOf: fragments.randomElement(using: &generator)!, at: position)
            case 2:  // delete a run
                let end = min(characters.count, position + Int.random(in: 1...8, using: &generator))
                characters.removeSubrange(position..<end)
            case 3:  // repeat a run
                let end = min(characters.count, position + Int.random(in: 1...20, using: &generator))
                characters.insert(contentsOf: characters[position..<end], at: end)
            default:  // truncate
                characters.removeSubrange(position..<characters.count)
            }
        }
        return String(characters)
    }

    /// Values at the edges of what the declarations allow, and of the wrong kinds.
    static let values: [ParameterValue] = [
        .number(0), .number(-0.0), .number(1), .number(-1), .number(0.1), .number(0.05), .number(0.9), .number(1.5), .number(4),
        .number(4.000001), .number(60), .number(60.5), .number(4294967295), .number(4294967296), .number(1e300), .number(-1e300),
        .number(1e-300), .number(7.5), .flag(true), .flag(false), .text(""), .text("gray"), .text("#ff00ff"),
        .text(String(repeating: "y", count: 3000)), .point(x: 0.5, y: 0.5), .point(x: 2, y: -1), .none,
    ]

    /// A recipe whose structure holds and whose names and values are changed.
    static func mutateValues(_ recipe: Recipe, using generator: inout SeededGenerator) -> String {
        var recipe = recipe
        // Every declared name, of every stage, and names no stage has.
        let names = StageRegistry.standard.stages.flatMap { $0.parameters.map(\.name) } + ["amount", ""]
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            if recipe.stages.isEmpty || Int.random(in: 0..<8, using: &generator) == 0 {
                let stage = (StageRegistry.standard.names + ["Tint", "glitter"]).randomElement(using: &generator)!
                recipe.stages.insert(.init(stage), at: Int.random(in: 0...recipe.stages.count, using: &generator))
                continue
            }
            let index = Int.random(in: 0..<recipe.stages.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: recipe.stages[index].values.removeAll()
            case 1: recipe.stages.append(recipe.stages[index])
            default: recipe.stages[index].values[names.randomElement(using: &generator)!] = values.randomElement(using: &generator)!
            }
        }
        return recipe.json
    }

    @Test("mutated recipes are refused with a short message, or run as exactly what they say")
    func mutations() throws {
        var generator = SeededGenerator(seed: 12)
        let frame = try Image(width: 8, height: 6, format: .bgr8, bytes: noiseBytes(count: 8 * 6 * 3, seed: 3))
        var checked = 0, refusedAsJSON = 0, refusedByStages = 0, ran = 0
        var failures: [String] = []
        for seed in Self.seeds {
            let parsed = try Recipe(json: seed)
            for round in 0..<Evaluation.rounds(full: 800, sample: 200) {
                let text = round.isMultiple(of: 2) ? Self.mutate(seed, using: &generator) : Self.mutateValues(parsed, using: &generator)
                checked += 1
                let recipe: Recipe
                do {
                    recipe = try Recipe(json: text)
                } catch {
                    refusedAsJSON += 1
                    if let problem = Self.problem(with: error) { failures.append("\(text.prefix(200)): \(problem)") }
                    continue
                }
                if (try? Recipe(json: recipe.json)) != recipe {
                    failures.append("\(text.prefix(200)): written as \(recipe.json.prefix(200)), read back differently")
                }
                let pipeline: Pipeline
                do {
                    pipeline = try Pipeline(recipe)
                } catch {
                    refusedByStages += 1
                    if let problem = Self.problem(with: error) { failures.append("\(text.prefix(200)): \(problem)") }
                    continue
                }
                ran += 1
                for step in pipeline.steps {
                    let type = try StageRegistry.standard.stage(named: step.values.stage)
                    for declaration in type.parameters {
                        let value = step.values.values[declaration.name] ?? .none
                        if !Self.allows(declaration.kind, value) {
                            failures.append("\(text.prefix(200)): \(type.name).\(declaration.name) = \(value) was let through")
                        }
                    }
                }
                do {
                    let seconds = Double(Int.random(in: 0...100_000, using: &generator)) / 10
                    let output = try pipeline.process(frame, at: .seconds(seconds))
                    // Only geometry (crop, affine transform) may change the frame's size.
                    let reshapes = pipeline.steps.contains { type(of: $0.stage).category == .geometry }
                    if !reshapes, output.width != frame.width || output.height != frame.height { failures.append("\(text): size changed") }
                } catch {
                    failures.append("\(text.prefix(200)): a checked pipeline failed on a frame: \(error)")
                }
                if failures.count >= 5 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // The corpus must reach every outcome, or it tests less than it seems.
        // (Measured over 800 rounds a seed: at least 1000 not recipes, 500 refused by the stages, 500 run; a sample keeps the shares.)
        let rounds = Evaluation.rounds(full: 800, sample: 200), scale = Double(rounds) / 800
        #expect(checked == Self.seeds.count * rounds)
        #expect(Double(refusedAsJSON) >= 1000 * scale && Double(refusedByStages) >= 500 * scale && Double(ran) >= 500 * scale,
                "\(refusedAsJSON) not recipes, \(refusedByStages) refused by the stages, \(ran) ran")
        Evaluation.table("Mutated recipes", columns: ["inputs", "not recipes", "refused by the stages", "ran"],
                         rows: [["\(checked)", "\(refusedAsJSON)", "\(refusedByStages)", "\(ran)"]])
    }

    /// The declarations' promise, written out again here rather than asking `validate`, so that a
    /// check that lets too much through is caught.
    static func allows(_ kind: ParameterDescriptor.Kind, _ value: ParameterValue) -> Bool {
        switch (kind, value) {
        case (.number(let minimum, let maximum, _, let integer), .number(let number)):
            return number.isFinite && minimum <= number && number <= maximum && (!integer || number.rounded() == number)
        case (.choice(let options), .text(let text)):
            return options.map(\.value).contains(text)
        case (.flag, .flag):
            return true
        case (.colour, .text(let text)):
            return text.count == 7 && text.first == "#" && text.dropFirst().allSatisfy { "0123456789abcdef".contains($0) }
        case (.point, .point(let x, let y)):
            return (0...1).contains(x) && (0...1).contains(y)
        case (.image, .text(let id)):
            return !id.isEmpty
        case (.trainingList, .text(let name)):
            return !name.isEmpty && !name.contains("\0")
        case (.image, .none), (.trainingList, .none):
            return true
        default:
            return false
        }
    }

    /// What is wrong with a refusal, if anything: it must be a StageError with one short line.
    static func problem(with error: any Error) -> String? {
        guard let error = error as? StageError else { return "not a StageError: \(error)" }
        let message = error.description
        if message.isEmpty || message.contains("\n") || message.count > 400 {
            return "message of \(message.count) characters: \(message.prefix(500))"
        }
        return nil
    }
}

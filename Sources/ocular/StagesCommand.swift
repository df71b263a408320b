import ArgumentParser
import Foundation
import Ocular

struct StagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stages",
        abstract: "List the stages a recipe can use, with their parameters.",
        discussion: "Every parameter shows its kind, what it allows and its default. --json prints the declarations the studio builds its controls from.")

    @Flag(help: "Print the declarations as JSON.")
    var json = false

    func run() throws {
        let stages = StageRegistry.standard.descriptions
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(["stages": stages]), as: UTF8.self))
            return
        }
        for (index, stage) in stages.enumerated() {
            if index > 0 { print() }
            print("\(stage.name) — \(stage.title) (\(stage.category.rawValue))")
            print("  \(stage.summary)")
            if stage.parameters.isEmpty { print("  no parameters") }
            let width = stage.parameters.map(\.name.count).max() ?? 0
            for parameter in stage.parameters {
                let name = parameter.name.padding(toLength: width, withPad: " ", startingAt: 0)
                print("  \(name)  \(parameter.allowed), default \(parameter.defaultValue)")
                print("  \(String(repeating: " ", count: width))  \(parameter.help)")
            }
        }
    }
}

import ArgumentParser
import Foundation
import Ocular

struct StagesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stages a recipe can use, with their parameters.",
        discussion: """
            Every parameter shows its kind, what it allows and its default. --json prints the declarations the \
            studio builds its controls from. --category keeps one category: \
            \(StageCategory.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @Flag(help: "Print the declarations as JSON.")
    var json = false

    @Option(help: "Only the stages of this category (colourAdjustment, blur, geometry, …).")
    var category: String?

    func run() throws {
        try Self.show(StageRegistry.standard.descriptions, category: category, json: json)
    }

    /// Prints `stages` (one category's when `category` names one) as text or JSON.
    static func show(_ stages: [StageDescription], category: String?, json: Bool) throws {
        var stages = stages
        if let category {
            let wanted = try StageCategory.named(category)
            stages = stages.filter { $0.category == wanted }
        }
        if json {
            try JSONOutput.print(["stages": stages])
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

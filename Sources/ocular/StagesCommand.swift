import ArgumentParser
import Foundation
import Ocular

struct StagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stages",
        abstract: "List the stages a recipe can use, with their parameters, or describe one.",
        subcommands: [StagesListCommand.self, StagesDescribeCommand.self],
        defaultSubcommand: StagesListCommand.self)
}

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

struct StagesDescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Print one stage's declaration as JSON: name, title, category, summary and every parameter with its range and default.")

    @Argument(help: "The stage's name, as recipes spell it (sepiaTone).")
    var name: String

    func run() throws {
        let stage = try StageRegistry.standard.stage(named: name)
        try JSONOutput.print(stage.stageDescription)
    }

}

/// The product's spelling: `ocular filters` lists the Core Image–style filters alone, as `ocular stages` lists
/// every stage.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the Core Image–style filters, or describe one (the filters among `ocular stages`).",
        subcommands: [FiltersListCommand.self, FiltersDescribeCommand.self],
        defaultSubcommand: FiltersListCommand.self)
}

struct FiltersListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the Core Image–style filters with their parameters: kind, range, default.")

    @Flag(help: "Print the declarations as JSON.")
    var json = false

    @Option(help: "Only the filters of this category (colourAdjustment, colourEffect, blur, geometry, composite, generator).")
    var category: String?

    func run() throws {
        try StagesListCommand.show(StageRegistry.standard.descriptions.filter(\.filter), category: category, json: json)
    }
}

struct FiltersDescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Print one filter's declaration as JSON: name, title, category, summary and every input with its range and default.")

    @Argument(help: "The filter's name, as recipes spell it (sepiaTone).")
    var name: String

    func run() throws {
        let stage = try StageRegistry.standard.stage(named: name)
        guard stage.stageDescription.filter else {
            throw StageError(reason: "'\(name)' is a stage but not one of the filters; `ocular stages describe \(name)` describes it")
        }
        try JSONOutput.print(stage.stageDescription)
    }
}

extension StageCategory {
    /// The category a user named, in either spelling of colour and any case.
    static func named(_ text: String) throws(StageError) -> StageCategory {
        let wanted = text.lowercased().replacingOccurrences(of: "color", with: "colour")
        guard let category = allCases.first(where: { $0.rawValue.lowercased() == wanted }) else {
            throw StageError(reason: "no category '\(text)'; the categories are \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return category
    }
}

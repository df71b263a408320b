import ArgumentParser
import Foundation
import Ocular

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

import ArgumentParser
import Foundation
import Ocular

/// The product's spelling: `ocular filters` lists the Core Image–style filters alone, as `ocular stages` lists
/// every stage.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the Core Image–style filters, or describe one (the filters among `ocular stages`).",
        subcommands: [FiltersListCommand.self, FiltersDescribeCommand.self],
        defaultSubcommand: FiltersListCommand.self)
}

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

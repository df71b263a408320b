import ArgumentParser
import Foundation
import Ocular

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

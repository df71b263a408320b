import ArgumentParser
import Foundation
import Ocular

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

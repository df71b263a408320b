import ArgumentParser
import Foundation
import Ocular

struct ZoomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zoom",
        abstract: "Plan a camera's digital zoom (how far it stays lossless, what to capture) and prove it by measurement.",
        subcommands: [ZoomPlanCommand.self, ZoomProveCommand.self])
}

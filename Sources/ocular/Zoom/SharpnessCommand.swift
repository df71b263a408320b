import ArgumentParser
import Foundation
import Ocular

struct SharpnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharpness",
        abstract: "Measure a picture's sharpness (MTF50, MTF10) on a slanted edge by ISO 12233, or check the meter.",
        subcommands: [SharpnessMeasureCommand.self, SharpnessCheckCommand.self, SharpnessChartCommand.self],
        defaultSubcommand: SharpnessMeasureCommand.self)
}

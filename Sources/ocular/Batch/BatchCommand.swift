import ArgumentParser
import Foundation
import Ocular

/// `ocular batch`: the group of its two commands, `run` (the default) and `merge`, a file each.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run a recipe over many files, on every core, resumable and shardable; or merge shards' results.",
        subcommands: [BatchRunCommand.self, BatchMergeCommand.self],
        defaultSubcommand: BatchRunCommand.self)
}

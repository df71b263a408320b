import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct BlobsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blobs",
        abstract: "Find coins, beans and other objects on a plain background, and name them.",
        discussion: """
            A training list names pictures of known objects: JSON or the textbook's property list, with \
            "labelDescriptions" (index 0 is "unidentified") and "blobs": [{"imageFilename", "label"}]. The trained \
            model is a cache, kept in ~/.cache/ocular ($XDG_CACHE_HOME/ocular) under a checksum of the list, or in the \
            file --model names, and retrained when the list or a picture changes.
            """,
        subcommands: [BlobsDetectCommand.self, BlobsClassifyCommand.self, BlobsCountCommand.self, BlobsTrainCommand.self, BlobsEvaluateCommand.self,
                      BlobsScenesCommand.self])
}

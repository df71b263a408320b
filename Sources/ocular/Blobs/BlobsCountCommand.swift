import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct BlobsCountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Name every object of a picture and print the tally: how many of each, and the money.",
        discussion: """
            Prints one line such as "3 pinto beans, 2 romano beans, 1 loonie: $1.50" (the money when the training \
            list gives labels a "value" and a "currency"), then the count of each label; or with --json \
            {"tally": {"lines": [{"label", "description", "count", "value", "currency"}], "totals": {"CAD": 1.5}, \
            "text", "count"}, "blobs": [...]}.
            """)

    @Argument(help: "The picture: objects on a table.")
    var input: String

    @Option(help: ArgumentHelp("Write the picture with each object boxed and named.", valueName: "out.png"))
    var draw: String?

    @Flag(help: "Print the tally and the blobs as JSON.")
    var json = false

    @OptionGroup var classifierOptions: ClassifierOptions

    @OptionGroup var read: ReadOptions

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let (classifier, _) = try classifierOptions.classifier()
        let blobs = try BlobDetector(profile: classifier.profile).named(in: image, by: classifier)
        let tally = BlobTally(blobs: blobs, classifier: classifier)
        if let draw { try BlobsStage.drawn(blobs, on: image).write(toFile: draw) }
        if json {
            struct Report: Encodable { var tally: BlobTally; var blobs: [Blob] }
            try JSONOutput.print(Report(tally: tally, blobs: blobs))
            return
        }
        print(tally.text)
        for line in tally.lines {
            let worth = line.value.map { " at \(BlobTally.money($0, currency: line.currency ?? ""))" } ?? ""
            print("  \(line.count) × \(line.description) (label \(line.label))\(worth)")
        }
        if let draw { print("\(draw): \(blobs.count) object\(blobs.count == 1 ? "" : "s") boxed and named") }
    }
}

import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct BlobsClassifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Name the biggest blob of a picture (or every blob with --all).",
        discussion: """
            Prints the label, its description and the distance to the nearest training picture, or with --json \
            {"blobs":[{"bounds":[x,y,w,h],"label":N,"description":"…","distance":D}]}. Label 0 is "unidentified": \
            no training picture was within the threshold.
            """)

    @Argument(help: "The picture: objects on a plain background.")
    var input: String

    @Flag(help: "Classify every blob, not only the biggest.")
    var all = false

    @Flag(help: "Print the blobs as JSON.")
    var json = false

    @OptionGroup var classifierOptions: ClassifierOptions

    @OptionGroup var read: ReadOptions

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let (classifier, _) = try classifierOptions.classifier()
        let found = try BlobDetector(profile: classifier.profile).detect(in: image).blobs
        let chosen = all ? found : Blob.biggest(of: found).map { [$0] } ?? []
        guard all || !chosen.isEmpty else { throw BlobError.noBlob(in: "'\(input)'") }
        let blobs = try classifier.classified(chosen)
        if json {
            try JSONOutput.print(["blobs": blobs])
            return
        }
        if blobs.isEmpty { print("\(input): no blob") }
        for blob in blobs {
            let answer = blob.classification
            let distance = answer?.roundedDistance.map { "distance \(ParameterValue.number($0))" } ?? "no training pictures"
            print("\(answer?.description ?? "unidentified") (label \(blob.label)) at \(blob.bounds), \(distance)")
        }
    }
}

import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct BlobsDetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "List the blobs of a picture, and draw them or their mask.",
        discussion: #"Prints one line per blob, biggest first, or with --json: {"blobs":[{"bounds":[x,y,w,h],"label":0}]}."#)

    @Argument(help: "The picture: objects on a plain background.")
    var input: String

    @Option(help: ArgumentHelp("Write the picture with green rectangles round the blobs.", valueName: "out.png"))
    var draw: String?

    @Option(help: ArgumentHelp("Write the background mask (white) at the picture's size.", valueName: "out.png"))
    var mask: String?

    @Flag(help: "Print the blobs as JSON.")
    var json = false

    @OptionGroup var read: ReadOptions

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let detection = try BlobDetector().detect(in: image)
        if let draw { try BlobsStage.drawn(detection.blobs, on: image).write(toFile: draw) }
        if let mask { try detection.mask.resized(width: image.width, height: image.height).write(toFile: mask) }
        if json {
            try JSONOutput.print(["blobs": detection.blobs])
            return
        }
        if detection.blobs.isEmpty { print("\(input): no blob") }
        for blob in detection.blobs { print("blob \(blob.bounds)") }
        if let draw { print("\(draw): \(detection.blobs.count) blob\(detection.blobs.count == 1 ? "" : "s") drawn") }
        if let mask { print("\(mask): the mask") }
    }
}

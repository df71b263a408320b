import ArgumentParser
import Foundation
import Ocular

struct FacesMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the biggest face of two pictures into one, a hybrid when they are of different species.",
        discussion: """
            The smaller face is warped so that its eyes and nose land on the bigger one's, then the two are \
            multiplied (a·b/255). The result has the bigger face's size. Human and human give a human, cat \
            and cat a cat, anything else a hybrid; --save puts it in the gallery with that as its caption.
            """)

    @Argument(help: "The picture of the first face.")
    var first: String

    @Argument(help: "The picture of the second face.")
    var second: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the merged face (PNG, JPEG, …).", valueName: "out.png"))
    var output: String?

    @OptionGroup var saving: SaveOptions

    @OptionGroup var detection: FaceDetectionOptions

    @OptionGroup var read: ReadOptions

    func validate() throws {
        try saving.requireDestination(output: output)
    }

    func run() throws {
        let detector = try detection.detector()
        let faces = try [first, second].map { path in
            try detector.biggestFace(in: try Image(contentsOfFile: path, options: read.imageReadOptions), named: "'\(path)'")
        }
        let merged = try faces[0].merged(with: faces[1])
        let size = "\(merged.image.width)×\(merged.image.height)"
        if let output {
            try merged.image.write(toFile: output)
            print("\(output): \(merged.species) face, \(size) (\(faces[0].species) of \(first) × \(faces[1].species) of \(second))")
        } else {
            print("\(merged.species) face, \(size)")
        }
        try saving.saveIfAsked(merged.image, recipe: Recipe(), source: "faces merge", defaultCaption: merged.species.rawValue)
    }
}

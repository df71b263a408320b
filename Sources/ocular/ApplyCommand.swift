import ArgumentParser
import Foundation
import Ocular

struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Run a recipe of stages on an image.",
        discussion: """
            A recipe is JSON naming stages in order with the parameters they set; the others keep their \
            defaults: {"stages":[{"stage":"whiteBalance"},{"stage":"tint","seed":7}]}. Pass it inline or \
            as a file. `ocular stages` lists every stage and its parameters. With --json, what the \
            detection stages found is printed as JSON, one list per kind, every kind the recipe looks \
            for present: {"faces":[…],"blobs":[…],"counts":[…]} (-o is then optional). --explain prints \
            the passes the recipe compiles to: consecutive colour filters fuse into one pass.
            """)

    @Argument(help: "The image to process (optional with --explain alone).")
    var input: String?

    @Option(name: .shortAndLong, help: "Where to write the result; the extension picks the format.")
    var output: String?

    @OptionGroup var save: SaveOptions

    @Option(help: "The recipe: JSON text, or a file holding it.")
    var recipe: RecipeArgument

    @Flag(help: "Print what the detection stages found (faces, blobs, counts) as JSON on standard output.")
    var json = false

    @Option(help: "The frame's time in seconds, for animated stages (the tint shows the tint of that moment).")
    var time: Double = 0

    @Option(help: "JPEG quality of a .jpg output, 1 to 100.")
    var quality = 95

    @Flag(help: "Print the passes the recipe compiles to (which stages fuse into one pass over the pixels).")
    var explain = false

    @OptionGroup var read: ReadOptions

    func validate() throws {
        if explain, input == nil, output == nil, !json { return }
        guard input != nil else { throw ValidationError("give the image to process (only --explain alone needs none)") }
        guard time.isFinite, (0...86_400 * 365).contains(time) else {
            throw ValidationError("--time must be a number of seconds from 0 to a year, got \(time)")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be from 1 to 100, got \(quality)") }
        if !json { try save.requireDestination(output: output) }
    }

    func run() throws {
        let pipeline = try Pipeline(recipe.recipe(), images: ImageFiles(options: read.imageReadOptions))
        if explain {
            // On standard error when the image is processed too, so that --json's output stays JSON alone.
            let lines = pipeline.explanation.isEmpty ? ["no stages: the image passes unchanged"] : pipeline.explanation
            for line in lines {
                if json { FileHandle.standardError.write(Data((line + "\n").utf8)) } else { print(line) }
            }
        }
        guard let input else { return }
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let processed = try pipeline.process(Frame(image: image, timestamp: .seconds(time)))
        let result = processed.image
        let described = "\(result.width) × \(result.height) \(result.format), \(pipeline.stageSummary)"
        if let output {
            try result.write(toFile: output, quality: quality)
            // With --json, standard output holds the JSON alone.
            if !json { print("\(output): \(described)") }
        }
        try save.saveIfAsked(result, recipe: pipeline.recipe, source: "ocular apply \(input)")
        if json {
            try JSONOutput.print(processed.annotationGroups(listing: pipeline.annotationKinds))
        }
    }
}

extension Pipeline {
    /// The stages for a command's summary line: "whiteBalance → tint", or "no stages".
    var stageSummary: String {
        let names = steps.map(\.values.stage)
        return names.isEmpty ? "no stages" : names.joined(separator: " → ")
    }
}

import ArgumentParser
import Ocular

struct BlendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blend",
        abstract: "Blend a picture into an image.",
        discussion: """
            The picture is cropped to the image's shape around its centre, resized with Lanczos \
            interpolation and blended in by the mode: \(BlendMode.allCases.map(\.rawValue).joined(separator: ", ")). \
            HUD screens the picture's yellow-green edges; the others are the W3C Compositing modes \
            (the image is the backdrop). The same as `ocular apply` with the recipe \
            {"stages":[{"stage":"blend","source":"SOURCE","mode":"MODE","opacity":X}]}.
            """)

    @Argument(help: "The image (the frame, the backdrop).")
    var frame: String

    @Argument(help: "The picture blended into it.")
    var source: String

    @Option(help: ArgumentHelp("How they combine; see above (default: \(BlendStage.mode.defaultValue.rawValue))."), transform: BlendMode.parsed)
    var mode = BlendStage.mode.defaultValue

    @Option(help: BlendStage.opacity.optionHelp)
    var opacity = BlendStage.opacity.defaultValue

    @Flag(help: "Blend in gray: the image's luma, the picture converted to gray.")
    var gray = false

    @Option(name: .shortAndLong, help: "Where to write the result; the extension picks the format.")
    var output: String?

    @OptionGroup var save: SaveOptions

    @Option(help: "JPEG quality of a .jpg output, 1 to 100.")
    var quality = 95

    @OptionGroup var read: ReadOptions

    func validate() throws {
        try BlendStage.opacity.check(opacity, option: "opacity")
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be from 1 to 100, got \(quality)") }
        try save.requireDestination(output: output)
    }

    /// The recipe this command runs, with the picture named by its path.
    func recipe() throws -> Recipe {
        let blend = BlendStage.step(source: source, mode: mode, opacity: opacity)
        return Recipe(stages: gray ? [Recipe.Step(GrayStage.name, [:]), blend] : [blend])
    }

    func run() throws {
        let pipeline = try Pipeline(recipe(), images: ImageFiles(options: read.imageReadOptions))
        let image = try Image(contentsOfFile: frame, options: read.imageReadOptions)
        let result = try pipeline.process(image)
        if let output {
            try result.write(toFile: output, quality: quality)
            print("\(output): \(result.width) × \(result.height) \(result.format), \(source) blended in by \(mode.rawValue) at opacity \(ParameterValue.number(opacity))")
        }
        try save.saveIfAsked(result, recipe: pipeline.recipe, source: "ocular blend \(frame) \(source)")
    }
}

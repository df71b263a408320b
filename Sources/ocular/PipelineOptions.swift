import ArgumentParser
import Foundation
import Ocular

/// What commands over whole videos run on each frame: a recipe, or a blend (the common case,
/// spelled out), in colour or in gray.
struct PipelineOptions: ParsableArguments {
    @Option(help: "The recipe run on every frame: JSON text, or a file holding it. `ocular stages` lists the stages.")
    var recipe: RecipeArgument?

    @Option(help: "A picture blended into every frame (instead of --recipe).")
    var blend: String?

    @Option(help: ArgumentHelp("How the --blend picture combines: \(BlendMode.allCases.map(\.rawValue).joined(separator: ", ")) "
                               + "(default: \(BlendStage.mode.defaultValue.rawValue))."),
            transform: BlendMode.parsed)
    var mode = BlendStage.mode.defaultValue

    @Option(help: BlendStage.opacity.optionHelp)
    var opacity = BlendStage.opacity.defaultValue

    @Flag(help: "Gray frames, from the source's luma.")
    var gray = false

    func validate() throws {
        guard (recipe == nil) != (blend == nil) else {
            throw ValidationError("give either --recipe R or --blend PICTURE (with --mode), not \(recipe == nil ? "neither" : "both")")
        }
        if blend != nil { try BlendStage.opacity.check(opacity, option: "opacity") }
    }

    var frameColour: FrameColour { gray ? .gray : .colour }

    /// The pipeline, its pictures read from files.
    func pipeline(read: ReadOptions) throws -> Pipeline {
        let recipe = try self.recipe?.recipe() ?? Recipe(stages: [BlendStage.step(source: blend ?? "", mode: mode, opacity: opacity)])
        return try Pipeline(recipe, images: ImageFiles(options: read.imageReadOptions))
    }
}

/// The video containers the commands write, by extension: .mp4 (H.264 where FFmpeg has it, else
/// MPEG-4 Part 2) and .avi (Motion-JPEG).
enum VideoOutput {
    static func isVideo(_ path: String) -> Bool {
        ["mp4", "avi"].contains((path as NSString).pathExtension.lowercased())
    }

    /// - Throws: `ValidationError` when `path` names neither.
    static func check(_ path: String) throws {
        guard isVideo(path) else { throw ValidationError("-o must name an .mp4 or .avi file, got '\(path)'") }
    }
}

import ArgumentParser
import Foundation
import Ocular
import OcularGallery

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record processed frames from a camera or a video into the gallery.",
        discussion: """
            Each recording becomes the next numbered video of the gallery's videos folder (0.mp4, 1.mp4, …); \
            no file is ever replaced. It is registered in the gallery with the recipe its frames went through. \
            A video shorter than --seconds ends the recording early.
            """)

    @Option(help: "The camera's index (0 is /dev/video0).")
    var camera: Int?

    @Option(help: "A video file to record from instead of a camera.")
    var video: String?

    @Option(help: "How long to record, in seconds of the source's time.")
    var seconds: Double

    @Option(help: "The recipe run on every frame: JSON text, or a file holding it. None records the frames as they are.")
    var recipe: RecipeArgument?

    @Flag(help: "Gray frames, from the source's luma.")
    var gray = false

    @Option(help: "The recording's caption in the gallery.")
    var caption = ""

    @OptionGroup var gallery: GalleryOptions

    @OptionGroup var read: ReadOptions

    func validate() throws {
        guard (camera == nil) != (video == nil) else {
            throw ValidationError("give either --camera N or --video FILE, not \(camera == nil ? "neither" : "both")")
        }
        if let camera, camera < 0 { throw ValidationError("--camera must be 0 or more, got \(camera)") }
        guard seconds.isFinite, seconds > 0, seconds <= 24 * 3600 else {
            throw ValidationError("--seconds must be above 0 and at most a day, got \(seconds)")
        }
    }

    func run() throws {
        PartialFiles.removeOnTermination()
        let pipeline = try Pipeline(recipe?.recipe() ?? Recipe(), images: ImageFiles(options: read.imageReadOptions))
        let colour: FrameColour = gray ? .gray : .colour
        let source: any FrameSource = if let video { try VideoFileSource(path: video, colour: colour) } else { try CameraSource(index: camera ?? 0, colour: colour) }
        let gallery = try gallery.open()
        let frameLimit = max(1, Int((seconds * source.frameRate).rounded()))
        let recording = GalleryRecording(into: gallery, framesPerSecond: source.frameRate,
                                         source: "ocular record \(video ?? "--camera \(camera ?? 0)")", recipe: pipeline.recipe, caption: caption)
        let item = try ProgressDisplay.showing("record", total: min(frameLimit, source.frameCount ?? .max), unit: "frames") { progress in
            try pipeline.run(from: source, into: recording, limit: frameLimit) { _ in progress.advance() }
            return try recording.finish()
        }
        let duration = ParameterValue.number(((item.duration ?? 0) * 100).rounded() / 100)
        print("recorded gallery item \(item.id): \(gallery.path(of: item)) (\(item.width) × \(item.height), \(duration) s)")
    }
}

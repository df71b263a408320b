import ArgumentParser
import Foundation
import Ocular

struct ProcessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Run a recipe, or a blend, over every frame of a video.",
        discussion: """
            Every frame is kept, at the input's frame rate; animated stages follow the video's own clock. \
            The output's extension picks the container: .mp4 (H.264 where the system's FFmpeg has it, else \
            MPEG-4 Part 2) or .avi (Motion-JPEG). The output appears only when every frame is written. \
            A progress bar shows on a terminal, plain lines on standard error otherwise.
            """)

    @Argument(help: "The video to process.")
    var input: String

    @Option(name: .shortAndLong, help: "The video to write: .mp4 or .avi.")
    var output: String

    @OptionGroup var stages: PipelineOptions

    @OptionGroup var read: ReadOptions

    func validate() throws {
        try VideoOutput.check(output)
    }

    func run() throws {
        PartialFiles.removeOnTermination()  // Ctrl-C must not leave a hidden half-written video behind
        let pipeline = try stages.pipeline(read: read)
        let source = try VideoFileSource(path: input, colour: stages.frameColour)
        let sink = VideoFileSink(path: output, framesPerSecond: source.frameRate)
        let frames = try ProgressDisplay.showing("process", total: source.frameCount, unit: "frames") { progress in
            let frames = try pipeline.run(from: source, into: sink) { _ in progress.advance() }
            try sink.finish()
            return frames
        }
        let writer = sink.writer!
        let rate = ParameterValue.number((source.frameRate * 100).rounded() / 100)  // 20.9 rather than 20.903573836817262
        print("\(output): \(frames) frames, \(writer.writtenWidth) × \(writer.writtenHeight) at \(rate) fps (\(writer.codec)), \(pipeline.stageSummary)")
    }
}

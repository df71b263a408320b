import ArgumentParser
import Foundation
import Ocular

struct FacesVideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Draw the faces on every frame of a video.",
        discussion: """
            The faces stage over every frame, following faces from frame to frame, as `ocular process` runs \
            a recipe. The output's extension picks the container: .mp4 or .avi. A progress bar shows on a terminal.
            """)

    @Argument(help: "The video.")
    var input: String

    @Option(name: .shortAndLong, help: "The video to write: .mp4 or .avi.")
    var output: String

    @OptionGroup var detection: FaceDetectionOptions

    func validate() throws {
        try VideoOutput.check(output)
    }

    func run() throws {
        PartialFiles.removeOnTermination()
        let pipeline = try detection.pipeline()
        let source = try VideoFileSource(path: input)
        let sink = FaceCountingSink(VideoFileSink(path: output, framesPerSecond: source.frameRate))
        let frames = try ProgressDisplay.showing("faces", total: source.frameCount, unit: "frames") { progress in
            let frames = try pipeline.run(from: source, into: sink) { _ in progress.advance() }
            try sink.video.finish()
            return frames
        }
        print("\(output): \(frames) frames, faces found in \(sink.framesWithFaces)")
    }
}

/// A video sink that also counts the frames the faces stage found a face in.
final class FaceCountingSink: FrameSink {
    let video: VideoFileSink
    private(set) var framesWithFaces = 0

    init(_ video: VideoFileSink) {
        self.video = video
    }

    func write(_ frame: Frame) throws {
        try video.write(frame)
        if frame.annotations.contains(where: { $0 is Face }) { framesWithFaces += 1 }
    }
}

import ArgumentParser
import Foundation
import Ocular

struct TintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tint",
        abstract: "Tint an image with random colours, as frames or a video (the \"cool pig\" demo).",
        discussion: """
            A gray image becomes RGB; a colour image is first white-balanced (the whiteBalance stage). \
            Each frame (the tint stage) multiplies red, green and blue by factors drawn from \
            \(TintRanges.Channel.allCases.map { "[\(TintRanges.coolPig[$0].lowerBound), \(TintRanges.coolPig[$0].upperBound)]" }
                .joined(separator: ", ")); `ocular apply` sets other ranges. \
            One frame is written to OUT; several go to numbered files (photo-000.png, photo-001.png, ...) \
            or, when OUT ends in .mp4 or .avi, to a video that shows each tint for --interval seconds.
            """)

    @Argument(help: "The image to tint.")
    var input: String

    @Option(name: .shortAndLong, help: "Where to write: an image file, or a .mp4 / .avi video.")
    var output: String

    @Option(help: ArgumentHelp("\(TintStage.seed.descriptor.help) Random when omitted; \(TintStage.seed.descriptor.allowed)."))
    var seed: Int?

    @Option(help: "How many tints to make.")
    var frames = 1

    @Option(help: TintStage.interval.optionHelp)
    var interval = TintStage.interval.defaultValue

    @Option(help: "Frame rate of a video.")
    var fps: Double = 10

    @Flag(help: "Skip the white balance of colour images.")
    var noWhiteBalance = false

    @OptionGroup var read: ReadOptions

    /// Tints, each a file or `interval × fps` video frames: bounded so that every count stays small.
    static let maximumFrames = 100_000

    private var isVideo: Bool { VideoOutput.isVideo(output) }

    func validate() throws {
        if let seed { try TintStage.seed.check(seed, option: "seed") }
        try TintStage.interval.check(interval, option: "interval")
        guard (1...Self.maximumFrames).contains(frames) else {
            throw ValidationError("--frames must be from 1 to \(Self.maximumFrames), got \(frames)")
        }
        guard fps > 0, fps <= 240 else { throw ValidationError("--fps must be between 0 and 240, got \(fps)") }
    }

    func run() throws {
        let seed = self.seed ?? Int.random(in: 0...999_999)
        // The stages the studio and `apply` use.
        let tint = try TintStage.with(TintStage.seed(seed), TintStage.interval(interval))
        let balance = try Pipeline(Recipe(stages: noWhiteBalance ? [] : [.init(WhiteBalanceStage.name)]))
        let still = try Image(contentsOfFile: input, options: read.imageReadOptions)
        // Balanced once: every frame tints the same still. Gray has no cast; the tint makes it colour.
        let prepared = try balance.process(still)
        /// The `index`-th tint: the frame shown `index` intervals into the animation.
        func tinted(_ index: Int) throws(OcularError) -> Image {
            try tint.process(Frame(image: prepared, timestamp: tint.sequence.interval * index)).image
        }

        if isVideo {
            PartialFiles.removeOnTermination()  // Ctrl-C must not leave a hidden half-written video behind
            let writer = try VideoWriter(path: output, width: prepared.width, height: prepared.height, framesPerSecond: fps)
            let repeats = max(1, Int((interval * fps).rounded()))
            try ProgressDisplay.showing("tint", total: frames * repeats, unit: "frames") { progress in
                for index in 0..<frames {
                    let frame = try tinted(index)
                    for _ in 0..<repeats {
                        try writer.write(frame)
                        progress.advance()
                    }
                }
                try writer.finish()
            }
            print("\(output): \(frames) tints, \(writer.framesWritten) frames at \(fps) fps (\(writer.codec)), seed \(seed)")
        } else {
            let paths = frames == 1 ? [output] : Self.numberedPaths(output, count: frames)
            try ProgressDisplay.showing("tint", total: frames, unit: "pictures") { progress in
                for (index, path) in paths.enumerated() {
                    try tinted(index).write(toFile: path)
                    progress.advance()
                    if frames == 1 { print("\(path): \(tint.sequence.tint(number: index)), seed \(seed)") }
                }
            }
            if frames > 1 { print("\(paths[0]) … \(paths[paths.count - 1]): \(frames) tints, seed \(seed)") }
        }
    }

    /// photo.png → photo-000.png, photo-001.png, ...
    static func numberedPaths(_ path: String, count: Int) -> [String] {
        let base = (path as NSString).deletingPathExtension
        let fileExtension = (path as NSString).pathExtension
        let digits = max(3, String(count - 1).count)
        return (0..<count).map { index in
            let number = String(index)
            let padded = String(repeating: "0", count: max(0, digits - number.count)) + number
            return fileExtension.isEmpty ? "\(base)-\(padded)" : "\(base)-\(padded).\(fileExtension)"
        }
    }
}

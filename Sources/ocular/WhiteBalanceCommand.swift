import ArgumentParser
import Ocular

struct WhiteBalanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whitebalance",
        abstract: "Correct the colour cast of an image by the gray-world assumption.",
        discussion: "Scales each channel so that their means agree, ignoring strongly saturated pixels.")

    @Argument(help: "The image to balance.")
    var input: String

    @Option(name: .shortAndLong, help: "Where to write the balanced image.")
    var output: String

    @Option(help: "Pixels more saturated than this (0 to 1) are left out of the averages; 1 counts every pixel.")
    var saturationThreshold: Float = 0.9

    @OptionGroup var read: ReadOptions

    func validate() throws {
        guard (0...1).contains(saturationThreshold) else {
            throw ValidationError("--saturation-threshold must be from 0 to 1, got \(saturationThreshold)")
        }
    }

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let balanced = try WhiteBalance(saturationThreshold: saturationThreshold).apply(to: image)
        try balanced.write(toFile: output)
        let before = image.format == .gray8 ? [] : try image.converted(to: .rgb8).channelMeans()
        let after = balanced.format == .gray8 ? [] : try balanced.converted(to: .rgb8).channelMeans()
        if before.isEmpty {
            print("\(output): a gray image has no colour cast; written unchanged")
        } else {
            print("\(output): channel means R G B \(Self.show(before)) → \(Self.show(after))")
        }
    }

    private static func show(_ means: [Double]) -> String {
        means.map { String(Int($0.rounded())) }.joined(separator: " ")
    }
}

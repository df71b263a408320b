import ArgumentParser
import Ocular

struct WhiteBalanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whitebalance",
        abstract: "Correct the colour cast of an image by the gray-world assumption.",
        discussion: """
            Scales each channel so that their means agree, ignoring strongly saturated pixels, and keeps \
            the mean luma (the whiteBalance stage). --no-keep-brightness scales so the largest gain is 1, \
            as OpenCV's gray-world balancer does, which darkens a colour cast.
            """)

    @Argument(help: "The image to balance.")
    var input: String

    @Option(name: .shortAndLong, help: "Where to write the balanced image.")
    var output: String

    @Option(help: WhiteBalanceStage.saturationThreshold.optionHelp)
    var saturationThreshold = WhiteBalanceStage.saturationThreshold.defaultValue

    @Flag(inversion: .prefixedNo, help: WhiteBalanceStage.keepBrightness.optionHelp)
    var keepBrightness = WhiteBalanceStage.keepBrightness.defaultValue

    @OptionGroup var read: ReadOptions

    func run() throws {
        let stage = try WhiteBalanceStage.with(WhiteBalanceStage.saturationThreshold(saturationThreshold),
                                               WhiteBalanceStage.keepBrightness(keepBrightness))
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let balanced = try stage.process(Frame(image: image)).image
        try balanced.write(toFile: output)
        let before = image.format == .gray8 ? [] : try image.converted(to: .rgb8).channelMeans()
        let after = balanced.format == .gray8 ? [] : try balanced.converted(to: .rgb8).channelMeans()
        if before.isEmpty {
            print("\(output): a gray image has no colour cast; written unchanged")
        } else {
            let lumaBefore = try image.converted(to: .gray8).channelMeans()[0], lumaAfter = try balanced.converted(to: .gray8).channelMeans()[0]
            print("\(output): channel means R G B \(Self.show(before)) → \(Self.show(after)), mean luma \(Int(lumaBefore.rounded())) → \(Int(lumaAfter.rounded()))")
        }
    }

    private static func show(_ means: [Double]) -> String {
        means.map { String(Int($0.rounded())) }.joined(separator: " ")
    }
}

import ArgumentParser
import Ocular

@main
struct OcularCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocular",
        abstract: "Computer-vision camera toolkit: inspect, convert, balance and tint images; run Ocular Studio.",
        discussion: """
            Images are read with EXIF orientation applied. Output formats follow the file extension \
            (.png, .jpg, .webp, .bmp, .tiff, ...). Errors go to standard error with a non-zero exit status.
            """,
        version: "\(OcularVersion.current) (OpenCV \(OcularVersion.openCV))",
        subcommands: [InfoCommand.self, ConvertCommand.self, WhiteBalanceCommand.self, TintCommand.self, StudioCommand.self]
    )
}

/// Options every command that reads images shares.
struct ReadOptions: ParsableArguments {
    @Option(name: .customLong("max-megapixels"), help: "Refuse images larger than this many megapixels.")
    var maxMegapixels: Double = Double(ImageReadOptions.defaultPixelLimit) / 1_000_000

    func validate() throws {
        guard maxMegapixels > 0 else { throw ValidationError("--max-megapixels must be positive") }
    }

    var imageReadOptions: ImageReadOptions { ImageReadOptions(pixelLimit: Int(maxMegapixels * 1_000_000)) }
}

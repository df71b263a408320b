import ArgumentParser
import Ocular

@main
struct OcularCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocular",
        abstract: "Computer-vision camera toolkit: inspect, convert, balance and tint images, run recipes of stages; run Ocular Studio.",
        discussion: """
            Images are read with EXIF orientation applied. Output formats follow the file extension \
            (.png, .jpg, .webp, .bmp, .tiff, ...). Errors go to standard error with a non-zero exit status.
            """,
        version: "\(OcularVersion.current) (OpenCV \(OcularVersion.openCV))",
        subcommands: [InfoCommand.self, ConvertCommand.self, ApplyCommand.self, BlendCommand.self, StagesCommand.self, WhiteBalanceCommand.self,
                      TintCommand.self, ProcessCommand.self, RecordCommand.self, FacesCommand.self, BlobsCommand.self, GalleryCommand.self, StudioCommand.self]
    )
}

/// Options every command that reads images shares.
struct ReadOptions: ParsableArguments {
    @Option(name: .customLong("max-megapixels"), help: "Refuse images larger than this many megapixels.")
    var maxMegapixels: Double = Double(ImageReadOptions.defaultPixelLimit) / 1_000_000

    /// OpenCV's own decoders stop at 2³⁰ pixels, about 1074 megapixels: a larger limit would promise
    /// what cannot be read.
    static let largestLimit = Double(1 << 30) / 1_000_000

    func validate() throws {
        guard maxMegapixels.isFinite, maxMegapixels >= 0.000001, maxMegapixels <= Self.largestLimit else {
            throw ValidationError("--max-megapixels must be a number from 0.000001 to \(Int(Self.largestLimit)), got \(maxMegapixels)")
        }
    }

    /// Checked in ``validate()``: the product is finite and within Int.
    var imageReadOptions: ImageReadOptions { ImageReadOptions(pixelLimit: Int((maxMegapixels * 1_000_000).rounded())) }
}

import ArgumentParser
import Foundation
import Ocular
import PNGMessages

/// Options every command that reads images shares.
struct ReadOptions: ParsableArguments {
    @Option(name: .customLong("max-megapixels"), help: "Refuse images larger than this many megapixels.")
    var maxMegapixels: Double = Double(ImageReadOptions.defaultPixelLimit) / 1_000_000

    /// OpenCV's own decoders stop at 2³⁰ pixels, about 1074 megapixels: a larger limit would promise
    /// what cannot be read.
    static let largestLimit = Double(1 << 30) / 1_000_000

    @Flag(help: "Show OpenCV's and libpng's own warnings on standard error; Ocular reports every failure itself, so they are silent otherwise.")
    var verbose = false

    func validate() throws {
        if verbose {
            LibraryMessages.show(true)
            png_messages_route { isError, message in
                guard let message else { return }
                // libpng's messages end without a newline.
                FileHandle.standardError.write(Data("ocular: libpng \(isError != 0 ? "error" : "warning"): \(String(cString: message))\n".utf8))
            }
        }
        guard maxMegapixels.isFinite, maxMegapixels >= 0.000001, maxMegapixels <= Self.largestLimit else {
            throw ValidationError("--max-megapixels must be a number from 0.000001 to \(Int(Self.largestLimit)), got \(maxMegapixels)")
        }
    }

    /// Checked in ``validate()``: the product is finite and within Int.
    var imageReadOptions: ImageReadOptions { ImageReadOptions(pixelLimit: Int((maxMegapixels * 1_000_000).rounded())) }
}

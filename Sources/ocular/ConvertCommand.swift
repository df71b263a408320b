import ArgumentParser
import Foundation
import Ocular

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an image to another file format and/or pixel format.",
        discussion: """
            The output's extension picks the file format. --format picks the pixels: gray, colour \
            (rgb or bgr) or colour with alpha (rgba or bgra); image files store channels in their own \
            standard order, so rgb and bgr give the same picture. A .raw output holds the bare pixel \
            bytes in exactly the --format given, which may also be i420, nv12 or yuyv.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case gray, rgb, rgba, bgr, bgra, i420, nv12, yuyv

        var pixelFormat: PixelFormat {
            switch self {
            case .gray: .gray8
            case .rgb: .rgb8
            case .rgba: .rgba8
            case .bgr: .bgr8
            case .bgra: .bgra8
            case .i420: .i420
            case .nv12: .nv12
            case .yuyv: .yuyv
            }
        }
    }

    @Argument(help: "The image to read.")
    var input: String

    @Argument(help: "The file to write; its extension picks the format (.png, .jpg, ..., or .raw).")
    var output: String

    @Option(help: "Pixel format of the output: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format?

    @Option(help: "JPEG quality, 1 to 100.")
    var quality = 95

    @OptionGroup var read: ReadOptions

    private var isRaw: Bool { (output as NSString).pathExtension.lowercased() == "raw" }

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be from 1 to 100, got \(quality)") }
        if isRaw, format == nil {
            throw ValidationError("a .raw output needs --format to say which pixel layout to write")
        }
        if let format, format.pixelFormat.isYUV, !isRaw {
            throw ValidationError("--format \(format.rawValue) is a camera layout image files cannot hold; write it to a .raw file")
        }
        if let format, format.pixelFormat.hasAlpha, ["jpg", "jpeg", "jpe"].contains((output as NSString).pathExtension.lowercased()) {
            throw ValidationError("JPEG cannot store alpha; write --format \(format.rawValue) to a .png, or use --format \(format == .rgba ? "rgb" : "bgr")")
        }
    }

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let converted = try format.map { try image.converted(to: $0.pixelFormat) } ?? image
        if isRaw {
            try converted.writeRawPixels(toFile: output)
        } else {
            try converted.write(toFile: output, quality: quality)
        }
        print("\(output): \(converted.width) × \(converted.height) \(converted.format)")
    }
}

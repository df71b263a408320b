import ArgumentParser
import Foundation
import Ocular

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe an image (format, size, channels) or a video (codec, size, frame rate, frames, duration).")

    @Argument(help: "The image or video file.")
    var file: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var read: ReadOptions

    func run() throws {
        let info = try MediaInfo(contentsOfFile: file, options: read.imageReadOptions)
        if json {
            try JSONOutput.print(MediaInfoReport(path: file, info: info))
        } else {
            print(Self.describe(info, path: file))
        }
    }

    static func describe(_ info: MediaInfo, path: String) -> String {
        switch info {
        case .image(let image):
            return """
                \(path): \(image.container) image
                  size      \(image.width) × \(image.height)
                  channels  \(image.channels) (read as \(image.pixelFormat))
                  file      \(byteCount(image.fileSize))
                """
        case .video(let video):
            var lines = [
                "\(path): video",
                "  codec       \(video.codec)",
                "  size        \(video.width) × \(video.height)",
                "  frame rate  \(decimal(video.framesPerSecond)) fps",
                "  frames      \(video.frameCount)",
                "  duration    \(decimal(video.duration)) s",
            ]
            if let sound = sound(video) { lines.append("  sound       " + sound) }
            lines.append("  file        \(byteCount(video.fileSize))")
            return lines.joined(separator: "\n")
        }
    }

    /// The sound track, where the container says (WebM and MP4); nil where it is not known.
    private static func sound(_ video: VideoFileInfo) -> String? {
        guard let hasAudio = video.hasAudio else { return nil }
        guard hasAudio else { return "none" }
        return (video.audioCodec ?? "yes") + (video.audioSampleRate.map { ", \(decimal($0)) Hz" } ?? "")
    }

    private static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return fraction == 0 ? "\(hundredths / 100)" : "\(hundredths / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }

    private static func byteCount(_ bytes: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
    }
}

/// The JSON shape of `ocular info --json`: the path, the kind, and the kind's fields.
struct MediaInfoReport: Encodable {
    let path: String
    let info: MediaInfo

    enum Keys: String, CodingKey { case path, kind }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(path, forKey: .path)
        switch info {
        case .image(let image):
            try container.encode("image", forKey: .kind)
            try image.encode(to: encoder)
        case .video(let video):
            try container.encode("video", forKey: .kind)
            try video.encode(to: encoder)
        }
    }
}

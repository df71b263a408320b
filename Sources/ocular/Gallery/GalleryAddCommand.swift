import ArgumentParser
import Ocular

struct GalleryAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an image or video file to the gallery as it is (its bytes are copied, not re-encoded).")

    @Argument(help: "The image or video file.")
    var file: String

    @Option(help: "The caption shown under it.")
    var caption = ""

    @Option(name: .customLong("label"), help: "A label; repeat for several.")
    var labels: [String] = []

    @Option(help: "The copy's file name in the gallery (default: the file's own name).")
    var name: String?

    @OptionGroup var gallery: GalleryOptions

    func run() throws {
        let item = try gallery.open().add(fileAt: file, caption: caption, labels: labels, name: name)
        print("added item \(item.id): \(item.relativePath), \(item.summary)")
    }
}

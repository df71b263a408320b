import ArgumentParser
import Ocular

struct GalleryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy an item's file out of the gallery, after checking it holds the bytes saved.")

    @Argument(help: "The item's id.")
    var id: Int64

    @Option(name: .shortAndLong, help: "Where to write the copy; a file already there is replaced.")
    var output: String

    @OptionGroup var gallery: GalleryOptions

    func run() throws {
        let item = try gallery.open().export(id: id, to: output)
        print("\(output): item \(item.id), \(item.summary), \(item.byteCount) bytes")
    }
}

import ArgumentParser
import Ocular

struct GalleryDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an item: its row, its file and its thumbnail.")

    @Argument(help: "The item's id.")
    var id: Int64

    @OptionGroup var gallery: GalleryOptions

    func run() throws {
        let item = try gallery.open().delete(id: id)
        print("deleted item \(item.id) (\(item.relativePath))")
    }
}

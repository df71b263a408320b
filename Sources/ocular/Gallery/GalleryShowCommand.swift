import ArgumentParser
import Foundation
import Ocular

struct GalleryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Describe one item: file, size, date, source, caption, the recipe that made it, and whether its file is intact.")

    @Argument(help: "The item's id (`ocular gallery list` shows them).")
    var id: Int64

    @Flag(help: "Print the item as JSON.")
    var json = false

    @OptionGroup var gallery: GalleryOptions

    func run() throws {
        let gallery = try gallery.open()
        let item = try gallery.item(id: id)
        if json {
            print(try JSONOutput.text(item))
        } else {
            let state: String
            do {
                try gallery.verify(item)
                state = "intact (CRC-32 \(String(item.checksum, radix: 16)), \(item.byteCount) bytes)"
            } catch {
                state = "\(error)"
            }
            print("""
                item \(item.id): \(item.summary)
                  file       \(gallery.path(of: item))
                  state      \(state)
                  thumbnail  \(gallery.thumbnailPath(of: item) ?? "none")\(gallery.alternatePath(of: item).map { "\n  also as    " + $0 } ?? "")
                  saved      \(item.dateText)
                  source     \(item.source)
                  caption    \(item.caption.isEmpty ? "–" : item.caption)
                  labels     \(item.labels.isEmpty ? "–" : item.labels.joined(separator: ", "))
                  recipe     \(item.recipe?.json ?? "none")
                """)
        }
    }
}

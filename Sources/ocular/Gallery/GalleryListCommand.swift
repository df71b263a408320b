import ArgumentParser
import Foundation
import Ocular

struct GalleryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the gallery's items, newest first.")

    @Flag(help: "Print JSON: {\"items\":[…]} with every field of each item.")
    var json = false

    @Option(help: "At most this many items.")
    var limit = 1000

    @OptionGroup var gallery: GalleryOptions

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1, got \(limit)") }
    }

    func run() throws {
        let gallery = try gallery.open()
        let items = try gallery.items(limit: limit)
        if json {
            print(try JSONOutput.text(["items": items]))
            return
        }
        guard !items.isEmpty else {
            print("The gallery in \(gallery.folder) is empty. Add pictures with `ocular gallery add FILE` or `ocular apply … --save`.")
            return
        }
        let idWidth = max(2, items.map { String($0.id).count }.max() ?? 2)
        print("ID".padding(toLength: idWidth, withPad: " ", startingAt: 0) + "  SAVED                KIND   SIZE         FILE / CAPTION")
        for item in items {
            let id = String(repeating: " ", count: idWidth - String(item.id).count) + String(item.id)
            let size = "\(item.width)×\(item.height)".padding(toLength: 11, withPad: " ", startingAt: 0)
            let kind = item.kind.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)
            print("\(id)  \(item.dateText)  \(kind)  \(size)  \(item.relativePath)" + (item.caption.isEmpty ? "" : "  \"\(item.caption)\""))
        }
        let total = try gallery.count()
        if total > items.count { print("(\(items.count) of \(total); --limit shows more)") }
    }
}

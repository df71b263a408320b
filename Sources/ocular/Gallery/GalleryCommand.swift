import ArgumentParser
import Foundation
import Ocular
import OcularGallery

struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "List, show, export, delete and add the photos and videos saved in the gallery.",
        discussion: """
            The gallery is a folder: photos/ and videos/ hold the files, thumbnails/ their thumbnails, and \
            gallery.sqlite what is known of each (date, source, the recipe that made it, size, checksum, \
            caption). It is $XDG_DATA_HOME/ocular, or ~/.local/share/ocular; --gallery DIR picks another. \
            `ocular apply --save`, `ocular blend --save` and the studio's Save button put pictures in it.
            """,
        subcommands: [GalleryListCommand.self, GalleryShowCommand.self, GalleryExportCommand.self, GalleryDeleteCommand.self,
                      GalleryAddCommand.self, GalleryCheckCommand.self])
}

extension GalleryItem {
    /// "640 × 480 photo", "480 × 360 video, 3.0 s" or "640 × 480 video, 3.0 s, with sound".
    var summary: String {
        "\(width) × \(height) \(kind.rawValue)" + (duration.map { ", " + String(format: "%.1f s", $0) } ?? "")
            + (hasAudio == true ? ", with sound" : "")
    }

    var dateText: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: createdAt)
    }
}

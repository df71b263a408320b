import ArgumentParser
import Foundation
import Ocular
import OcularGallery

/// The option every command that uses the gallery shares.
struct GalleryOptions: ParsableArguments {
    @Option(name: .customLong("gallery"), help: ArgumentHelp("The gallery's folder (default: $XDG_DATA_HOME/ocular or ~/.local/share/ocular).",
                                                             valueName: "folder"))
    var folder: String?

    /// Opens the gallery; what reconciling found is told on standard error.
    func open() throws -> Gallery {
        let gallery = try Gallery(folder: folder)
        for finding in gallery.reconciliation.findings {
            FileHandle.standardError.write(Data("ocular: gallery: \(finding)\n".utf8))
        }
        return gallery
    }
}

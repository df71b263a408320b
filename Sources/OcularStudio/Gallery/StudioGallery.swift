import Ocular
import OcularGallery
import Synchronization

/// The gallery the studio saves into, opened on first use: a studio that never saves never
/// touches the folder, and `ocular studio` opens it at start-up to report problems early.
final class StudioGallery: Sendable {
    private let folder: String?
    private let opened: Mutex<Gallery?>

    /// The gallery in `folder` (the default folder when nil), opened when first needed.
    init(folder: String?) {
        self.folder = folder
        opened = Mutex(nil)
    }

    /// A gallery already open.
    init(_ gallery: Gallery) {
        folder = gallery.folder
        opened = Mutex(gallery)
    }

    /// What a client is told of a gallery error: paths inside the gallery relative to it, so that
    /// the server's folders stay its own.
    func clientMessage(for error: GalleryError) -> String {
        // The open gallery's folder is the normalised one its errors name; opening here would only
        // fail again.
        let root = opened.withLock { $0?.folder } ?? folder ?? Gallery.defaultFolder()
        return error.description.replacingOccurrences(of: root + "/", with: "")
    }

    /// What pages are told when the gallery (already open) is read-only: saving is off.
    var readOnlyNotice: String? {
        opened.withLock { $0?.isReadOnly == true }
            ? "The gallery is read-only (its folder cannot be written): saving is off; the gallery can be viewed and downloaded." : nil
    }

    /// The gallery, opening it the first time.
    /// - Throws: ``GalleryError`` when the folder or its database cannot be used; the next call
    ///   tries again.
    func open() throws(GalleryError) -> Gallery {
        try opened.withLock { (gallery) throws(GalleryError) -> Gallery in
            if let gallery { return gallery }
            let made = try Gallery(folder: folder)
            gallery = made
            return made
        }
    }
}

/// How the HTTP API shows an item: its fields, and where to fetch its file and thumbnail (ids
/// only: no path of the server's ever reaches a client).
struct GalleryItemResource: Encodable {
    let item: GalleryItem

    var url: String { "\(GalleryController.path)/\(item.id)" }
    var thumbnailURL: String? { item.thumbnailName == nil ? nil : url + "/thumbnail" }
    /// The same video in its other container (the MP4 of a recorded WebM), once it is made.
    var alternateURL: String? { item.alternateFileName == nil ? nil : url + "/alternate" }

    private enum LinkKeys: String, CodingKey {
        case url, thumbnailURL, alternateURL
    }

    func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
        var links = encoder.container(keyedBy: LinkKeys.self)
        try links.encode(url, forKey: .url)
        try links.encode(thumbnailURL, forKey: .thumbnailURL)
        try links.encodeIfPresent(alternateURL, forKey: .alternateURL)
    }
}

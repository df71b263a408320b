import Ocular
import OcularGallery
import Synchronization

/// The pictures a studio recipe may name for an image parameter: an uploaded picture by its id, or a
/// photo of the gallery as "gallery:ID". A recipe saved with a gallery photo keeps meaning something
/// after the server restarts, unlike an upload's id. The one training list a recipe may name is the
/// studio's own, as "default": a page never names a file on the server.
final class StudioPictures: TrainingListCatalog {
    static let galleryPrefix = "gallery:"

    let uploads: UploadedSources
    let gallery: StudioGallery
    let readOptions: ImageReadOptions
    /// The latest gallery photos decoded: a slider moving rebuilds the recipe many times a second.
    private let decoded = Mutex<[(id: Int64, image: Image)]>([])
    private static let decodedCapacity = 4

    /// The Bean Counter's classifier, which "default" names.
    let beanCounter: BeanCounter?

    init(uploads: UploadedSources, gallery: StudioGallery, readOptions: ImageReadOptions, beanCounter: BeanCounter? = nil) {
        self.uploads = uploads
        self.gallery = gallery
        self.readOptions = readOptions
        self.beanCounter = beanCounter
    }

    static let defaultTrainingList = "default"

    func classifier(trainingList name: String, profile: BlobProfile) throws(OcularError) -> BlobClassifier {
        guard name == Self.defaultTrainingList, let beanCounter else {
            throw .invalidArgument("the studio names one training list, \"\(Self.defaultTrainingList)\" (its own), not '\(name.prefix(60))'")
        }
        guard profile == beanCounter.profile else {
            throw .invalidArgument("the studio's classifier uses the \(beanCounter.profile) profile, not the \(profile) one")
        }
        do {
            return try beanCounter.classifier()
        } catch {
            throw .invalidArgument(error.reason)
        }
    }

    func image(id: String) throws(OcularError) -> Image {
        guard id.hasPrefix(Self.galleryPrefix) else { return try uploads.image(id: id) }
        let number = id.dropFirst(Self.galleryPrefix.count)
        guard let itemID = Int64(number), itemID > 0 else {
            throw .invalidArgument("'\(id.prefix(60))' names no gallery photo: it is \(Self.galleryPrefix)ID with the item's number")
        }
        if let kept = decoded.withLock({ $0.first { $0.id == itemID }?.image }) { return kept }
        let picture: Image
        do {
            let opened = try gallery.open()
            let item = try opened.item(id: itemID)
            guard item.kind == .photo else { throw OcularError.invalidArgument("gallery item \(itemID) is a video, not a photo") }
            picture = try Image(contentsOfFile: opened.path(of: item), options: readOptions)
        } catch let error as OcularError {
            // Named relative to the gallery: the server's folders stay its own.
            throw .invalidArgument(gallery.clientMessage(for: .file(error)))
        } catch let error as GalleryError {
            throw .invalidArgument(gallery.clientMessage(for: error))
        } catch {
            throw .invalidArgument("gallery item \(itemID) cannot be read")
        }
        decoded.withLock { kept in
            kept.append((itemID, picture))
            if kept.count > Self.decodedCapacity { kept.removeFirst() }
        }
        return picture
    }
}

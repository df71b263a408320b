/// Where the pictures that stages' image parameters name by id come from: uploaded blend sources in
/// the studio, files on the command line, the gallery; and the classifiers that training-list
/// parameters name.
public protocol ImageCatalog: Sendable {
    /// The picture with this id.
    /// - Throws: ``OcularError`` saying why there is none or why it cannot be read.
    func image(id: String) throws(OcularError) -> Image

    /// The classifier trained on the list of this name with this profile. By default there are none.
    /// - Throws: ``OcularError`` saying why there is none, or why it cannot be had yet.
    func classifier(trainingList name: String, profile: BlobProfile) throws(OcularError) -> BlobClassifier
}

extension ImageCatalog {
    public func classifier(trainingList name: String, profile: BlobProfile) throws(OcularError) -> BlobClassifier {
        throw .invalidArgument("no training lists can be named here, so there is no '\(name.prefix(80))'")
    }
}

/// No pictures at all: every id is refused.
public struct NoImages: ImageCatalog {
    public init() {}

    public func image(id: String) throws(OcularError) -> Image {
        throw .invalidArgument("no pictures can be referenced here, so there is no image '\(id)'")
    }
}

/// Ids are paths of image files (relative to the working folder), read when a stage is built.
public struct ImageFiles: ImageCatalog {
    /// How the files are read.
    public var options: ImageReadOptions

    public init(options: ImageReadOptions = ImageReadOptions()) {
        self.options = options
    }

    public func image(id: String) throws(OcularError) -> Image {
        try Image(contentsOfFile: id, options: options)
    }

    /// The list at that path, its model loaded from the user's cache folder or trained and kept there.
    public func classifier(trainingList name: String, profile: BlobProfile) throws(OcularError) -> BlobClassifier {
        try BlobModel.classifier(forList: name, profile: profile).classifier
    }
}

/// Where the pictures that stages' image parameters name by id come from: uploaded blend sources in
/// the studio, files on the command line, the gallery. (A capability that names other things by
/// parameter, as the bean counter names training lists, refines it: ``TrainingListCatalog``.)
public protocol ImageCatalog: Sendable {
    /// The picture with this id.
    /// - Parameter id: The picture's id.
    /// - Returns: The picture.
    /// - Throws: Why there is none or why it cannot be read (any error: the stage that asked names
    ///   itself and its parameter in front of its message).
    func image(id: String) throws -> Image
}

/// No pictures at all: every id is refused.
public struct NoImages: ImageCatalog {
    /// Creates the empty catalog.
    public init() {}

    /// None: there are no pictures here.
    /// - Parameter id: The picture's id.
    /// - Returns: Never.
    /// - Throws: ``OcularError/invalidArgument(_:)`` always.
    public func image(id: String) throws(OcularError) -> Image {
        throw .invalidArgument("no pictures can be referenced here, so there is no image '\(id)'")
    }
}

/// Ids are paths of image files (relative to the working folder), read when a stage is built.
public struct ImageFiles: ImageCatalog {
    /// How the files are read.
    public var options: ImageReadOptions

    /// Creates a catalog of files.
    /// - Parameter options: How files are read (the pixel limit).
    public init(options: ImageReadOptions = ImageReadOptions()) {
        self.options = options
    }

    /// The picture in the file `id` names.
    /// - Parameter id: The file's path.
    /// - Returns: The picture.
    /// - Throws: ``OcularError`` naming the file when it cannot be read as an image.
    public func image(id: String) throws(OcularError) -> Image {
        try Image(contentsOfFile: id, options: options)
    }
}

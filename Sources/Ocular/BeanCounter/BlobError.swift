/// What can go wrong counting beans, beside the image errors (``OcularError``) of the pictures read.
public enum BlobError: CodedError, Equatable, Sendable {
    /// A picture (named as the user knows it) in which a blob was needed and none was found.
    case noBlob(in: String)
    /// A training list, labelled folder or scene list that cannot be used as a whole:
    /// unreadable, not JSON or a property list, or without labels. (Images it names that are missing
    /// are reported one by one instead.)
    case badTrainingList(path: String, reason: String)

    /// What went wrong, in words that name the file or label at fault.
    public var description: String {
        switch self {
        case .noBlob(let name):
            "no blob found in \(name): put the object on a plain background"
        case .badTrainingList(let path, let reason):
            "cannot use the training list '\(path)': \(reason)"
        }
    }

    /// The stable code of the error, for programs and HTTP statuses.
    public var code: ErrorCode {
        switch self {
        case .noBlob: ErrorCode("blobs.noBlob", .badInput)
        case .badTrainingList: ErrorCode("blobs.badTrainingList", .badInput)
        }
    }
}

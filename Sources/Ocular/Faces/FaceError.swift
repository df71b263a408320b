/// What can go wrong finding faces, beside the image errors (``OcularError``) of the pictures read.
public enum FaceError: CodedError, Equatable, Sendable {
    /// A cascade classifier file (the `role` it was to play, e.g. "cat face") that cannot be loaded.
    case unusableCascade(role: String, path: String, reason: String)
    /// A face network's model file (``FaceNetworkModel``) that is missing or that OpenCV cannot read.
    case unusableModel(name: String, path: String, reason: String)
    /// A picture (named as the user knows it) in which a face was needed and none was found.
    case noFace(in: String)
    /// A list of labelled faces (an evaluation's `faces.json`) that cannot be used as a whole.
    case badLabels(path: String, reason: String)

    /// What went wrong, naming the cascade or picture at fault.
    public var description: String {
        switch self {
        case .unusableCascade(let role, let path, let reason):
            "cannot load the \(role) cascade '\(path)': \(reason)"
        case .unusableModel(let name, let path, let reason):
            "cannot load the \(name) face network '\(path)': \(reason)"
        case .noFace(let name):
            "no face found in \(name)"
        case .badLabels(let path, let reason):
            "cannot use the face labels '\(path)': \(reason)"
        }
    }

    /// The stable code of the error, for programs and HTTP statuses.
    public var code: ErrorCode {
        switch self {
        case .unusableCascade: ErrorCode("faces.unusableCascade", .unavailable)
        case .unusableModel: ErrorCode("faces.unusableModel", .unavailable)
        case .noFace: ErrorCode("faces.noFace", .badInput)
        case .badLabels: ErrorCode("faces.badLabels", .badInput)
        }
    }
}

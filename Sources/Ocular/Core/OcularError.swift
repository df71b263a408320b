/// What can go wrong in Ocular's core (images, files, videos, cameras, OpenCV), each case naming what
/// failed and why. Capabilities have their own errors beside them (``FaceError``, ``BlobError``,
/// `GalleryError` in OcularGallery); a stage's errors may be of any type.
public enum OcularError: CodedError, Equatable, Sendable {
    /// No file at the path.
    case fileNotFound(path: String)
    /// The file exists but cannot be read (permissions, a directory, ...).
    case unreadableFile(path: String, reason: String)
    /// The file holds zero bytes.
    case emptyFile(path: String)
    /// The bytes are not any image format Ocular recognises.
    case notAnImage(path: String)
    /// The bytes start like an image of `format` but cannot be decoded: truncated or damaged.
    case corruptImage(path: String, format: String, reason: String)
    /// The image has more pixels than the configured limit; it was not decoded.
    case tooManyPixels(path: String, width: Int, height: Int, limit: Int)
    /// The file name's extension names no format Ocular can write.
    case unsupportedFileType(path: String)
    /// Writing the file failed; nothing was left at the path.
    case writeFailed(path: String, reason: String)
    /// The file is neither an image nor a video any backend can open.
    case unreadableMedia(path: String, reason: String)
    /// A video opened, but a frame before its end cannot be decoded: the file is damaged or cut short.
    case damagedVideo(path: String, frame: Int, frameCount: Int)
    /// No camera can be opened at the index.
    case cameraUnavailable(index: Int, reason: String)
    /// Width, height, stride or byte count do not describe a valid image of the format.
    case invalidImage(reason: String)
    /// An argument outside what the operation accepts.
    case invalidArgument(String)
    /// OpenCV reported a failure in `operation`.
    case openCV(operation: String, message: String)
    /// What went wrong, naming the file, image or operation and why.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "cannot read '\(path)': no such file"
        case .unreadableFile(let path, let reason):
            "cannot read '\(path)': \(reason)"
        case .emptyFile(let path):
            "cannot read '\(path)': the file is empty (0 bytes)"
        case .notAnImage(let path):
            "cannot read '\(path)': not an image (the contents match no image format)"
        case .corruptImage(let path, let format, let reason):
            "cannot read '\(path)': the \(format) data \(reason)"
        case .tooManyPixels(let path, let width, let height, let limit):
            // In floating point: a forged header may claim 2³²−1 × 2³²−1, whose product overflows Int.
            Self.megapixels(Double(width) * Double(height)) == Self.megapixels(Double(limit)) && width.multipliedReportingOverflow(by: height).overflow == false
                // Both round to the same megapixels: the pixels say by how much.
                ? "cannot read '\(path)': \(width)×\(height) is \(width * height) pixels, \(width * height - limit) over the limit of \(limit) "
                    + "(\(Self.megapixels(Double(limit))) megapixels)"
                : "cannot read '\(path)': \(width)×\(height) is \(Self.megapixels(Double(width) * Double(height))) megapixels, "
                    + "over the limit of \(Self.megapixels(Double(limit))) megapixels"
        case .unsupportedFileType(let path):
            "cannot write '\(path)': the extension names no image format OpenCV can write (try .png or .jpg)"
        case .writeFailed(let path, let reason):
            "cannot write '\(path)': \(reason)"
        case .unreadableMedia(let path, let reason):
            "cannot open '\(path)': \(reason)"
        case .damagedVideo(let path, let frame, let frameCount):
            "cannot read '\(path)': frame \(frame + 1) of \(frameCount) cannot be decoded (the video is damaged or cut short)"
        case .cameraUnavailable(let index, let reason):
            "cannot open camera \(index): \(reason)"
        case .invalidImage(let reason):
            "invalid image: \(reason)"
        case .invalidArgument(let reason):
            reason
        case .openCV(let operation, let message):
            "OpenCV failed in \(operation): \(message)"
        }
    }

    /// The stable code of the error, for programs and HTTP statuses.
    public var code: ErrorCode {
        switch self {
        case .fileNotFound: ErrorCode("file.notFound", .notFound)
        case .unreadableFile: ErrorCode("file.unreadable", .ioFailure)
        case .emptyFile: ErrorCode("file.empty", .badInput)
        case .notAnImage: ErrorCode("image.notAnImage", .badInput)
        case .corruptImage: ErrorCode("image.corrupt", .badInput)
        case .tooManyPixels: ErrorCode("image.tooManyPixels", .tooLarge)
        case .unsupportedFileType: ErrorCode("image.unsupportedFileType", .badInput)
        case .writeFailed: ErrorCode("file.writeFailed", .ioFailure)
        case .unreadableMedia: ErrorCode("media.unreadable", .badInput)
        case .damagedVideo: ErrorCode("media.damagedVideo", .badInput)
        case .cameraUnavailable: ErrorCode("camera.unavailable", .unavailable)
        case .invalidImage: ErrorCode("image.invalid", .badInput)
        case .invalidArgument: ErrorCode("argument.invalid", .badInput)
        case .openCV: ErrorCode("opencv.failed", .internalFailure)
        }
    }

    /// Megapixels to one decimal, "12" or "0.3"; in scientific notation past what Int holds.
    static func megapixels(_ pixels: Double) -> String {
        let tenths = (pixels / 100_000).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return "\(pixels / 1_000_000)" }
        let whole = Int(tenths)
        return whole % 10 == 0 ? "\(whole / 10)" : "\(whole / 10).\(abs(whole % 10))"
    }
}

// Package-imported: the evaluation target lends images to the bridge the same way (its scene synthesis).
package import OpenCVBridge

/// The Swift side of the OpenCV bridge: turning its status codes into thrown errors and lending
/// image bytes to it without copying.
package enum OpenCV {
    /// OpenCV's version, e.g. "4.6.0".
    static var version: String { String(cString: ocv_version()) }

    /// Runs one bridge call; a failed status becomes ``OcularError/openCV(operation:message:)``.
    /// The operation's name is built only on failure: on the hot path it would cost more than the call.
    package static func call(_ operation: @autoclosure () -> String,
                     _ body: (UnsafeMutablePointer<OCVError>) -> OCVStatus) throws(OcularError) {
        var error = OCVError()
        let status = body(&error)
        guard status != OCV_STATUS_OK else { return }
        throw .openCV(operation: operation(), message: message(of: &error))
    }

    /// The readable reason a call left in `error`.
    static func message(of error: inout OCVError) -> String {
        string(fromCharacters: error.message)
    }

    /// A C `char[N]` field, which Swift imports as a tuple, read up to its terminating zero.
    static func string<Characters>(fromCharacters characters: Characters) -> String {
        withUnsafeBytes(of: characters) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    package static func matrixType(channels: Int) -> OCVMatType {
        switch channels {
        case 1: OCV_8UC1
        case 2: OCV_8UC2
        case 3: OCV_8UC3
        default: OCV_8UC4
        }
    }
}

extension Image {
    /// Lends the pixels to the bridge as a read-only matrix view, valid only inside `body`.
    package func withMatrix<R, E: Error>(_ body: (UnsafePointer<OCVImage>) throws(E) -> R) throws(E) -> R {
        try withMatrix(of: PixelRectangle(x: 0, y: 0, width: width, height: format.rowCount(height: height)), body)
    }

    /// Lends a rectangle of the pixels (packed formats; inside the image) as a read-only matrix view,
    /// valid only inside `body`: cropping without copying.
    package func withMatrix<R, E: Error>(of rectangle: PixelRectangle, _ body: (UnsafePointer<OCVImage>) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = bytes.withUnsafeBytes { raw in
            var view = OCVImage(
                data: UnsafeMutableRawPointer(mutating: raw.baseAddress.map { $0 + rectangle.y * bytesPerRow + rectangle.x * format.channels }),
                columns: Int32(rectangle.width),
                rows: Int32(rectangle.height),
                bytesPerRow: Int64(bytesPerRow),
                type: OpenCV.matrixType(channels: format.channels))
            do throws(E) {
                return .success(try body(&view))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Makes a new tightly packed image that `body` fills through a writable matrix view.
    package static func filledByOpenCV(width: Int, height: Int, format: PixelFormat,
                               _ body: (UnsafePointer<OCVImage>) throws(OcularError) -> Void) throws(OcularError) -> Image {
        try Image(width: width, height: height, format: format) { (buffer) throws(OcularError) in
            var view = OCVImage(
                data: buffer.baseAddress,
                columns: Int32(width),
                rows: Int32(format.rowCount(height: height)),
                bytesPerRow: Int64(format.minimumBytesPerRow(width: width)),
                type: OpenCV.matrixType(channels: format.channels))
            try body(&view)
        }
    }
}

/// Versions of Ocular and of the OpenCV it runs on.
public enum OcularVersion {
    /// Ocular's own version.
    public static let current = "0.1.0"
    /// The version of the OpenCV library Ocular was built against, e.g. "4.6.0".
    public static var openCV: String { OpenCV.version }
}

/// The threads one OpenCV call may spread its work over (a cascade search over its scales, a filter
/// over stripes of rows). Spreading pays when one picture is all there is; when the caller already
/// keeps every core busy with pictures of its own (`ocular batch`), the splitting and the waiting are
/// pure cost: 1 leaves each call on its caller's thread.
public enum LibraryThreads {
    /// How many threads one call may use, process-wide; at least 1.
    public static var perCall: Int {
        get { Int(ocv_thread_count()) }
        set { ocv_set_thread_count(Int32(clamping: max(1, newValue))) }
    }
}

/// OpenCV's own messages on standard error: the warnings its decoders print about files Ocular then
/// reports itself ("imdecode_(''): can't read header"), which land in the middle of a command's output.
public enum LibraryMessages {
    /// Shows (`true`) or silences OpenCV's warnings from now on, process-wide: its log, and what it
    /// writes to `std::cerr` itself. Call it as the program starts, before other threads write. The
    /// command line silences them unless given `--verbose`; OPENCV_LOG_LEVEL, when set, wins for the log.
    /// - Parameter shown: Whether OpenCV's warnings are shown.
    public static func show(_ shown: Bool) { ocv_show_library_messages(shown) }
}

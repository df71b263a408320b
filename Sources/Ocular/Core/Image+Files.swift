import Foundation
internal import OpenCVBridge

/// Limits applied when reading an image.
public struct ImageReadOptions: Sendable, Equatable {
    /// About 100 megapixels: larger images are refused before their pixels are allocated.
    public static let defaultPixelLimit = 100_000_000

    /// The most pixels (width × height) an image may have.
    public var pixelLimit: Int

    /// For a caller about to shrink what it reads to about this many pixels: a plain JPEG (8-bit
    /// colour, no EXIF) read in colour is then decoded already scaled down, inside libjpeg's inverse
    /// DCT, by the largest of 1/2, 1/4 and 1/8 a side that still leaves at least this many pixels (its
    /// sides divided and rounded up): a 1920×1080 frame wanted at 640×360 is decoded at 960×540, in
    /// less than half the time of decoding it whole and shrinking it (cv2, the same scaling: 3.95 ms
    /// against 8.7). nil, or any other file: decoded whole.
    public var jpegScaledToAtLeastPixels: Int?

    /// Creates options.
    /// - Parameters:
    ///   - pixelLimit: The largest width × height a header may announce.
    ///   - jpegScaledToAtLeastPixels: See ``jpegScaledToAtLeastPixels``.
    public init(pixelLimit: Int = ImageReadOptions.defaultPixelLimit, jpegScaledToAtLeastPixels: Int? = nil) {
        self.pixelLimit = pixelLimit
        self.jpegScaledToAtLeastPixels = jpegScaledToAtLeastPixels
    }

    /// The DCT scale (a denominator of 2, 4 or 8) for a `width` × `height` JPEG and the size it decodes
    /// to (the sides divided, rounded up), or nil to decode it whole.
    func jpegScale(width: Int, height: Int) -> (denominator: Int, width: Int, height: Int)? {
        guard let least = jpegScaledToAtLeastPixels else { return nil }
        return [8, 4, 2].lazy.map { denominator in
            (denominator: denominator, width: (width + denominator - 1) / denominator, height: (height + denominator - 1) / denominator)
        }.first { scale in
            let (pixels, overflow) = scale.width.multipliedReportingOverflow(by: scale.height)
            return !overflow && pixels >= least
        }
    }
}

/// A compressed image encoding with its quality setting.
public enum ImageEncoding: Sendable, Equatable {
    /// Lossless PNG; `compression` 0 (fastest) … 9 (smallest).
    case png(compression: Int = 3)
    /// JPEG; `quality` 0 … 100.
    case jpeg(quality: Int = 95)

    var fileExtension: String {
        switch self {
        case .png: ".png"
        case .jpeg: ".jpg"
        }
    }

    var parameters: [Int32] {
        switch self {
        case .png(let compression): [Int32(OCV_WRITE_PNG_COMPRESSION), Int32(min(max(compression, 0), 9))]
        case .jpeg(let quality): [Int32(OCV_WRITE_JPEG_QUALITY), Int32(min(max(quality, 0), 100))]
        }
    }
}

extension Image {
    /// Reads an image file (PNG, JPEG, or any format OpenCV's imgcodecs reads), honouring EXIF
    /// orientation.
    ///
    /// The result is ``PixelFormat/gray8`` for gray files, ``PixelFormat/bgra8`` for files with
    /// transparency and ``PixelFormat/bgr8`` otherwise.
    /// - Parameters:
    ///   - path: The file to read.
    ///   - options: Limits, such as the largest pixel count accepted.
    /// - Throws: ``OcularError`` naming the file and why: missing, unreadable, empty, not an image,
    ///   truncated or damaged, or over the pixel limit.
    public init(contentsOfFile path: String, options: ImageReadOptions = ImageReadOptions()) throws(OcularError) {
        let data = try FileAccess.read(path)
        self = try Image(decoding: data, name: path, options: options)
    }

    /// Decodes an image from the bytes of a file (PNG, JPEG, ...), honouring EXIF orientation.
    /// - Parameters:
    ///   - data: The encoded bytes.
    ///   - name: What to call the data in error messages, such as its file name.
    ///   - options: Limits, such as the largest pixel count accepted.
    /// - Throws: ``OcularError`` saying why the bytes are not a usable image.
    public init(decoding data: some ContiguousBytes, name: String = "image data",
                options: ImageReadOptions = ImageReadOptions()) throws(OcularError) {
        let result: Result<Image, OcularError> = data.withUnsafeBytes { bytes in
            do throws(OcularError) {
                return .success(try Self.decode(bytes, name: name, options: options))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Encodes the image, converting it first to what the encoding stores (gray, BGR, or BGRA for PNG).
    /// - Parameter encoding: PNG or JPEG with its setting.
    /// - Returns: The bytes of the encoded file.
    /// - Throws: ``OcularError`` when the encoder fails.
    public func encoded(as encoding: ImageEncoding) throws(OcularError) -> [UInt8] {
        try encoded(fileExtension: encoding.fileExtension, parameters: encoding.parameters)
    }

    /// Writes the image to a file whose extension picks the format (.png, .jpg, .jpeg, .webp, .bmp,
    /// .tiff, ...). The write is atomic: a failure or crash never leaves a partial file behind.
    /// - Parameters:
    ///   - path: Where to write.
    ///   - quality: JPEG quality 0 … 100 (default 95); ignored by other formats.
    /// - Throws: ``OcularError/unsupportedFileType(path:)`` for an unknown extension,
    ///   ``OcularError/writeFailed(path:reason:)`` when the file cannot be written.
    public func write(toFile path: String, quality: Int = 95) throws(OcularError) {
        try FileAccess.checkWritable(path)
        try FileAccess.write(try encoded(forFile: path, quality: quality), to: path)
    }

    /// The bytes ``write(toFile:quality:)`` writes to `path`: the format its extension picks.
    /// - Parameters:
    ///   - path: The file's name; only its extension is read.
    ///   - quality: JPEG quality 0 … 100 (default 95); ignored by other formats.
    /// - Returns: The encoded file's bytes.
    /// - Throws: ``OcularError/unsupportedFileType(path:)`` for an unknown extension, or
    ///   ``OcularError`` when OpenCV cannot encode the image.
    public func encoded(forFile path: String, quality: Int = 95) throws(OcularError) -> [UInt8] {
        let fileExtension = "." + (path as NSString).pathExtension.lowercased()
        guard fileExtension.count > 1, path.withCString({ ocv_can_write_image($0) }) else {
            throw .unsupportedFileType(path: path)
        }
        let parameters: [Int32]
        switch fileExtension {
        case ".jpg", ".jpeg", ".jpe": parameters = ImageEncoding.jpeg(quality: quality).parameters
        case ".png": parameters = ImageEncoding.png().parameters
        default: parameters = []
        }
        return try encoded(fileExtension: fileExtension, parameters: parameters)
    }

    // MARK: - Decoding

    /// - Parameter mode: How OpenCV is asked to decode; ``readMode(for:)`` of the header when nil
    ///   (tests pass each mode, so that every decoder path is tried on every layout).
    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, options: ImageReadOptions,
                       mode override: OCVReadMode? = nil) throws(OcularError) -> Image {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        guard bytes.count <= FileAccess.maximumReadBytes else {
            throw .corruptImage(path: name, format: "image", reason: "is \(bytes.count) bytes, more than OpenCV decodes at once (2 GiB)")
        }
        // Only containers recognised by their signature reach OpenCV. Some of its decoders claim
        // bytes without one: 37 bytes of junk once decoded as a 16164×11264 image (546 MB and two
        // seconds, found by `make fuzz`) before any limit could be checked.
        guard let header = ImageHeader(bytes) else { throw .notAnImage(path: name) }
        if let truncation = header.truncation {
            throw .corruptImage(path: name, format: header.container.rawValue, reason: truncation)
        }
        if let reason = header.unreliableVariant {
            throw .corruptImage(path: name, format: header.container.rawValue, reason: reason)
        }
        if let width = header.width, let height = header.height {
            try checkPixelLimit(width: width, height: height, name: name, options: options)
        }
        let mode = override ?? readMode(for: header)
        if header.container == .jpeg, mode == OCV_READ_COLOR, let width = header.width, let height = header.height,
           let scale = options.jpegScale(width: width, height: height) {
            // A file the scaled path does not take (EXIF, gray, damaged, ...) is decoded whole below.
            if let scaled = try? Image.filledByOpenCV(width: scale.width, height: scale.height, format: .bgr8, { (target) throws(OcularError) in
                guard ocv_decode_jpeg_as_bgr_scaled(bytes.baseAddress!, bytes.count, Int32(scale.denominator), target) else {
                    throw .openCV(operation: "scaled JPEG decode", message: "not a plain JPEG")
                }
            }) {
                return scaled
            }
        }

        var decoded: OpaquePointer?
        defer { ocv_matrix_release(decoded) }
        do throws(OcularError) {
            if header.knowsLayout, let width = header.width, let height = header.height, width > 0, height > 0 {
                // The header told the size and layout: decode straight into the image's own storage.
                // The bridge reports success only when the decoder wrote all of it; otherwise the
                // storage is discarded unread, never handed out.
                let direct = try Image.filledByOpenCV(width: width, height: height, format: decodedFormat(for: mode)) { (target) throws(OcularError) in
                    // When OpenCV decodes elsewhere (rotated by EXIF, 16-bit, ...), `decoded` holds the
                    // pixels and this image is discarded unread.
                    try OpenCV.call("imdecode(\(name))") { ocv_decode_image(bytes.baseAddress!, bytes.count, mode, target, &decoded, $0) }
                }
                if decoded == nil { return direct }
            } else {
                try OpenCV.call("imdecode(\(name))") { ocv_decode_image(bytes.baseAddress!, bytes.count, mode, nil, &decoded, $0) }
            }
        } catch {
            let reason = header.container == .gif
                ? "cannot be decoded: OpenCV \(OpenCV.version) has no GIF reader (convert it to PNG)"
                : "cannot be decoded: it is damaged, or a variant OpenCV cannot read"
            throw .corruptImage(path: name, format: header.container.rawValue, reason: reason)
        }
        guard let decoded else { throw .openCV(operation: "imdecode(\(name))", message: "the decoder returned no image") }
        let image = try Image(copying: ocv_matrix_view(decoded))
        try checkPixelLimit(width: image.width, height: image.height, name: name, options: options)
        return image
    }

    /// How OpenCV is asked to decode: the header's own layout where it is known (alpha kept, gray
    /// kept gray), any colour layout otherwise.
    static func readMode(for header: ImageHeader?) -> OCVReadMode {
        guard let header, header.knowsLayout else { return OCV_READ_ANYCOLOR }
        return header.hasAlpha ? OCV_READ_UNCHANGED : header.isGray ? OCV_READ_GRAYSCALE : OCV_READ_COLOR
    }

    private static func decodedFormat(for mode: OCVReadMode) -> PixelFormat {
        mode == OCV_READ_UNCHANGED ? .bgra8 : mode == OCV_READ_GRAYSCALE ? .gray8 : .bgr8
    }

    private static func checkPixelLimit(width: Int, height: Int, name: String, options: ImageReadOptions) throws(OcularError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= options.pixelLimit else {
            throw .tooManyPixels(path: name, width: width, height: height, limit: options.pixelLimit)
        }
    }

    /// Copies pixels OpenCV owns into a new image.
    /// - Parameter format: How to read the channels; by default gray, BGR or BGRA by their number.
    init(copying view: OCVImage, format known: PixelFormat? = nil) throws(OcularError) {
        let format: PixelFormat
        switch (view.type, known) {
        case (_, let known?): format = known
        case (OCV_8UC1, nil): format = .gray8
        case (OCV_8UC3, nil): format = .bgr8
        case (OCV_8UC4, nil): format = .bgra8
        default: throw .openCV(operation: "imdecode", message: "unexpected matrix type \(view.type.rawValue)")
        }
        let width = Int(view.columns), height = Int(view.rows)
        let rowBytes = format.minimumBytesPerRow(width: width)
        self = try Image(width: width, height: height, format: format) { buffer in
            for row in 0..<height {
                let source = view.data!.advanced(by: row * Int(view.bytesPerRow))
                buffer.baseAddress!.advanced(by: row * rowBytes).copyMemory(from: source, byteCount: rowBytes)
            }
        }
    }

    // MARK: - Encoding

    private func encoded(fileExtension: String, parameters: [Int32]) throws(OcularError) -> [UInt8] {
        let storable = try converted(to: storableFormat(keepsAlpha: ![".jpg", ".jpeg", ".jpe"].contains(fileExtension)))
        var output: OpaquePointer?
        defer { ocv_bytes_release(output) }
        try storable.withMatrix { (matrix) throws(OcularError) in
            try OpenCV.call("imencode(\(fileExtension))") { error in
                parameters.withUnsafeBufferPointer {
                    ocv_encode_image(fileExtension, matrix, $0.baseAddress, Int32($0.count), &output, error)
                }
            }
        }
        guard let output else { throw .openCV(operation: "imencode(\(fileExtension))", message: "no bytes returned") }
        return Array(UnsafeBufferPointer(start: ocv_bytes_data(output), count: ocv_bytes_count(output)))
    }

    /// What OpenCV's encoders take: gray, BGR, or BGRA where the format keeps alpha.
    private func storableFormat(keepsAlpha: Bool) -> PixelFormat {
        switch format {
        case .gray8: .gray8
        case .rgba8, .bgra8: keepsAlpha ? .bgra8 : .bgr8
        default: .bgr8
        }
    }

    // MARK: - Files

    /// Writes the bare pixel bytes, row after row as ``bytes`` holds them, atomically.
    /// - Parameter path: The file to create or replace.
    /// - Throws: ``OcularError/writeFailed(path:reason:)`` saying why the file cannot be written.
    public func writeRawPixels(toFile path: String) throws(OcularError) {
        try FileAccess.write(bytes, to: path)
    }
}

package import OpenCVBridge

/// An image: a value holding its size, pixel format and bytes.
///
/// Rows may be padded (`bytesPerRow` ≥ `width × channels`) for the packed formats; the planar YUV
/// formats keep rows tightly packed, as OpenCV derives their chroma planes from the width.
/// Copies share storage until one is mutated, like any Swift array.
public struct Image: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// How the bytes are laid out.
    public let format: PixelFormat
    /// Bytes from the start of one row to the start of the next (for planar YUV: of the Y plane).
    public let bytesPerRow: Int
    /// The pixels, `format.rowCount(height:) × bytesPerRow` bytes.
    public private(set) var bytes: [UInt8]

    /// Creates an image over existing bytes, checking that they describe one.
    /// - Parameters:
    ///   - width: Width in pixels, at least 1 (even for the YUV formats).
    ///   - height: Height in pixels, at least 1 (even for I420 and NV12).
    ///   - format: How the bytes are laid out.
    ///   - bytesPerRow: Row stride; `nil` means tightly packed.
    ///   - bytes: At least `format.rowCount(height:) × bytesPerRow` bytes.
    /// - Throws: ``OcularError/invalidImage(reason:)`` when the geometry does not fit.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, bytes: [UInt8]) throws(OcularError) {
        let stride = bytesPerRow ?? format.minimumBytesPerRow(width: max(width, 0))
        try Self.validate(width: width, height: height, format: format, bytesPerRow: stride)
        let needed = format.rowCount(height: height) * stride
        guard bytes.count >= needed else {
            throw .invalidImage(reason: "a \(width)×\(height) \(format) image with \(stride) bytes per row needs \(needed) bytes, got \(bytes.count)")
        }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.bytes = bytes.count == needed ? bytes : Array(bytes.prefix(needed))
    }

    /// Creates an image whose every pixel has the given bytes (one per channel, in the format's order).
    /// For YUV formats give (Y, U, V).
    /// - Parameters:
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    ///   - format: The pixel format.
    ///   - pixel: One byte per channel: (Y, U, V) for the YUV formats.
    /// - Throws: ``OcularError/invalidImage(reason:)`` when the size does not fit the format;
    ///   ``OcularError/invalidArgument(_:)`` when `pixel` has the wrong number of bytes.
    public init(width: Int, height: Int, format: PixelFormat, filledWith pixel: [UInt8]) throws(OcularError) {
        try Self.validate(width: width, height: height, format: format, bytesPerRow: format.minimumBytesPerRow(width: width))
        let expected = format.isYUV ? 3 : format.channels
        guard pixel.count == expected else {
            throw .invalidArgument("a \(format) pixel has \(expected) components, got \(pixel.count)")
        }
        var bytes: [UInt8]
        switch format {
        case .i420:
            let luma = width * height, chroma = luma / 4
            bytes = [UInt8](repeating: pixel[0], count: luma) + [UInt8](repeating: pixel[1], count: chroma)
                + [UInt8](repeating: pixel[2], count: chroma)
        case .nv12:
            bytes = [UInt8](repeating: pixel[0], count: width * height) + Self.repeating([pixel[1], pixel[2]], count: width * height / 4)
        case .yuyv:
            bytes = Self.repeating([pixel[0], pixel[1], pixel[0], pixel[2]], count: width * height / 2)
        default:
            bytes = Self.repeating(pixel, count: width * height)
        }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = format.minimumBytesPerRow(width: width)
        self.bytes = bytes
    }

    /// `pattern` `count` times over, by doubling copies rather than an append a pixel.
    private static func repeating(_ pattern: [UInt8], count: Int) -> [UInt8] {
        let total = pattern.count * count
        guard total > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let start = buffer.baseAddress else { return }
            _ = buffer.initialize(from: pattern)
            var filled = pattern.count
            while filled < total {
                let copied = min(filled, total - filled)
                (start + filled).initialize(from: start, count: copied)
                filled += copied
            }
            initialized = total
        }
    }

    /// Creates an image whose uninitialised, tightly packed bytes `fill` writes. No zero-filling:
    /// this is the path every OpenCV output takes.
    init(width: Int, height: Int, format: PixelFormat,
         filling fill: (UnsafeMutableRawBufferPointer) throws(OcularError) -> Void) throws(OcularError) {
        try Self.validate(width: width, height: height, format: format, bytesPerRow: format.minimumBytesPerRow(width: width))
        let stride = format.minimumBytesPerRow(width: width)
        let count = format.rowCount(height: height) * stride
        var failure: OcularError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(OcularError) {
                try fill(UnsafeMutableRawBufferPointer(buffer))
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.bytes = bytes
    }

    /// Lends the pixels to the bridge as a writable matrix view, valid only inside `body`: drawing in
    /// place. (Packed formats; the bytes are copied first if another image shares them.)
    package mutating func withMutableMatrix<R, E: Error>(_ body: (UnsafePointer<OCVImage>) throws(E) -> R) throws(E) -> R {
        let (width, height, bytesPerRow, type) = (width, height, bytesPerRow, OpenCV.matrixType(channels: format.channels))
        let result: Result<R, E> = bytes.withUnsafeMutableBytes { raw in
            var view = OCVImage(data: raw.baseAddress, columns: Int32(width), rows: Int32(height),
                                bytesPerRow: Int64(bytesPerRow), type: type)
            do throws(E) {
                return .success(try body(&view))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The bytes of the pixel at (`x`, `y`) for the packed RGB-family and gray formats, in the
    /// format's own order.
    /// - Parameters:
    ///   - x: The column, inside the image.
    ///   - y: The row, inside the image.
    /// - Returns: One byte per channel.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        precondition(!format.isYUV, "pixel(x:y:) reads packed formats; convert YUV first")
        precondition((0..<width).contains(x) && (0..<height).contains(y), "pixel (\(x), \(y)) is outside \(width)×\(height)")
        let start = y * bytesPerRow + x * format.channels
        return Array(bytes[start..<(start + format.channels)])
    }

    /// The mean of each channel over all pixels, in the format's channel order (packed formats).
    /// - Returns: One mean per channel, 0–255.
    public func channelMeans() -> [Double] {
        precondition(!format.isYUV, "channelMeans() reads packed formats; convert YUV first")
        let channels = format.channels
        var sums = [UInt64](repeating: 0, count: channels)
        bytes.withUnsafeBufferPointer { buffer in
            for row in 0..<height {
                let start = row * bytesPerRow
                for column in 0..<width {
                    for channel in 0..<channels { sums[channel] += UInt64(buffer[start + column * channels + channel]) }
                }
            }
        }
        return sums.map { Double($0) / Double(width * height) }
    }

    static func validate(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int) throws(OcularError) {
        guard width > 0, height > 0 else {
            throw .invalidImage(reason: "size \(width)×\(height) is empty; width and height must be at least 1")
        }
        guard width <= Int(Int32.max) / 4, height <= Int(Int32.max) / 2 else {
            throw .invalidImage(reason: "size \(width)×\(height) is larger than OpenCV can address")
        }
        if format.isYUV, !width.isMultiple(of: 2) {
            throw .invalidImage(reason: "\(format) needs an even width, got \(width)")
        }
        if format.isPlanar, !height.isMultiple(of: 2) {
            throw .invalidImage(reason: "\(format) needs an even height, got \(height)")
        }
        let minimum = format.minimumBytesPerRow(width: width)
        let (byteCount, overflow) = format.rowCount(height: height).multipliedReportingOverflow(by: bytesPerRow)
        guard !overflow, byteCount <= Int(Int32.max) * 4 else {
            throw .invalidImage(reason: "\(height) rows of \(bytesPerRow) bytes are more than an image may hold")
        }
        guard bytesPerRow >= minimum else {
            throw .invalidImage(reason: "\(bytesPerRow) bytes per row is less than the \(minimum) a \(width)-pixel \(format) row needs")
        }
        if format.isPlanar, bytesPerRow != minimum {
            throw .invalidImage(reason: "\(format) rows must be tightly packed (\(minimum) bytes per row), got \(bytesPerRow)")
        }
    }
}

extension Image: CustomStringConvertible {
    /// "Image(W×H format)".
    public var description: String { "Image(\(width)×\(height) \(format))" }
}

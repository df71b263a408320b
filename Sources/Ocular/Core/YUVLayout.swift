/// Repacking between the YUV layouts, which OpenCV does not offer: I420 ↔ NV12 move chroma
/// samples only (lossless); YUYV has twice I420's vertical chroma resolution, so I420 → YUYV repeats
/// each chroma row and YUYV → I420 averages row pairs.
enum YUVLayout {
    /// A YUV image whose Y plane is `gray` and whose chroma is neutral (128).
    static func fromLuma(_ gray: Image) throws(OcularError) -> Image {
        let width = gray.width, height = gray.height
        return try Image(width: width, height: height, format: .i420) { output in
            let out = output.bindMemory(to: UInt8.self)
            gray.bytes.withUnsafeBufferPointer { input in
                for row in 0..<height {
                    let source = input.baseAddress! + row * gray.bytesPerRow
                    (out.baseAddress! + row * width).update(from: source, count: width)
                }
            }
            out.baseAddress!.advanced(by: width * height).initialize(repeating: 128, count: width * height / 2)
        }
    }

    static func nv12(fromI420 image: Image) throws(OcularError) -> Image {
        let width = image.width, height = image.height
        let luma = width * height, quarter = luma / 4
        return try Image(width: width, height: height, format: .nv12) { output in
            let out = output.bindMemory(to: UInt8.self)
            image.bytes.withUnsafeBufferPointer { input in
                out.baseAddress!.update(from: input.baseAddress!, count: luma)
                for index in 0..<quarter {
                    out[luma + 2 * index] = input[luma + index]
                    out[luma + 2 * index + 1] = input[luma + quarter + index]
                }
            }
        }
    }

    static func i420(fromNV12 image: Image) throws(OcularError) -> Image {
        let width = image.width, height = image.height
        let luma = width * height, quarter = luma / 4
        return try Image(width: width, height: height, format: .i420) { output in
            let out = output.bindMemory(to: UInt8.self)
            image.bytes.withUnsafeBufferPointer { input in
                out.baseAddress!.update(from: input.baseAddress!, count: luma)
                for index in 0..<quarter {
                    out[luma + index] = input[luma + 2 * index]
                    out[luma + quarter + index] = input[luma + 2 * index + 1]
                }
            }
        }
    }

    static func yuyv(fromI420 image: Image) throws(OcularError) -> Image {
        let width = image.width, height = image.height
        let luma = width * height, quarter = luma / 4, chromaWidth = width / 2
        return try Image(width: width, height: height, format: .yuyv) { output in
            let out = output.bindMemory(to: UInt8.self)
            image.bytes.withUnsafeBufferPointer { input in
                for row in 0..<height {
                    let chromaRow = (row / 2) * chromaWidth
                    for pair in 0..<chromaWidth {
                        let target = row * width * 2 + pair * 4
                        out[target] = input[row * width + 2 * pair]
                        out[target + 1] = input[luma + chromaRow + pair]
                        out[target + 2] = input[row * width + 2 * pair + 1]
                        out[target + 3] = input[luma + quarter + chromaRow + pair]
                    }
                }
            }
        }
    }

    static func i420(fromYUYV image: Image) throws(OcularError) -> Image {
        let width = image.width, height = image.height
        guard height.isMultiple(of: 2) else {
            throw .invalidImage(reason: "i420 needs an even height, got \(height)")
        }
        let luma = width * height, quarter = luma / 4, chromaWidth = width / 2
        let stride = image.bytesPerRow
        return try Image(width: width, height: height, format: .i420) { output in
            let out = output.bindMemory(to: UInt8.self)
            image.bytes.withUnsafeBufferPointer { input in
                for row in 0..<height {
                    for column in 0..<width { out[row * width + column] = input[row * stride + 2 * column] }
                }
                for chromaRow in 0..<(height / 2) {
                    let upper = 2 * chromaRow * stride, lower = upper + stride
                    for pair in 0..<chromaWidth {
                        let u = (Int(input[upper + 4 * pair + 1]) + Int(input[lower + 4 * pair + 1]) + 1) / 2
                        let v = (Int(input[upper + 4 * pair + 3]) + Int(input[lower + 4 * pair + 3]) + 1) / 2
                        out[luma + chromaRow * chromaWidth + pair] = UInt8(u)
                        out[luma + quarter + chromaRow * chromaWidth + pair] = UInt8(v)
                    }
                }
            }
        }
    }
}

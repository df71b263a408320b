import OpenCVBridge

extension Image {
    /// The gray image with its contrast spread out (histogram equalisation or CLAHE), as the cascades
    /// were trained to see faces.
    func equalized(_ equalization: FaceDetectionProfile.Equalization) throws(OcularError) -> Image {
        guard format == .gray8 else { throw .invalidArgument("only gray images are equalised, not \(format)") }
        return try Image.filledByOpenCV(width: width, height: height, format: .gray8) { (output) throws(OcularError) in
            try withMatrix { (input) throws(OcularError) in
                switch equalization {
                case .histogram:
                    try OpenCV.call("equalizeHist(\(self))") { ocv_equalize_histogram(input, output, $0) }
                case .clahe:
                    try OpenCV.call("CLAHE(\(self))") { ocv_equalize_clahe(input, output, 2, 8, $0) }
                }
            }
        }
    }
}

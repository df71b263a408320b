internal import OpenCVBridge

extension Image {
    /// The gray image with its contrast spread out (histogram equalisation or CLAHE), or itself.
    package func equalized(_ equalization: FaceDetectionProfile.Equalization) throws(OcularError) -> Image {
        guard format == .gray8 else { throw .invalidArgument("only gray images are equalised, not \(format)") }
        if equalization == .none { return self }  // (so the switch below never sees .none)
        return try Image.filledByOpenCV(width: width, height: height, format: .gray8) { (output) throws(OcularError) in
            try withMatrix { (input) throws(OcularError) in
                switch equalization {
                case .clahe:
                    try OpenCV.call("CLAHE(\(self))") { ocv_equalize_clahe(input, output, 2, 8, $0) }
                case .histogram, .none:
                    try OpenCV.call("equalizeHist(\(self))") { ocv_equalize_histogram(input, output, $0) }
                }
            }
        }
    }
}

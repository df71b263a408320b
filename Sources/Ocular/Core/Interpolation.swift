internal import OpenCVBridge

/// How a resampled picture's pixels are computed from the source's (a stage parameter, see ZoomStage).
public enum Interpolation: String, CaseIterable, Sendable {
    /// The nearest source pixel: blocky when enlarging, exact values.
    case nearest
    /// Four neighbours, weighted by distance (OpenCV's default): soft when enlarging a lot.
    case bilinear
    /// Sixteen neighbours on a cubic: sharper than bilinear, a slight halo at edges.
    case bicubic
    /// Sixty-four neighbours on a Lanczos window: the sharpest, the slowest.
    case lanczos

    public var title: String {
        switch self {
        case .nearest: "Nearest pixel"
        case .bilinear: "Bilinear"
        case .bicubic: "Bicubic"
        case .lanczos: "Lanczos"
        }
    }

    var bridged: OCVInterpolation {
        switch self {
        case .nearest: OCV_INTER_NEAREST
        case .bilinear: OCV_INTER_LINEAR
        case .bicubic: OCV_INTER_CUBIC
        case .lanczos: OCV_INTER_LANCZOS4
        }
    }
}

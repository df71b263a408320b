/// Finds objects on a plain background, attaches them to the frame as blob annotations, and draws
/// green rectangles round them, or shows the background mask instead (SPEC §5's Image/Mask toggle).
///
/// The detector reuses its buffers from frame to frame, so one stage instance belongs to one stream.
public struct BlobsStage: Stage {
    public static let name = "blobs"
    public static let title = "Blobs"
    public static let category = StageCategory.detection
    public static let annotationKind: String? = Blob.kind
    public static let summary = "Finds coins, beans and other objects on a plain background and boxes them in green."

    public static let parameters: [ParameterDescriptor] = [
        .flag("mask", title: "Mask", default: false,
              help: "Show the background mask (white) the blobs were cut from instead of the picture."),
    ]

    public let detector: BlobDetector
    public let showsMask: Bool

    /// Green, as SPEC §5 draws blobs.
    static let green: FaceOverlay.Colour = (0, 255, 0)

    public init(_ values: StageValues) throws(StageError) {
        do {
            detector = try BlobDetector()
        } catch {
            throw StageError(stage: Self.name, parameter: nil, reason: error.description)
        }
        showsMask = values.flag("mask")
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let detection = try detector.detect(in: frame.image)
        frame.annotations += detection.blobs as [any FrameAnnotation]
        frame.image = showsMask
            ? try detection.mask.resized(width: frame.image.width, height: frame.image.height)
            : try Self.drawn(detection.blobs, on: frame.image)
        return frame
    }

    /// `image` with a green rectangle round each blob. Gray and YUV frames become BGR so green shows.
    public static func drawn(_ blobs: [Blob], on image: Image) throws(OcularError) -> Image {
        var canvas = image.format.channels >= 3 && !image.format.isYUV ? image : try image.converted(to: .bgr8)
        let thickness = max(2, min(canvas.width, canvas.height) / 240)
        for blob in blobs {
            try canvas.drawRectangle(blob.bounds, colour: green, thickness: thickness)
        }
        return canvas
    }
}

import OpenCVBridge
import Synchronization

/// Finds objects on a plain background (SPEC §5): everything that is not within one standard
/// deviation of the frame's mean colour, eroded so an object's parts join, outlined, boxed.
///
/// The finder keeps its buffers from frame to frame, so detections take turns: one detector per
/// stream.
public final class BlobDetector: Sendable {
    /// SPEC §5's constants.
    public struct Settings: Sendable, Hashable {
        /// The frame is shrunk by this before the mask is made.
        public var scale = 0.5
        /// The background: within this many standard deviations of the mean colour, per channel.
        public var deviations = 1.0
        /// The square erosion kernel's side, as a fraction of the shrunk frame's short side.
        public var erosionFraction = 0.005
        public var erosionIterations = 8
        public var cannyLow = 191.0
        public var cannyHigh = 255.0
        /// Blobs narrower or shorter than this fraction of the frame's short side are dropped.
        public var minimumFraction = 0.05

        public init() {}
    }

    public let settings: Settings
    private let finder: Mutex<OpaquePointer>

    public init(settings: Settings = Settings()) throws(OcularError) {
        var made: OpaquePointer?
        try OpenCV.call("blob finder") { ocv_blob_finder_create(&made, $0) }
        guard let made else { throw .openCV(operation: "blob finder", message: "not created") }
        self.settings = settings
        self.finder = Mutex(made)
    }

    deinit {
        finder.withLock { ocv_blob_finder_release($0) }
    }

    /// What one frame holds: its blobs, biggest first, and the background mask the search made.
    public struct Detection: Sendable {
        public var blobs: [Blob]
        /// 255 where the background is, at the working scale (half the frame's size by default).
        public var mask: Image
    }

    /// The blobs of `image` and its mask.
    ///
    /// SPEC §5's contour tree holds each outline twice (the outside and the inside of the edge line)
    /// and the outlines of holes inside an object: every rectangle lying inside another is that
    /// object again, so only the outermost rectangles are kept, one blob per object.
    public func detect(in image: Image) throws(OcularError) -> Detection {
        let frame = image.format.isYUV || image.format.channels == 2 ? try image.converted(to: .bgr8) : image
        var constants = OCVBlobSettings(
            scale: settings.scale, deviations: settings.deviations, erosionFraction: settings.erosionFraction,
            erosionIterations: Int32(clamping: settings.erosionIterations), cannyLow: settings.cannyLow,
            cannyHigh: settings.cannyHigh, minimumFraction: settings.minimumFraction)
        let (rectangles, mask) = try finder.withLock { (finder) throws(OcularError) -> ([PixelRectangle], Image) in
            var count: Int32 = 0
            try frame.withMatrix { (view) throws(OcularError) in
                try OpenCV.call("blob detection(\(frame))") { ocv_blob_finder_find(finder, view, &constants, &count, $0) }
            }
            var found = [OCVRectangle](repeating: OCVRectangle(), count: Int(count))
            found.withUnsafeMutableBufferPointer { ocv_blob_finder_rectangles(finder, $0.baseAddress!, count) }
            let mask = try Image(copying: ocv_blob_finder_mask(finder), format: .gray8)
            return (found.map { PixelRectangle(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)) }, mask)
        }
        let outermost = Self.outermost(rectangles)
        var blobs: [Blob] = []
        for bounds in outermost {
            blobs.append(Blob(image: try frame.cropped(to: bounds), bounds: bounds))
        }
        return Detection(blobs: blobs, mask: mask)
    }

    /// The rectangles not inside another, biggest first (equal ones once).
    static func outermost(_ rectangles: [PixelRectangle]) -> [PixelRectangle] {
        let bySize = rectangles.sorted { $0.area != $1.area ? $0.area > $1.area : ($0.y, $0.x) < ($1.y, $1.x) }
        var kept: [PixelRectangle] = []
        for rectangle in bySize where !kept.contains(where: { $0.contains(rectangle) }) {
            kept.append(rectangle)
        }
        return kept
    }
}

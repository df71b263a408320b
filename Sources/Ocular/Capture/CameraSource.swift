internal import OpenCVBridge

/// A camera device through OpenCV: V4L2 on Linux (`/dev/video0` is index 0), AVFoundation on macOS.
public final class CameraSource: CaptureSource {
    /// The camera's device index (0 for /dev/video0).
    public let index: Int

    /// Opens camera `index`.
    /// - Parameters:
    ///   - index: The device's number, 0 for the first.
    ///   - colour: Colour, or gray from the luma: a YUYV camera's Y plane as it comes, never through
    ///     colour; another camera's frames converted (BT.601 luma).
    /// - Throws: ``OcularError/cameraUnavailable(index:reason:)`` when no camera answers there.
    public init(index: Int, colour: FrameColour = .colour) throws(OcularError) {
        guard (0...Int(Int32.max)).contains(index) else {
            throw .cameraUnavailable(index: index, reason: "a camera's index is 0 or more")
        }
        self.index = index
        try super.init(name: "camera \(index)", colour: colour, fallbackFrameRate: 30) { (capture, properties) throws(OcularError) in
            do throws(OcularError) {
                try OpenCV.call("VideoCapture(\(index))") { ocv_capture_open_camera(Int32(index), colour == .gray, capture, properties, $0) }
            } catch {
                throw .cameraUnavailable(index: index, reason: "no camera answers there (none is connected, or another program holds it)")
            }
        }
    }

    /// A camera has no end of its own: when frames stop, it was unplugged or failed.
    override func checkEnd() throws(OcularError) {
        throw .cameraUnavailable(index: index, reason: "it stopped sending frames after \(framesRead)")
    }
}

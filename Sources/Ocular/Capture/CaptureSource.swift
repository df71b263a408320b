internal import OpenCVBridge

/// Frames read through OpenCV's videoio: what video files and cameras share.
public class CaptureSource: FrameSource {
    public let name: String
    public let width: Int
    /// The frame height the device or file announces.
    public let height: Int
    public let frameRate: Double
    public let frameCount: Int?
    public let colour: FrameColour
    /// The four-character code of the codec, such as "h264" or "MJPG".
    public let codec: String
    /// How many frames have been read.
    public private(set) var framesRead = 0
    private var capture: OpaquePointer?

    /// Opens the capture through `open`, which fills the handle and the properties.
    /// - Parameter timing: Given the backend's properties, the frames' rate and count as counted from the
    ///   file's own timestamps where they say otherwise: they win over the backend's, which derives them
    ///   from a nominal rate.
    init(name: String, colour: FrameColour, fallbackFrameRate: Double,
         timing: (OCVVideoProperties) -> (frameRate: Double, frameCount: Int)? = { _ in nil },
         open: (UnsafeMutablePointer<OpaquePointer?>, UnsafeMutablePointer<OCVVideoProperties>) throws(OcularError) -> Void) throws(OcularError) {
        var properties = OCVVideoProperties()
        var opened: OpaquePointer?
        try open(&opened, &properties)
        guard let opened else { throw .openCV(operation: "open \(name)", message: "no capture was returned") }
        self.name = name
        self.colour = colour
        capture = opened
        width = Int(properties.width)
        height = Int(properties.height)
        let counted = timing(properties)
        let rate = counted?.frameRate ?? properties.framesPerSecond
        frameRate = rate.isFinite && rate > 0 && rate < 1000 ? rate : fallbackFrameRate
        frameCount = counted?.frameCount ?? (properties.frameCount > 0 ? Int(properties.frameCount) : nil)
        codec = OpenCV.string(fromCharacters: properties.fourcc)
    }

    deinit { ocv_capture_release(capture) }

    public func nextFrame() throws(OcularError) -> Frame? {
        guard let capture else { return nil }
        var view = OCVImage()
        var milliseconds = 0.0
        try OpenCV.call("read frame \(framesRead + 1) of \(name)") { ocv_capture_read(capture, &view, &milliseconds, $0) }
        guard view.data != nil else {
            ocv_capture_release(capture)
            self.capture = nil
            try checkEnd()
            return nil
        }
        // The decoder's time where it has one (variable frame rates), else the frame's place.
        let timestamp: Duration = milliseconds.isFinite && milliseconds > 0 && framesRead > 0
            ? .milliseconds(milliseconds) : frameDuration * framesRead
        framesRead += 1
        let image = try Image(copying: view).matching(colour)
        return Frame(image: image, timestamp: timestamp)
    }

    /// Called when no frame comes: throws when that is not the end the source announced.
    func checkEnd() throws(OcularError) {}
}

/// Whether a source delivers colour frames or 8-bit gray ones made of the luma.
public enum FrameColour: String, Sendable, CaseIterable, Codable {
    /// Colour frames (packed BGR), or 8-bit gray frames of the luma.
    case colour, gray
}

/// Where frames come from: a still image, a video file or a camera device. (The studio's browser
/// camera is a source of its own: its frames arrive over a WebSocket.)
///
/// A source reads something in order (a file position, a device), so it is a class used by one task
/// at a time, and it lets go of what it holds when it is deinitialised.
public protocol FrameSource: AnyObject {
    /// For people and error messages: "still astronaut.jpg", "video clip.mp4", "camera 0".
    var name: String { get }
    /// The frame size as the source announces it before the first frame.
    var width: Int { get }
    /// The frame height as the source announces it.
    var height: Int { get }
    /// Frames per second: a video's or camera's own rate, the chosen rate of a still.
    var frameRate: Double { get }
    /// How many frames a video file holds, as its container says; nil for stills and cameras.
    var frameCount: Int? { get }
    /// Colour, or gray from the luma.
    var colour: FrameColour { get }

    /// The next frame with the moment it shows, or nil when a video has ended (an end, not an
    /// error). A still repeats forever; a camera until it is unplugged.
    /// - Returns: The frame, or nil at a video's end.
    /// - Throws: Why a frame cannot be had, naming the source: Ocular's sources throw
    ///   ``OcularError`` (a damaged video, a camera that stopped answering); others any error.
    func nextFrame() throws -> Frame?
}

extension FrameSource {
    /// The source's frame interval: what a frame counts for when it has no time of its own.
    var frameDuration: Duration { .seconds(1 / frameRate) }
}

extension Image {
    /// The frame in the source's colour: the luma for gray (the Y plane of YUV input, BT.601 luma of
    /// BGR), and packed BGR or BGRA for colour so every stage can take it.
    func matching(_ colour: FrameColour) throws(OcularError) -> Image {
        switch colour {
        case .gray: format == .gray8 ? self : try converted(to: .gray8)
        case .colour: try packed
        }
    }
}

import Ocular

/// How Ocular Studio serves.
public struct StudioConfiguration: Sendable {
    /// Loopback by default: the studio is reachable from other machines only when asked.
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// Frames larger than this are refused with an error message; the connection stays open.
    public var maxFrameBytes: Int
    /// No WebSocket message may exceed this; a larger one closes the connection (code 1009).
    public var maxMessageBytes: Int
    /// Frames with more pixels than this are refused.
    public var maxFramePixels: Int
    /// JPEG quality of processed frames, 1 … 100.
    public var jpegQuality: Int
    /// Folder of the web app's files; `nil` means the ones shipped with Ocular.
    public var publicFolder: String?

    public init(host: String = "127.0.0.1", port: Int = 8080, maxFrameBytes: Int = 8 << 20, maxMessageBytes: Int = 32 << 20,
                maxFramePixels: Int = 7680 * 4320, jpegQuality: Int = 80, publicFolder: String? = nil) {
        self.host = host
        self.port = port
        self.maxFrameBytes = maxFrameBytes
        self.maxMessageBytes = maxMessageBytes
        self.maxFramePixels = maxFramePixels
        self.jpegQuality = jpegQuality
        self.publicFolder = publicFolder
    }
}

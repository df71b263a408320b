import Ocular
import OcularGallery

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
    /// A text message (settings, a save, a page action's request) larger than this is refused by its size,
    /// unparsed; the connection stays open. The longest the pages send, a settings message with every stage
    /// of the registry in its recipe, is under 8 kB; a 33 MB one held a thread for 10 s while it was parsed.
    public var maxTextMessageBytes: Int = 64 << 10
    /// Frames with more pixels than this are refused.
    public var maxFramePixels: Int
    /// An uploaded blend source larger than this is answered 413.
    public var maxSourceBytes: Int
    /// How many uploaded blend sources are kept; beyond it the oldest go.
    public var maxSources: Int
    /// How many bytes of decoded pixels the kept blend sources may take; beyond it the oldest go.
    public var maxSourcePixelBytes: Int
    /// JPEG quality of processed frames, 1 … 100.
    public var jpegQuality: Int
    /// Folder of the web app's files; `nil` means the ones shipped with Ocular.
    public var publicFolder: String?
    /// A request head (request line and header fields) larger than this is answered 431.
    public var maxHeaderBytes: Int
    /// A connection that has not sent a complete request head this long after opening is closed.
    public var requestHeadTimeout: Duration
    /// An HTTP connection idle this long between requests is closed (WebSockets are kept).
    public var idleTimeout: Duration
    /// The gallery's folder; `nil` means ``Gallery/defaultFolder(environment:)``.
    public var galleryFolder: String?
    /// The Bean Counter's training list; `nil` means the demo set shipped beside the web app (not in
    /// the folder it serves: `TrainingList/labels.json` in the studio's resources).
    public var trainingList: String?
    /// Who may use the studio: Host names, and the token required off loopback (see ``StudioAccess``).
    public var access: StudioAccess
    /// Saves from the studio are refused once the gallery's files would take more than this.
    public var galleryQuotaBytes: Int64
    /// Saves one connection may make in a minute (a burst of this many, then one every 60/N seconds).
    public var savesPerMinute: Int
    /// Serve HTTPS and WSS with this pair; nil serves plain HTTP (browsers then give the camera only
    /// to pages on loopback).
    public var tls: StudioTLS? {
        didSet { access.scheme = tls == nil ? "http" : "https" }
    }
    /// A recorded clip larger than this is answered 413 (512 MB: five minutes of 720p take ~100 MB).
    public var maxClipBytes: Int = 512 << 20
    /// How long a page may record: its recorder stops there, and the server refuses longer clips.
    public var maxRecordingSeconds: Double = 300
    /// FFmpeg, which makes an MP4 beside each recorded WebM; nil finds it on PATH, "" turns it off.
    public var ffmpegPath: String? = nil
    /// How many seconds of processing one stream frame may cost. A frame whose recipe would take
    /// longer (its rate measured on the stream's earlier frames) is processed shrunk to fit, so that
    /// no client holds the server for as long as it likes with a huge frame and a heavy recipe.
    public var maxFrameWorkSeconds: Double = 2
    /// The largest frame processed whole before its recipe's rate is known (a new stream, new
    /// settings): 1920×1080. A larger one is shrunk to it for that first measurement.
    public var unmeasuredFramePixels: Int = 1920 * 1080
    /// The camera rate the studio aims to keep: the most frames a page sends a second, and the rate
    /// the link is measured against (``LinkMeter``). Pages take it from the hello.
    public var framesPerSecond: Double = 30
    /// Whether each stream's frame size and JPEG qualities follow its link (``LinkMeter``); when
    /// false they stay at the top rung whatever the link holds.
    public var adaptsToLink = true
    /// How the studio's pages are addressed: "https" with ``tls``, else "http".
    public var scheme: String { access.scheme }

    public init(host: String = "127.0.0.1", port: Int = 8080, maxFrameBytes: Int = 8 << 20, maxMessageBytes: Int = 32 << 20,
                maxFramePixels: Int = 7680 * 4320,
                maxSourceBytes: Int = 16 << 20, maxSources: Int = 16, maxSourcePixelBytes: Int = 256 << 20, jpegQuality: Int = 80, publicFolder: String? = nil,
                maxHeaderBytes: Int = 32 << 10, requestHeadTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30),
                galleryFolder: String? = nil, trainingList: String? = nil, allowedHosts: [String] = [], token: String? = nil,
                galleryQuotaBytes: Int64 = 2 << 30, savesPerMinute: Int = 60, tls: StudioTLS? = nil) {
        self.host = host
        self.port = port
        self.maxFrameBytes = maxFrameBytes
        self.maxMessageBytes = maxMessageBytes
        self.maxFramePixels = maxFramePixels
        self.maxSourceBytes = maxSourceBytes
        self.maxSources = maxSources
        self.maxSourcePixelBytes = maxSourcePixelBytes
        self.jpegQuality = jpegQuality
        self.publicFolder = publicFolder
        self.maxHeaderBytes = maxHeaderBytes
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
        self.galleryFolder = galleryFolder
        self.trainingList = trainingList
        self.access = StudioAccess(boundHost: host, allowedHosts: allowedHosts, token: token)
        self.galleryQuotaBytes = galleryQuotaBytes
        self.savesPerMinute = savesPerMinute
        self.tls = tls
        self.access.scheme = tls == nil ? "http" : "https"
    }
}

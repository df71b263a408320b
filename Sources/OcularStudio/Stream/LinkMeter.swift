/// A rung of the ladder the stream climbs down when its link is too slow for the camera's rate, and
/// back up when it clears: the size the page sends frames at and the JPEG qualities both ways.
struct LinkLevel: Equatable, Sendable, Encodable {
    /// The longest side of the frames the page sends; nil for the camera's own size.
    let longSide: Int?
    /// The quality the page encodes its frames at, 0 … 1 (the browser's `toBlob` scale).
    let uploadQuality: Double
    /// The JPEG quality of the answers, 1 … 100 (never above the stream's chosen quality).
    let answerQuality: Int

    /// Each rung takes roughly two thirds of the bytes of the one above it. A 1280×720 camera frame of
    /// an ordinary scene is ~110 kB at the top and ~9 kB at the bottom.
    static let ladder: [LinkLevel] = [
        LinkLevel(longSide: nil, uploadQuality: 0.85, answerQuality: 100),
        LinkLevel(longSide: nil, uploadQuality: 0.7, answerQuality: 70),
        LinkLevel(longSide: 960, uploadQuality: 0.7, answerQuality: 70),
        LinkLevel(longSide: 960, uploadQuality: 0.55, answerQuality: 55),
        LinkLevel(longSide: 640, uploadQuality: 0.65, answerQuality: 65),
        LinkLevel(longSide: 640, uploadQuality: 0.5, answerQuality: 50),
        LinkLevel(longSide: 480, uploadQuality: 0.5, answerQuality: 50),
        LinkLevel(longSide: 320, uploadQuality: 0.5, answerQuality: 50),
    ]
}

/// Measures one client's link from the stream itself and chooses its ``LinkLevel``.
///
/// The page keeps one frame in flight and acknowledges every answer the moment it arrives
/// (`{"type":"received","next":true}`), right before sending its next frame (for a recipe slower than
/// the camera, the next goes while one is processed, announced by `{"type":"upload"}`). So the server sees,
/// per frame: the answer's round trip (answer written → acknowledgement read: the answer's bytes
/// crossing the link down, plus the link's latency), the upload (acknowledgement read → next frame
/// read: that frame's bytes crossing the link up) and its own processing time. A frame's period is
/// their sum; the shown rate keeps up with a 30 frames/s camera while the transfers fit in what
/// processing leaves of 33 ms. When they do not for a few frames in a row, the stream steps down
/// (two steps when far over); when they take well under the budget for a second's worth of frames
/// (frames within the budget but not well under it neither count nor cancel; one over it does), it
/// tries the rung above. A try that is over budget at once steps back and doubles the wait before
/// the next one (up to half a minute), as TCP probes for bandwidth; a rung that holds for ten seconds,
/// or transfers that shrink to a third of the budget (the link cleared), reset the wait. Where a try
/// failed, a third of the budget is not enough: small frames pass a token bucket at once (a third of the
/// budget at 5 Mbit/s) while the rung above fills it, so the link has cleared there only when the
/// transfers have also halved since the try; without that the page tried every second and never settled.
/// The transfers' samples are smoothed (EWMA) and restarted at every change, since a new size makes the
/// old ones meaningless; processing is the median of the last frames (``processingSamples``).
struct LinkMeter: Sendable {
    /// The camera rate the studio aims to keep (the page's cap, ``StudioConfiguration/framesPerSecond``).
    let frameIntervalMs: Double
    static let smoothing = 0.3
    /// Frames over budget in a row before stepping down, and well under it before trying the rung above.
    static let overBeforeStepDown = 3
    static let underBeforeStepUp = 30
    static let longestWaitBeforeStepUp = 900
    /// A rung reached by a step up that holds this many frames ends the backing off.
    static let framesToHold = 300
    /// "Well under": part of the transfers is latency that a larger frame does not lengthen.
    static let headroom = 0.7
    /// "Clearly roomy": the link has cleared; the next rung is tried after the shortest wait whatever
    /// tries failed before.
    static let roomyHeadroom = 0.35

    /// When false the level stays at the top whatever is measured (`ocular studio --fixed-quality`).
    let adapts: Bool
    private(set) var level = 0
    /// What processing a frame takes: the median of the last ``processingSamples`` frames'.
    private(set) var processingMs: Double?
    /// The last frames' processing times, oldest first.
    private var recentProcessing: [Double] = []
    /// A median, not an average: a stream's occasional whole-frame search (the faces stage looks
    /// over the whole frame every 30th, up to 200 ms on two cores) is not the recipe's pace. The
    /// average one such frame lifted past a camera interval went out in the once-a-second report, and
    /// for that second the page took the recipe for slow and waited for a fresh camera frame before
    /// every send: Many Masks over a group showed 18 frames/s where it could show 25.
    static let processingSamples = 15
    private(set) var answerRoundTripMs: Double?
    private(set) var uploadMs: Double?
    /// Bytes per millisecond down and up (1 byte/ms = 8 kbit/s), over the last samples.
    private(set) var downloadRate: Double?
    private(set) var uploadRate: Double?
    private var answer: (bytes: Int, writtenAt: Double)?
    private var acknowledgedAt: Double?
    private var over = 0
    private var under = 0
    private var sinceChange = 0
    /// Frames well under budget wanted before the next step up (doubles after each failed try).
    private(set) var waitBeforeStepUp = underBeforeStepUp
    private var lastChangeWasUp = false
    /// The transfers measured on the rung a try left, kept while the try lasts.
    private var transferBeforeTry: Double?
    /// The rung a try failed above, and the transfers it must fall under there to count as roomy.
    private var failedTry: (level: Int, roomyBelowMs: Double)?

    init(adapts: Bool = true, framesPerSecond: Double = StudioConfiguration().framesPerSecond) {
        self.adapts = adapts
        frameIntervalMs = 1000 / framesPerSecond
    }

    var current: LinkLevel { LinkLevel.ladder[level] }

    /// What the transfers of a frame may take: what processing leaves of a camera interval, or, for a
    /// recipe slower than the camera (which sets the rate itself), half its processing time, so the
    /// rate stays within two thirds of what the recipe allows and a frame is shown at most half a
    /// processing time later than the recipe makes it. Never under half an interval.
    var budgetMs: Double {
        let processing = processingMs ?? 0
        return max(frameIntervalMs - processing, processing / 2, frameIntervalMs / 2)
    }

    /// Both transfers of a frame, as measured lately.
    var transferMs: Double? {
        guard let answerRoundTripMs else { return nil }
        return answerRoundTripMs + (uploadMs ?? 0)
    }

    mutating func processed(milliseconds: Double) {
        recentProcessing.append(milliseconds)
        if recentProcessing.count > Self.processingSamples { recentProcessing.removeFirst() }
        let sorted = recentProcessing.sorted()
        processingMs = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    mutating func answerWritten(bytes: Int, at time: Double) {
        answer = (bytes, time)
    }

    /// The page has the answer; `sendingNext` says its next frame follows at once.
    /// - Returns: Whether the level changed.
    mutating func answerReceived(at time: Double, sendingNext: Bool) -> Bool {
        acknowledgedAt = sendingNext ? time : nil
        guard let sent = answer else { return false }
        answer = nil
        let roundTrip = max(time - sent.writtenAt, 0.01)
        answerRoundTripMs = Self.smoothed(answerRoundTripMs, roundTrip)
        downloadRate = Self.smoothed(downloadRate, Double(sent.bytes) / roundTrip)
        return decide()
    }

    /// A frame follows at once, sent while another is processed (so no acknowledgement precedes it).
    mutating func uploadStarts(at time: Double) {
        acknowledgedAt = time
    }

    mutating func frameArrived(bytes: Int, at time: Double) {
        guard let acknowledgedAt else { return }
        self.acknowledgedAt = nil
        let upload = max(time - acknowledgedAt, 0.01)
        uploadMs = Self.smoothed(uploadMs, upload)
        uploadRate = Self.smoothed(uploadRate, Double(bytes) / upload)
    }

    private mutating func decide() -> Bool {
        guard adapts, let transferMs else { return false }
        sinceChange += 1
        let budget = budgetMs
        if transferMs > budget {
            over += 1
            under = 0
        } else if transferMs < budget * Self.headroom {
            under += 1
            over = 0
        } else {
            // Within budget but not well under: the rung fits. Such frames neither count toward a step up
            // nor cancel one, or a link whose transfers brush the headroom now and then (small frames,
            // where latency is most of a transfer) would never try again after a few failed tries.
            over = 0
        }
        if lastChangeWasUp, sinceChange == Self.framesToHold {
            waitBeforeStepUp = Self.underBeforeStepUp  // the rung held: the link has room
            failedTry = nil
        }
        let roomy = transferMs < budget * Self.roomyHeadroom && failedTry.map { $0.level != level || transferMs < $0.roomyBelowMs } ?? true
        var next = level
        if over >= Self.overBeforeStepDown, sinceChange >= Self.overBeforeStepDown {
            let tried = lastChangeWasUp && sinceChange < 2 * Self.underBeforeStepUp
            if tried {
                waitBeforeStepUp = min(waitBeforeStepUp * 2, Self.longestWaitBeforeStepUp)
                failedTry = transferBeforeTry.map { (level + 1, $0 / 2) }
            }
            // Far over budget: two rungs, unless this rung was only a try (the one below held).
            next = min(level + (transferMs > 2 * budget && !tried ? 2 : 1), LinkLevel.ladder.count - 1)
        } else if under >= (roomy ? Self.underBeforeStepUp : waitBeforeStepUp) {
            next = max(level - 1, 0)
        }
        guard next != level else {
            if over >= Self.overBeforeStepDown || under >= waitBeforeStepUp { over = 0; under = 0 }
            return false
        }
        lastChangeWasUp = next < level
        transferBeforeTry = lastChangeWasUp ? transferMs : nil
        level = next
        over = 0
        under = 0
        sinceChange = 0
        answerRoundTripMs = nil
        uploadMs = nil
        return true
    }

    static func smoothed(_ average: Double?, _ sample: Double) -> Double {
        guard let average else { return sample }
        return average + smoothing * (sample - average)
    }
}

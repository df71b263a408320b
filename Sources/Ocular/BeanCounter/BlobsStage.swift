import Dispatch
import Synchronization

/// Finds objects on a table and boxes them; given a training list, names every one (its label on a
/// tag by its box, in the label's colour) and attaches a tally steadied over the last few frames.
/// The Image/Mask toggle shows the background mask instead.
///
/// Describing a blob costs more than finding it, so on a stream a blob that lies where a named blob
/// lay in the frame before (boxes overlapping by 0.6 or more) keeps its name, and one such blob a
/// frame, the longest unchecked, is named afresh: a table of ten objects costs about one
/// description a frame once it is still. That one is named from its picture in the frame before,
/// on another core while this frame's blobs are found (most of the finding runs on one).
///
/// The detector reuses its buffers and the tally and the names remember recent frames, so one stage
/// instance belongs to one stream.
public struct BlobsStage: Stage {
    public static let name = "blobs"
    public static let title = "Blobs"
    public static let category = StageCategory.detection
    public static let annotationKinds: [any FrameAnnotation.Type] = [Blob.self]
    public static let summary = "Finds coins, beans and other objects on a table, names each from a training list and counts them."

    /// The “Mask” parameter: Show the background mask (white) the blobs were cut from instead of the picture.
    public static let mask = Key<Bool>.flag(
        "mask", title: "Mask", default: false, help: "Show the background mask (white) the blobs were cut from instead of the picture.")
    /// The “Training list” parameter: Name every blob from this list's pictures and count them (a file on the command line; "default" in the studio).
    public static let training = Key<TrainingListName?>.trainingList(
        "training", title: "Training list",
        help: "Name every blob from this list's pictures and count them (a file on the command line; \"default\" in the studio).")
    /// The “Profile” parameter: default: a lit table, touching objects split; textbook: the book's mask and classifier, for comparison.
    public static let profile = Key<BlobProfile.Name>.choice(
        "profile", title: "Profile", default: .standard,
        help: "default: a lit table, touching objects split; textbook: the book's mask and classifier, for comparison.")
    public static let parameters = declared(mask, training, profile)

    /// Finds the blobs.
    public let detector: BlobDetector
    /// Whether the stage shows the mask the blobs were cut from instead of the frame.
    public let showsMask: Bool
    /// Names the blobs; nil: boxes only.
    public let classifier: BlobClassifier?
    private let memory = StreamMemory()

    public init(_ values: StageValues) throws(StageError) {
        let profile = values[Self.profile].profile
        do {
            detector = try BlobDetector(profile: profile)
        } catch {
            throw StageError(stage: Self.name, parameter: nil, reason: error.description)
        }
        showsMask = values[Self.mask]
        classifier = try values.classifier(Self.training, profile: profile)
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        guard let classifier else {
            let detection = try detector.detect(in: frame.image)
            frame.annotations += detection.blobs as [any FrameAnnotation]
            frame.image = try shown(detection, on: frame.image)
            return frame
        }
        let (detection, recheck) = try memory.detecting(in: frame.image, by: detector, rechecking: classifier)
        let blobs = try detector.rejoined(try memory.named(detection.blobs, by: classifier, rechecked: recheck), in: frame.image, by: classifier)
        let steady = memory.smoother.withLock { $0.add(BlobTally.counts(of: blobs)) }
        frame.annotations += blobs as [any FrameAnnotation]
        frame.annotations.append(BlobTally(counts: steady, classifier: classifier))
        frame.image = try shown(Detection(blobs: blobs, mask: detection.mask), on: frame.image)
        return frame
    }

    private typealias Detection = BlobDetector.Detection

    /// The frame with the blobs drawn on it, or the mask they were cut from.
    private func shown(_ detection: Detection, on image: Image) throws(OcularError) -> Image {
        showsMask ? try detection.mask.resized(width: image.width, height: image.height) : try Self.drawn(detection.blobs, on: image)
    }

    /// `image` with a rectangle round each blob and its outline inside it (where a cut between two
    /// touching objects fell), and for each blob named its label's short name on a tag above its box,
    /// in the label's colour. Gray and YUV frames become BGR so colours show.
    /// - Parameters:
    ///   - blobs: The blobs.
    ///   - image: The frame.
    /// - Returns: The frame with the blobs drawn.
    /// - Throws: ``OcularError`` naming what failed and why.
    public static func drawn(_ blobs: [Blob], on image: Image) throws(OcularError) -> Image {
        var canvas = image.format.channels >= 3 && !image.format.isYUV ? image : try image.converted(to: .bgr8)
        let thickness = max(2, min(canvas.width, canvas.height) / 240)
        let tagHeight = max(8, Double(min(canvas.width, canvas.height)) / 45)
        for blob in blobs {
            try canvas.drawRectangle(blob.bounds, colour: blob.boxColour, thickness: thickness)
            let outline = try blob.outline()
            if outline.count >= 3 { try canvas.drawPolyline(outline + [outline[0]], colour: blob.boxColour, thickness: thickness) }
        }
        // Tags after every box, so no box is drawn over a tag.
        let named = blobs.compactMap { blob in blob.classification.map { (blob, BlobTally.name($0.description, count: 1)) } }
        let sizes = named.map { Image.labelSize($0.1, height: tagHeight) }
        let origins = tagOrigins(boxes: named.map(\.0.bounds), sizes: sizes, width: canvas.width, height: canvas.height, gap: thickness)
        for ((blob, name), origin) in zip(named, origins) {
            try canvas.drawLabel(name, at: origin, height: tagHeight, colour: blob.boxColour)
        }
        return canvas
    }

    /// Where each box's tag goes: above the box, else below it, else inside its top, whichever first
    /// clears the tags placed before (objects that touch would cover each other's names); where
    /// none does, the one overlapping least. A tag is kept inside the picture, as it is drawn.
    static func tagOrigins(boxes: [PixelRectangle], sizes: [(width: Int, height: Int)], width: Int, height: Int,
                           gap: Int) -> [(x: Int, y: Int)] {
        var placed: [PixelRectangle] = []
        var origins: [(x: Int, y: Int)] = []
        for (box, size) in zip(boxes, sizes) {
            let candidates = [(box.x, box.y - size.height - gap), (box.x, box.y + box.height + gap), (box.x + gap, box.y + gap),
                              (box.x + box.width - size.width, box.y - size.height - gap),
                              (box.x + box.width - size.width, box.y + box.height + gap)]
                .map { x, y in
                    PixelRectangle(x: min(max(0, x), max(0, width - size.width)), y: min(max(0, y), max(0, height - size.height)),
                                   width: size.width, height: size.height)
                }
            func overlap(_ tag: PixelRectangle) -> Int {
                placed.reduce(0) { total, other in
                    let w = min(tag.x + tag.width, other.x + other.width) - max(tag.x, other.x)
                    let h = min(tag.y + tag.height, other.y + other.height) - max(tag.y, other.y)
                    return total + max(0, w) * max(0, h)
                }
            }
            let chosen = candidates.first { overlap($0) == 0 } ?? candidates.min { overlap($0) < overlap($1) } ?? candidates[0]
            placed.append(chosen)
            origins.append((chosen.x, chosen.y))
        }
        return origins
    }
}

/// What the stage remembers of its stream: recent counts, and the names of the last frame's blobs.
private final class StreamMemory: Sendable {
    struct Named {
        /// The blob as last seen, named: its picture is what a fresh look describes.
        var blob: Blob
        /// Frames since it was last described.
        var age: Int
        var bounds: PixelRectangle { blob.bounds }
    }

    /// A name looked at afresh: the index of its blob in the frame before, and the answer.
    struct Recheck {
        var index: Int
        var classification: BlobClassification
    }

    let smoother = Mutex(BlobTally.Smoother())
    private let last = Mutex<[Named]>([])

    /// Reused names are checked afresh, the oldest first, once this many frames old.
    static let recheckAge = 3

    /// The blobs of `image`, and beside them, on another core, the longest-unchecked name of the
    /// frame before looked at afresh once it is ``recheckAge`` frames old (the finding spends most of
    /// its time on one core, so the description costs the frame next to nothing).
    func detecting(in image: Image, by detector: BlobDetector, rechecking classifier: BlobClassifier)
        throws(OcularError) -> (BlobDetector.Detection, Recheck?) {
        let previous = last.withLock { $0 }
        guard let due = previous.indices.max(by: { previous[$0].age < previous[$1].age }), previous[due].age + 1 >= Self.recheckAge else {
            return (try detector.detect(in: image), nil)
        }
        // concurrentPerform runs every task before it returns, so neither failure below is ever seen.
        let detection = Mutex(Result<BlobDetector.Detection, OcularError>.failure(.invalidArgument("the blobs were not found")))
        let recheck = Mutex(Result<BlobClassification, OcularError>.failure(.invalidArgument("a blob was not described")))
        let blob = previous[due].blob
        DispatchQueue.concurrentPerform(iterations: 2) { task in
            if task == 0 {
                let found = Result { () throws(OcularError) in try detector.detect(in: image) }
                detection.withLock { $0 = found }
            } else {
                let answer = Result { () throws(OcularError) in try classifier.classify(blob) }
                recheck.withLock { $0 = answer }
            }
        }
        return (try detection.withLock { $0 }.get(), Recheck(index: due, classification: try recheck.withLock { $0 }.get()))
    }

    /// The blobs named: by the last frame's name where a named blob lay (the fresh answer where that
    /// name was `rechecked`), else described now (those together, side by side: a new scene's first
    /// frame names all its objects).
    func named(_ blobs: [Blob], by classifier: BlobClassifier, rechecked: Recheck?) throws(OcularError) -> [Blob] {
        let previous = last.withLock { $0 }
        var named = blobs
        var reused: [Int?] = []
        var taken = Set<Int>()
        for blob in blobs {
            let match = previous.indices.filter { !taken.contains($0) }
                .map { ($0, previous[$0].bounds.intersectionOverUnion(blob.bounds)) }
                .filter { $0.1 >= 0.6 }.max { $0.1 < $1.1 }
            if let (index, _) = match { taken.insert(index) }
            reused.append(match?.0)
        }
        let fresh = reused.indices.filter { reused[$0] == nil }
        var answers = try classifier.classifications(of: fresh.map { blobs[$0] }).makeIterator()
        var memory: [Named] = []
        for (index, match) in reused.enumerated() {
            let answer: BlobClassification, age: Int
            if let match, let rechecked, rechecked.index == match {
                (answer, age) = (rechecked.classification, 0)
            } else if let match {
                // Every blob remembered was named first, so this never skips one.
                guard let kept = previous[match].blob.classification else { continue }
                (answer, age) = (kept, previous[match].age + 1)
            } else if let next = answers.next() {
                // `fresh` lists exactly the blobs without a match, in order, so each takes the next answer.
                (answer, age) = (next, 0)
            } else {
                continue
            }
            named[index].classification = answer
            memory.append(Named(blob: named[index], age: age))
        }
        last.withLock { $0 = memory }
        return named
    }
}

import Dispatch
import Foundation
import Synchronization

/// A classifier's answer for one blob.
public struct BlobClassification: Sendable, Hashable, Codable {
    /// The nearest reference's label, or 0 ("unidentified") when it is farther than the threshold.
    public let label: Int
    /// What the label means.
    public let description: String
    /// The distance to the nearest reference (the profile's scale: 0 to 1 for the default); nil
    /// when there are no references.
    public let distance: Double?
    /// The nearest reference's label, even when it was too far to count.
    public let nearestLabel: Int
    /// The blob's length over the nearest label's at the photo's scale, when the photo's blobs were
    /// named together (``BlobClassifier/classifications(of:)``): about 1 for a whole object, less for
    /// a piece of one; nil when unknown.
    public var lengthRatio: Double? = nil

    /// The distance to four decimals, for JSON and captions.
    public var roundedDistance: Double? { distance.map { ($0 * 10_000).rounded() / 10_000 } }
}

/// One training picture's description and label.
public struct BlobReference: Sendable, Hashable {
    /// The picture it was made from, as the training list names it.
    public let imageFilename: String
    /// The label the reference picture was given in the training list.
    public let label: Int
    /// What the classifier compares new blobs with.
    public let descriptor: BlobDescriptor

    /// Creates a reference.
    /// - Parameters:
    ///   - imageFilename: The training picture it came from.
    ///   - label: Its label.
    ///   - descriptor: Its descriptor.
    public init(imageFilename: String, label: Int, descriptor: BlobDescriptor) {
        self.imageFilename = imageFilename
        self.label = label
        self.descriptor = descriptor
    }
}

/// A training picture that could not be used, and why.
public struct TrainingProblem: Sendable, Hashable, CustomStringConvertible {
    /// The training picture at fault.
    public let imageFilename: String
    /// Why it could not be used.
    public let reason: String
    /// "FILE: reason".
    public var description: String { "\(imageFilename): \(reason)" }

    /// A problem with `imageFilename`, for `reason`.
    /// - Parameters:
    ///   - imageFilename: The training picture's file name, as the list names it.
    ///   - reason: Why it could not be used.
    public init(imageFilename: String, reason: String) {
        self.imageFilename = imageFilename
        self.reason = reason
    }
}

/// Labels blobs by their nearest reference.
public final class BlobClassifier: Sendable {
    /// How blobs are described and compared.
    public let profile: BlobProfile
    /// What each label means; index 0 is "unidentified".
    public let labelDescriptions: [String]
    /// One descriptor per training picture that could be used.
    public let references: [BlobReference]
    /// What objects of each label are worth, from the training list (coins).
    public let values: [Int: TrainingList.Worth]
    /// How long objects of each label are in millimetres, from the training list.
    public let millimetres: [Int: Double]
    /// Distances above this give label 0, "unidentified"; nil: the nearest always wins.
    public let threshold: Double?
    /// One describer per core, the first for blobs named one at a time: ORB keeps buffers, so a
    /// describer describes one blob at a time, and a frame's blobs are named side by side.
    private let describers: [BlobDescriber]
    private var describer: BlobDescriber { describers[0] }
    /// Each reference's label's length (log) where the reference's own is known, for ``named(_:)``.
    private let referenceLogSizes: [Double?]
    /// Each label's length (log), where known.
    private let labelLogSizes: [Int: Double]
    /// ``realSizeWeight`` when ``labelLogSizes`` are the list's millimetres, else ``pictureSizeWeight``.
    private let sizeWeight: Double
    /// The longest of ``labelLogSizes``.
    private let longestLogSize: Double?

    /// Creates a classifier from descriptors already made (a stored model's).
    /// - Parameters:
    ///   - profile: How blobs are described and compared.
    ///   - labelDescriptions: What each label means; index 0 is "unidentified".
    ///   - references: The training pictures' descriptors.
    ///   - threshold: nil takes the profile's default; pass `.infinity` for none.
    ///   - values: What objects of each label are worth.
    ///   - millimetres: How long objects of each label are (``TrainingList/millimetres``).
    /// - Throws: ``OcularError`` when the profile's describer cannot be made.
    public init(profile: BlobProfile, labelDescriptions: [String], references: [BlobReference],
                threshold: Double? = nil, values: [Int: TrainingList.Worth] = [:], millimetres: [Int: Double] = [:]) throws(OcularError) {
        self.profile = profile
        self.labelDescriptions = labelDescriptions.isEmpty ? ["unidentified"] : labelDescriptions
        self.references = references
        self.values = values
        self.millimetres = millimetres
        let chosen = threshold ?? profile.defaultThreshold
        self.threshold = chosen.flatMap { $0.isFinite ? $0 : nil }
        var describers: [BlobDescriber] = []
        for _ in 0..<Self.workers { describers.append(try BlobDescriber(profile: profile)) }
        self.describers = describers
        let (labelLogSizes, real) = Self.labelLogSizes(of: references, millimetres: millimetres)
        self.labelLogSizes = labelLogSizes
        sizeWeight = real ? Self.realSizeWeight : Self.pictureSizeWeight
        longestLogSize = labelLogSizes.values.max()
        self.referenceLogSizes = references.map { $0.descriptor.form == nil ? nil : labelLogSizes[$0.label] }
    }

    /// How many blobs are named at once: the cores, up to 8 (a frame seldom holds more objects
    /// than that per core's worth of work, and each describer keeps its own buffers).
    static let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))

    /// Describes every readable picture of the list; the others are reported, not fatal.
    /// - Parameters:
    ///   - list: The training list.
    ///   - profile: How blobs are described and compared.
    ///   - threshold: nil takes the profile's default; pass `.infinity` for none.
    ///   - pixelLimit: The most pixels the pictures may hold together; past it training stops with
    ///     an error.
    ///   - progress: Called before each picture with its index, the count and its name.
    /// - Returns: The classifier, and the pictures that could not be used with why.
    /// - Throws: ``OcularError`` when no picture can be used or the pixel limit is passed.
    public static func train(_ list: TrainingList, profile: BlobProfile, threshold: Double? = nil,
                             pixelLimit: Int = TrainingList.maximumTotalPixels,
                             progress: (Int, Int, String) -> Void = { _, _, _ in }) throws(OcularError)
        -> (classifier: BlobClassifier, problems: [TrainingProblem]) {
        let describer = try BlobDescriber(profile: profile)
        var references: [BlobReference] = []
        var problems: [TrainingProblem] = []
        var pixels = 0
        for (index, entry) in list.entries.enumerated() {
            progress(index, list.entries.count, entry.imageFilename)
            let image: Image
            do {
                image = try Image(contentsOfFile: list.path(of: entry))
            } catch {
                problems.append(TrainingProblem(imageFilename: entry.imageFilename, reason: Self.reason(error)))
                continue
            }
            pixels += image.width * image.height
            guard pixels <= pixelLimit else {
                throw .invalidArgument("the training pictures hold more than \(Double(pixelLimit) / 1_000_000) megapixels together "
                    + "(reached at '\(entry.imageFilename)', picture \(index + 1) of \(list.entries.count)): shrink them or use fewer")
            }
            do {
                references.append(BlobReference(imageFilename: entry.imageFilename, label: entry.label,
                                                 descriptor: try describer.describe(picture: image)))
            } catch {
                problems.append(TrainingProblem(imageFilename: entry.imageFilename, reason: Self.reason(error)))
            }
        }
        progress(list.entries.count, list.entries.count, "")
        return (try BlobClassifier(profile: profile, labelDescriptions: list.labelDescriptions, references: references,
                                   threshold: threshold, values: list.values, millimetres: list.millimetres), problems)
    }

    /// The file error without the path, which the problem names already.
    private static func reason(_ error: OcularError) -> String {
        switch error {
        case .fileNotFound: "no such file"
        case .unreadableFile(_, let reason), .corruptImage(_, _, let reason): reason
        case .emptyFile: "the file is empty"
        case .notAnImage: "not an image"
        default: error.description
        }
    }

    /// The same references with another threshold (nil: the profile's default).
    /// The same classifier with another threshold.
    /// - Parameter threshold: The new threshold; nil takes the profile's default.
    /// - Returns: The classifier.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func with(threshold: Double?) throws(OcularError) -> BlobClassifier {
        try BlobClassifier(profile: profile, labelDescriptions: labelDescriptions, references: references, threshold: threshold,
                           values: values, millimetres: millimetres)
    }

    /// What the label means, "label N" past the list.
    /// - Parameter label: The label.
    /// - Returns: Its description.
    public func description(of label: Int) -> String {
        labelDescriptions.indices.contains(label) ? labelDescriptions[label] : "label \(label)"
    }

    /// The label of a picture of one object, described as a training picture is.
    /// - Parameter image: The picture.
    /// - Returns: Its label, description and distance.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func classify(_ image: Image) throws(OcularError) -> BlobClassification {
        try classify(describer.describe(picture: image))
    }

    /// The label of a blob found in a frame.
    /// - Parameter blob: The blob.
    /// - Returns: Its label, description and distance.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func classify(_ blob: Blob) throws(OcularError) -> BlobClassification {
        try classify(describer.describe(blob))
    }

    /// The label of the nearest reference; 0 with no references or past the threshold.
    func classify(_ descriptor: BlobDescriptor) throws(OcularError) -> BlobClassification {
        var nearest: (label: Int, distance: Double)?
        for reference in references {
            let distance = try describer.distance(from: descriptor, to: reference.descriptor)
            if nearest == nil || distance < nearest!.distance { nearest = (reference.label, distance) }
        }
        guard let nearest else {
            return BlobClassification(label: 0, description: description(of: 0), distance: nil, nearestLabel: 0)
        }
        return answer(label: nearest.label, distance: nearest.distance)
    }

    /// The blob with its classification.
    /// - Parameter blob: The blob.
    /// - Returns: The blob with ``Blob/classification`` set.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func classified(_ blob: Blob) throws(OcularError) -> Blob {
        var blob = blob
        blob.classification = try classify(blob)
        return blob
    }

    /// The classifications of blobs, described side by side on the machine's cores (describing is
    /// most of naming: a 720p frame of nine objects took 21 ms one at a time on two cores, 11 ms so),
    /// then named together: the objects of one photo share its scale, so their sizes are compared
    /// with the references' at the one scale that fits them all best.
    /// - Parameter blobs: The blobs, in any order.
    /// - Returns: Each blob's label, description and distance, in the blobs' order.
    /// - Throws: ``OcularError`` naming what failed and why: the first blob's, in order, that failed.
    public func classifications(of blobs: [Blob]) throws(OcularError) -> [BlobClassification] {
        let workers = min(describers.count, blobs.count)
        guard workers > 1 else { return try named(blobs.map { (blob) throws(OcularError) in try describer.describe(blob) }) }
        let unanswered = Result<BlobDescriptor, OcularError>.failure(.invalidArgument("a blob was not described"))
        let answers = Mutex([Result<BlobDescriptor, OcularError>](repeating: unanswered, count: blobs.count))
        let next = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            // Each worker takes the next blob not yet taken: blobs differ in size, so no fixed share.
            while case let index = next.add(1, ordering: .relaxed).oldValue, index < blobs.count {
                let answer = Result { () throws(OcularError) in try describers[worker].describe(blobs[index]) }
                answers.withLock { $0[index] = answer }
            }
        }
        return try named(answers.withLock { $0 }.map { (answer) throws(OcularError) in try answer.get() })
    }

    /// How much a factor of e between a blob's length and its label's, at the photo's scale, adds to
    /// its distance when the label is picked, when the list gives real sizes. Chosen with the weights
    /// of the distance (``BlobDescriber``) on the tables' photos tuned on and the made scenes: the
    /// silver coins, a nickel 21.2 mm, a quarter 23.9, are told apart by size alone, and at 0.3 a
    /// quarter of the nickels and quarters took the other's name (coins named 81 %, 85 % at 0.6, 92 %
    /// at 0.8, when beans fell from 100 to 97 and 94 %: white beans took the złoty's name). Before
    /// the scale's fit was held to the threshold, 0.5 and more cost the made rings and heaps their
    /// names: a piece, or two beans in one box, is not its label's size.
    static let realSizeWeight = 0.6
    /// … and when the sizes are the training pictures' own: they are only as alike as the pictures'
    /// distances were (the book's pinto bean, its shadow in, was named a dime at 0.6), so size tips
    /// fewer choices. 0.2–0.3 named the most on real photos and both kinds of made scene.
    static let pictureSizeWeight = 0.3
    /// The photo's scale (its pixels per millimetre when the list gives sizes, else per training
    /// picture pixel) is looked for in steps of 1 %.
    static let scaleStep = 0.01

    /// The classifications of one photo's described blobs. Alone, each blob's nearest reference
    /// wins. Together, each blob's distance to a reference also counts how far its size is from the
    /// reference's at the photo's scale, and the scale is the one whose nearest references are
    /// nearest in sum: a toonie and a quarter of one colour in two photos at different distances
    /// are told apart by being bigger or smaller than the loonie beside them.
    func named(_ descriptors: [BlobDescriptor]) throws(OcularError) -> [BlobClassification] {
        guard !references.isEmpty else { return try descriptors.map { (descriptor) throws(OcularError) in try classify(descriptor) } }
        var distances: [[Double]] = []
        for descriptor in descriptors {
            distances.append(try references.map { (reference) throws(OcularError) in try describer.distance(from: descriptor, to: reference.descriptor) })
        }
        let blobSizes = descriptors.map { $0.form.map { log($0.length) } }
        let sized = blobSizes.compactMap { $0 }
        var scale: Double?
        if sized.count >= 2, let smallest = referenceLogSizes.compactMap({ $0 }).min(), let largest = referenceLogSizes.compactMap({ $0 }).max() {
            // The scale that fits best lies where some blob's size meets some reference's: within the
            // span those differences cover. A blob counts at most the threshold: one nothing is near at
            // any scale (two beans in one box, a piece) pulls no harder than one named nothing. When
            // nothing is near at any scale (none of the objects was trained on), there is no scale.
            let low = sized.min()! - largest, high = sized.max()! - smallest
            let most = threshold ?? .infinity
            var best = Double(distances.count) * most
            for step in 0...Int(((high - low) / Self.scaleStep).rounded(.up)) {
                let candidate = low + Double(step) * Self.scaleStep
                let total = distances.indices.reduce(0.0) { sum, blob in
                    sum + min(most, references.indices.reduce(Double.infinity) {
                        min($0, distances[blob][$1] + sizeDistance(blobSizes[blob], referenceLogSizes[$1], scale: candidate))
                    })
                }
                if total < best { (best, scale) = (total, candidate) }
            }
        }
        return distances.indices.map { blob in
            let costs = references.indices.map { reference in
                distances[blob][reference] + (scale.map { sizeDistance(blobSizes[blob], referenceLogSizes[reference], scale: $0) } ?? 0)
            }
            // The size picks the reference; the distance told (and held to the threshold) is the
            // reference's own, as when the blob is named alone, so a part and a whole compare alike.
            let nearest = costs.indices.min { costs[$0] < costs[$1] }!
            var answer = answer(label: references[nearest].label, distance: distances[blob][nearest])
            if let scale, let size = blobSizes[blob], let reference = referenceLogSizes[nearest] { answer.lengthRatio = exp(size - scale - reference) }
            return answer
        }
    }

    /// Each label's length (log) where its pictures' forms are known: the list's millimetres
    /// when it gives every such label one, so the photo's scale is its pixels per millimetre;
    /// otherwise the median of the label's pictures' log lengths, in their pixels. Training pictures
    /// cut from photos taken at other distances differ by a fifth and more (the shared tables'
    /// nickels 126–208 pixels), more than a nickel and a quarter do.
    /// - Returns: The sizes, and whether they are millimetres.
    private static func labelLogSizes(of references: [BlobReference], millimetres: [Int: Double]) -> ([Int: Double], real: Bool) {
        let labels = Set(references.filter { $0.descriptor.form != nil }.map(\.label))
        var labelSizes: [Int: Double] = [:]
        if !labels.isEmpty, labels.allSatisfy({ millimetres[$0] != nil }) {
            for label in labels { labelSizes[label] = log(millimetres[label]!) }
            return (labelSizes, true)
        }
        for label in labels {
            let sizes = references.filter { $0.label == label }.compactMap { $0.descriptor.form.map { log($0.length) } }.sorted()
            if !sizes.isEmpty { labelSizes[label] = (sizes[(sizes.count - 1) / 2] + sizes[sizes.count / 2]) / 2 }
        }
        return (labelSizes, false)
    }

    /// How long a blob so classified is against the longest label at its photo's scale (1: as long
    /// as the longest object trained on); nil when unknown.
    func lengthAgainstLongest(_ classification: BlobClassification) -> Double? {
        guard let ratio = classification.lengthRatio, let own = labelLogSizes[classification.nearestLabel],
              let longest = longestLogSize else { return nil }
        return ratio * exp(own - longest)
    }

    /// ``sizeWeight`` times how far apart two log sizes are at the photo's log scale; 0 when either is unknown.
    private func sizeDistance(_ blob: Double?, _ reference: Double?, scale: Double) -> Double {
        guard let blob, let reference else { return 0 }
        return sizeWeight * abs(blob - scale - reference)
    }

    /// The nearest reference's label, or 0 past the threshold.
    private func answer(label nearest: Int, distance: Double) -> BlobClassification {
        let label = threshold.map { distance > $0 } == true ? 0 : nearest
        return BlobClassification(label: label, description: description(of: label), distance: distance, nearestLabel: nearest)
    }

    /// The blobs with their classifications, named side by side (``classifications(of:)``).
    /// - Parameter blobs: The blobs.
    /// - Returns: The same blobs in the same order, each with ``Blob/classification`` set.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func classified(_ blobs: [Blob]) throws(OcularError) -> [Blob] {
        var named = blobs
        for (index, answer) in try classifications(of: blobs).enumerated() { named[index].classification = answer }
        return named
    }

    /// The bytes the references hold.
    public var byteCount: Int { references.reduce(0) { $0 + $1.descriptor.byteCount + $1.imageFilename.utf8.count } }
}

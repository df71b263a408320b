import Ocular

/// How well a detector finds labelled faces: per species, how many labelled faces it found
/// (recall), how many of its boxes are faces (precision), and how well found boxes fit (mean IoU).
/// A box finds a labelled face of its own species when their IoU is at least ``overlap`` (by default
/// ``requiredOverlap``); each label and each box count once (greedily, best overlap first).
package struct FaceEvaluation: Sendable {
    /// The least intersection over union a found box needs with a label to count as finding it.
    package static let requiredOverlap = 0.5

    /// The figures of one species (or of all together).
    package struct Tally: Sendable, Hashable {
        package var labelled = 0
        package var found = 0
        package var matched = 0
        /// The sum of the matched boxes' IoU with their labels.
        package var overlapSum = 0.0

        package init() {}

        /// Found labels over all labels; 1 when there was nothing to find.
        package var recall: Double { labelled == 0 ? 1 : Double(matched) / Double(labelled) }
        /// Boxes that found a label over all boxes; 1 when nothing was reported.
        package var precision: Double { found == 0 ? 1 : Double(matched) / Double(found) }
        package var meanOverlap: Double { matched == 0 ? 0 : overlapSum / Double(matched) }

        package static func + (lhs: Tally, rhs: Tally) -> Tally {
            var sum = lhs
            sum.labelled += rhs.labelled
            sum.found += rhs.found
            sum.matched += rhs.matched
            sum.overlapSum += rhs.overlapSum
            return sum
        }
    }

    /// A labelled face no box found, or a box that found no labelled face.
    package struct Mistake: Sendable, Hashable {
        package var picture: String
        package var face: LabelledFace
    }

    package private(set) var tallies: [Species: Tally] = [:]
    /// The same per group of pictures (the sweep's axes), for pictures that name one.
    package private(set) var groups: [String: [Species: Tally]] = [:]
    package private(set) var misses: [Mistake] = []
    package private(set) var falseBoxes: [Mistake] = []
    /// How many pictures were scored.
    package private(set) var pictures = 0

    /// The least IoU with a label that finds it, for this evaluation.
    package let overlap: Double

    package init(overlap: Double = Self.requiredOverlap) { self.overlap = overlap }

    /// Every species together.
    package var overall: Tally { tallies.values.reduce(Tally(), +) }

    package func tally(_ species: Species) -> Tally { tallies[species] ?? Tally() }

    /// Scores what a detector found in one picture against its labels.
    package mutating func score(picture: String, group: String? = nil, labels: [LabelledFace], found: [LabelledFace]) {
        pictures += 1
        for species in Set(labels.map(\.species) + found.map(\.species)) {
            let truth = labels.filter { $0.species == species }, boxes = found.filter { $0.species == species }
            var tally = Tally()
            tally.labelled = truth.count
            tally.found = boxes.count
            // Greedy, best overlap first: enough for boxes that rarely overlap each other.
            var pairs: [(label: Int, box: Int, overlap: Double)] = []
            for (labelIndex, label) in truth.enumerated() {
                for (boxIndex, box) in boxes.enumerated() {
                    let overlap = label.bounds.intersectionOverUnion(box.bounds)
                    if overlap >= self.overlap { pairs.append((labelIndex, boxIndex, overlap)) }
                }
            }
            var usedLabels = Set<Int>(), usedBoxes = Set<Int>()
            for pair in pairs.sorted(by: { $0.overlap > $1.overlap }) where !usedLabels.contains(pair.label) && !usedBoxes.contains(pair.box) {
                usedLabels.insert(pair.label)
                usedBoxes.insert(pair.box)
                tally.matched += 1
                tally.overlapSum += pair.overlap
            }
            misses += truth.indices.filter { !usedLabels.contains($0) }.map { Mistake(picture: picture, face: truth[$0]) }
            falseBoxes += boxes.indices.filter { !usedBoxes.contains($0) }.map { Mistake(picture: picture, face: boxes[$0]) }
            tallies[species, default: Tally()] = tallies[species, default: Tally()] + tally
            if let group { groups[group, default: [:]][species, default: Tally()] = groups[group, default: [:]][species, default: Tally()] + tally }
        }
        // A picture with nothing labelled and nothing found still counts in its group.
        if let group, groups[group] == nil { groups[group] = [:] }
    }

    /// Runs `detector` on every picture of `list` and scores it.
    /// - Parameter progress: Called before each picture with its index, the count and its file.
    /// - Returns: The evaluation, and the pictures that could not be read with why.
    package static func evaluate(_ detector: FaceDetector, on list: FaceLabelList, readOptions: ImageReadOptions = ImageReadOptions(),
                                progress: (Int, Int, String) -> Void = { _, _, _ in }) throws(OcularError) -> (FaceEvaluation, [TrainingProblem]) {
        let (evaluations, problems) = try evaluate([detector], on: list, readOptions: readOptions, progress: progress)
        return (evaluations[0], problems)
    }

    /// Runs each of `detectors` on every picture of `list` (each picture read once) and scores them.
    /// - Parameter progress: Called before each picture with its index, the count and its file.
    /// - Returns: One evaluation per detector, in order, and the pictures that could not be read with why.
    package static func evaluate(_ detectors: [any FaceFinding], on list: FaceLabelList,
                                readOptions: ImageReadOptions = ImageReadOptions(),
                                progress: (Int, Int, String) -> Void = { _, _, _ in }) throws(OcularError) -> ([FaceEvaluation], [TrainingProblem]) {
        var evaluations = detectors.map { _ in FaceEvaluation() }, problems: [TrainingProblem] = []
        for (index, entry) in list.entries.enumerated() {
            progress(index, list.entries.count, entry.file)
            let image: Image
            do {
                image = try Image(contentsOfFile: list.path(of: entry), options: readOptions)
            } catch {
                problems.append(TrainingProblem(imageFilename: entry.file, reason: error.description))
                continue
            }
            for (number, detector) in detectors.enumerated() {
                evaluations[number].score(picture: entry.file, group: entry.group, labels: entry.faces, found: try detector.labelledFaces(in: image))
            }
        }
        progress(list.entries.count, list.entries.count, "")
        return (evaluations, problems)
    }
}

/// Anything that finds faces an evaluation can score: a profile's detector, or plain OpenCV's cascade.
package protocol FaceFinding {
    /// The faces in `image`, as boxes and species.
    func labelledFaces(in image: Image) throws(OcularError) -> [LabelledFace]
}

extension FaceDetector: FaceFinding {
    package func labelledFaces(in image: Image) throws(OcularError) -> [LabelledFace] {
        try faces(in: image).map { LabelledFace(species: $0.species, bounds: $0.bounds) }
    }
}

extension OpenCVFaceBaseline: FaceFinding {
    package func labelledFaces(in image: Image) throws(OcularError) -> [LabelledFace] { try faces(in: image) }
}

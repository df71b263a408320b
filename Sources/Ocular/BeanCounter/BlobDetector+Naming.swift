import Foundation

extension BlobDetector {
    /// The blobs of `image`, named by `classifier`, biggest first, with the separating detection's
    /// fragments joined back (``rejoined(_:in:by:)``).
    /// - Parameters:
    ///   - image: The frame, in any format.
    ///   - classifier: Names the blobs.
    /// - Returns: The blobs, each classified.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func named(in image: Image, by classifier: BlobClassifier) throws(OcularError) -> [Blob] {
        try rejoined(try classifier.classified(detect(in: image).blobs), in: image, by: classifier)
    }

    /// Named `blobs` of `image` with the separation's fragments joined back: a cut is kept only where
    /// the parts are nearer a training picture than the whole. Each part the classifier names nothing
    /// (beyond its threshold) or names doubtfully (``Separation/rejoinDoubt``), the smallest first, is
    /// joined to the touching named neighbour with which it makes the nearest whole, when the whole is
    /// named as that neighbour, no farther from its reference (``Separation/rejoinSlack``), and no less
    /// an ellipse (``Separation/rejoinEllipseLoss``): a bean's end or its shaded side cut off, a coin's
    /// rim outside its circle. Two beans end to end or side by side make a worse ellipse than either.
    /// A part much shorter than its label at the photo's scale (``Separation/rejoinShort``) is
    /// doubtful too, and may also join a neighbour with which it comes nearer the label's length.
    /// Blobs along the frame's edge that are no ellipses and together run longer than the longest
    /// label (``Separation/edgeLongest``) are left out, and so is such a blob filling a corner of the
    /// frame (``Separation/edgeCornerEllipse``): the table's end or its shade.
    /// The textbook's detection, and a classifier without a threshold, leave the blobs as they are.
    /// - Parameters:
    ///   - blobs: The blobs this detector found in `image`, classified.
    ///   - image: The frame (its size sets how near two parts must lie).
    ///   - classifier: What named them.
    /// - Returns: The blobs, biggest first.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func rejoined(_ blobs: [Blob], in image: Image, by classifier: BlobClassifier) throws(OcularError) -> [Blob] {
        guard case .separating(let separation) = method, classifier.threshold != nil else { return blobs }
        // The parts of one cut lie side by side in the working copy, so their masks in the frame come
        // within a working pixel or two of each other.
        let workingPixel = max(1, Double(min(image.width, image.height)) / Double(separation.workingShortSide))
        let reach = max(1, Int((separation.rejoinReach * workingPixel).rounded(.up)))
        func short(_ blob: Blob) -> Bool { (blob.classification?.lengthRatio ?? 1) < separation.rejoinShort }
        func doubtful(_ blob: Blob) -> Bool { blob.label == 0 || (blob.classification?.distance ?? 0) >= separation.rejoinDoubt || short(blob) }
        // nil where a fragment was joined into a neighbour.
        var blobs: [Blob?] = blobs
        let fragments = blobs.indices.filter { blobs[$0].map { doubtful($0) && $0.mask != nil } ?? false }
            .sorted { blobs[$0]!.bounds.area < blobs[$1]!.bounds.area }
        for fragmentIndex in fragments {
            // A fragment already joined into an earlier whole is gone.
            guard let fragment = blobs[fragmentIndex] else { continue }
            // A part named nothing is no object on its own; a part with a name may be one, so the whole
            // must be as good an ellipse as its neighbour, within the measure's wobble.
            let ellipseLoss = fragment.label == 0 ? separation.rejoinEllipseLoss : separation.rejoinNamedEllipseLoss
            var best: (index: Int, whole: Blob, distance: Double)?
            for (index, neighbour) in blobs.enumerated() where index != fragmentIndex {
                guard let neighbour, neighbour.label != 0, let alone = neighbour.classification?.distance, neighbour.mask != nil,
                      try fragment.border(with: neighbour, reach: reach) > 0 else { continue }
                // A piece much shorter than its label may also join a neighbour with which it comes
                // nearer the label's length than the neighbour alone; two whole beans make one too long.
                let nearerLength = short(fragment) && neighbour.classification?.lengthRatio.map { ratio in
                    guard let alone = BlobDescriber.form(of: neighbour),
                          let together = BlobDescriber.form(of: PixelMoments(of: fragment) + PixelMoments(of: neighbour)) else { return false }
                    return abs(log(together.length / alone.length * ratio)) < abs(log(ratio))
                } == true
                guard nearerLength || Blob.ellipseAgreement(of: [fragment, neighbour]) >= neighbour.ellipseAgreement - ellipseLoss else { continue }
                let whole = try classifier.classified(try fragment.joined(with: neighbour))
                guard whole.label == neighbour.label, let distance = whole.classification?.distance,
                      nearerLength || distance <= alone + separation.rejoinSlack, distance < best?.distance ?? .infinity else { continue }
                best = (index, whole, distance)
            }
            guard let best else { continue }
            blobs[best.index] = best.whole
            blobs[fragmentIndex] = nil
        }
        return Self.withoutEdgeStrips(blobs.compactMap { $0 }, in: image, by: classifier, longest: separation.edgeLongest, reach: reach,
                                      pieceEllipse: separation.edgeEllipse, cornerEllipse: separation.edgeCornerEllipse)
            .sorted(by: Blob.biggestFirst)
    }

    /// The blobs without what runs along the frame's edge longer than any object: the table's end or
    /// what lies beyond it, in one piece or several side by side, each an ellipse less well than
    /// `pieceEllipse` (objects the edge cuts that are still ellipses, side by side in a ring, are no
    /// pieces and stay). An object the edge cuts is never longer than the whole. The longest label's
    /// length at the photo's scale is known from any blob named with its photo
    /// (``BlobClassification/lengthRatio``); without it, no run is left out. A blob touching two edges
    /// at a corner that is an ellipse less well than `cornerEllipse` goes whatever its length.
    static func withoutEdgeStrips(_ blobs: [Blob], in image: Image, by classifier: BlobClassifier, longest: Double, reach: Int,
                                  pieceEllipse: Double, cornerEllipse: Double) -> [Blob] {
        // Only blobs at the edge are measured: the ellipse's fit reads every pixel of a blob.
        var agreement: [Int: Double] = [:]
        var strip = Set<Int>()
        for (index, blob) in blobs.enumerated() {
            let box = blob.bounds
            let leftOrRight = box.x <= 0 || box.x + box.width >= image.width, topOrBottom = box.y <= 0 || box.y + box.height >= image.height
            guard leftOrRight || topOrBottom else { continue }
            let ellipse = blob.ellipseAgreement
            agreement[index] = ellipse
            if leftOrRight && topOrBottom && ellipse < cornerEllipse { strip.insert(index) }
        }
        let longestPixels = blobs.lazy.compactMap { blob -> Double? in
            guard let ratio = blob.classification.flatMap(classifier.lengthAgainstLongest), ratio > 0,
                  let form = BlobDescriber.form(of: blob) else { return nil }
            return form.length / ratio
        }.first
        if let longestPixels {
            // Each edge's pieces as spans along it; spans that meet make one run.
            let edges: [(touches: (PixelRectangle) -> Bool, span: (PixelRectangle) -> (Int, Int))] = [
                ({ $0.y <= 0 }, { ($0.x, $0.x + $0.width) }), ({ $0.y + $0.height >= image.height }, { ($0.x, $0.x + $0.width) }),
                ({ $0.x <= 0 }, { ($0.y, $0.y + $0.height) }), ({ $0.x + $0.width >= image.width }, { ($0.y, $0.y + $0.height) }),
            ]
            for edge in edges {
                let along = blobs.indices.filter { edge.touches(blobs[$0].bounds) && agreement[$0, default: 1] < pieceEllipse }
                    .map { ($0, edge.span(blobs[$0].bounds)) }.sorted { $0.1.0 < $1.1.0 }
                var run: [Int] = [], start = 0, end = Int.min
                for (index, (from, to)) in along + [(-1, (Int.max, Int.max))] {
                    if from > end + reach {
                        if Double(end - start) > longest * longestPixels { strip.formUnion(run) }
                        (run, start, end) = ([], from, to)
                    }
                    run.append(index)
                    end = max(end, to)
                }
            }
        }
        return blobs.indices.filter { !strip.contains($0) }.map { blobs[$0] }
    }
}

extension Blob {
    /// The order blobs are listed in: the bigger rectangle first, then top to bottom, left to right.
    static func biggestFirst(_ a: Blob, _ b: Blob) -> Bool {
        a.bounds.area != b.bounds.area ? a.bounds.area > b.bounds.area : (a.bounds.y, a.bounds.x) < (b.bounds.y, b.bounds.x)
    }

    /// How nearly the blob's own pixels are an ellipse: their intersection over union with the
    /// ellipse of the same second moments (1 for an ellipse; two discs side by side about 0.8);
    /// 0 without a mask.
    var ellipseAgreement: Double { Self.ellipseAgreement(of: [self]) }

    /// ``ellipseAgreement`` of blobs' own pixels taken together, as if they were one blob: the
    /// moments add up, so a whole is judged before its picture is put together.
    static func ellipseAgreement(of blobs: [Blob]) -> Double {
        let moments = blobs.reduce(PixelMoments()) { $0 + PixelMoments(of: $1) }
        guard let ellipse = moments.ellipse else { return 0 }
        let inside = blobs.reduce(0) { $0 + ellipse.count(of: $1) }
        return Double(inside) / (moments.count + ellipse.area - Double(inside))
    }
    /// How many of `other`'s own pixels lie within `reach` pixels (across or along) of this blob's own.
    /// - Throws: ``OcularError`` when the mask cannot be widened.
    func border(with other: Blob, reach: Int) throws(OcularError) -> Int {
        guard let mask, let otherMask = other.mask else { return 0 }
        let widened = PixelRectangle(x: bounds.x - reach, y: bounds.y - reach, width: bounds.width + 2 * reach, height: bounds.height + 2 * reach)
        guard widened.intersects(other.bounds) else { return 0 }
        let near = try mask.padded(left: reach, top: reach, right: reach, bottom: reach, value: 0).dilated(by: 2 * reach + 1)
        let left = max(widened.x, other.bounds.x), right = min(widened.x + widened.width, other.bounds.x + other.bounds.width)
        let top = max(widened.y, other.bounds.y), bottom = min(widened.y + widened.height, other.bounds.y + other.bounds.height)
        var count = 0
        for y in top..<bottom {
            let nearRow = (y - widened.y) * near.bytesPerRow, otherRow = (y - other.bounds.y) * otherMask.bytesPerRow
            for x in left..<right where otherMask.bytes[otherRow + x - other.bounds.x] != 0 && near.bytes[nearRow + x - widened.x] != 0 {
                count += 1
            }
        }
        return count
    }

    /// This blob and `other` as one, unclassified: the rectangle holding both, each one's pixels from
    /// its own picture (so neither's neighbours enter it), both masks, and the table's brightness
    /// under the two weighed by their rectangles' areas.
    /// - Throws: ``OcularError`` when either has no mask or their pictures are not BGR.
    func joined(with other: Blob) throws(OcularError) -> Blob {
        guard let mask, let otherMask = other.mask, image.format == .bgr8, other.image.format == .bgr8 else {
            throw .invalidArgument("only blobs with masks and BGR pictures can be joined, got \(image) and \(other.image)")
        }
        let left = min(bounds.x, other.bounds.x), top = min(bounds.y, other.bounds.y)
        let right = max(bounds.x + bounds.width, other.bounds.x + other.bounds.width)
        let bottom = max(bounds.y + bounds.height, other.bounds.y + other.bounds.height)
        let union = PixelRectangle(x: left, y: top, width: right - left, height: bottom - top)
        let gray = UInt8(clamping: Int((tableBrightness ?? other.tableBrightness ?? 128).rounded()))
        var pixels = [UInt8](repeating: gray, count: union.width * union.height * 3)
        var ownPixels = [UInt8](repeating: 0, count: union.width * union.height)
        // The other's rectangle first, then this one's over it, then the other's own pixels over all.
        for (part, partMask, onlyOwn) in [(other, otherMask, false), (self, mask, false), (other, otherMask, true)] {
            for y in 0..<part.bounds.height {
                let row = (part.bounds.y - top + y) * union.width + part.bounds.x - left
                for x in 0..<part.bounds.width {
                    let own = partMask.bytes[y * partMask.bytesPerRow + x] != 0
                    guard own || !onlyOwn else { continue }
                    let source = y * part.image.bytesPerRow + 3 * x, target = 3 * (row + x)
                    pixels[target] = part.image.bytes[source]
                    pixels[target + 1] = part.image.bytes[source + 1]
                    pixels[target + 2] = part.image.bytes[source + 2]
                    if own { ownPixels[row + x] = 255 }
                }
            }
        }
        let weights = (Double(bounds.area), Double(other.bounds.area))
        let brightness = tableBrightness.flatMap { own in
            other.tableBrightness.map { (own * weights.0 + $0 * weights.1) / (weights.0 + weights.1) }
        } ?? tableBrightness ?? other.tableBrightness
        return Blob(image: try Image(width: union.width, height: union.height, format: .bgr8, bytes: pixels), bounds: union,
                    mask: try Image(width: union.width, height: union.height, format: .gray8, bytes: ownPixels), tableBrightness: brightness)
    }
}

/// The zeroth, first and second moments of a set of pixels, in frame coordinates: two sets'
/// moments add up to their union's.
struct PixelMoments {
    var count = 0.0, sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumYY = 0.0, sumXY = 0.0

    init() {}

    /// The moments of a blob's own pixels; none without a mask.
    init(of blob: Blob) {
        guard let mask = blob.mask else { return }
        for y in 0..<mask.height {
            let row = y * mask.bytesPerRow, py = Double(blob.bounds.y + y)
            var rowCount = 0.0, rowSumX = 0.0, rowSumXX = 0.0
            for x in 0..<mask.width where mask.bytes[row + x] != 0 {
                let px = Double(blob.bounds.x + x)
                rowCount += 1; rowSumX += px; rowSumXX += px * px
            }
            count += rowCount; sumX += rowSumX; sumXX += rowSumXX
            sumY += rowCount * py; sumYY += rowCount * py * py; sumXY += rowSumX * py
        }
    }

    static func + (a: PixelMoments, b: PixelMoments) -> PixelMoments {
        var sum = a
        sum.count += b.count; sum.sumX += b.sumX; sum.sumY += b.sumY
        sum.sumXX += b.sumXX; sum.sumYY += b.sumYY; sum.sumXY += b.sumXY
        return sum
    }

    /// The centre, the covariance's entries, and its eigenvalues (the variances along the ellipse's
    /// long and short axes); nil for fewer than three pixels or pixels on a line.
    private var spread: (meanX: Double, meanY: Double, xx: Double, yy: Double, xy: Double, major: Double, minor: Double)? {
        guard count > 2 else { return nil }
        let (meanX, meanY) = (sumX / count, sumY / count)
        let xx = sumXX / count - meanX * meanX, yy = sumYY / count - meanY * meanY, xy = sumXY / count - meanX * meanY
        let half = (xx + yy) / 2, spread = ((xx - yy) * (xx - yy) / 4 + xy * xy).squareRoot()
        guard half - spread > 0 else { return nil }
        return (meanX, meanY, xx, yy, xy, half + spread, half - spread)
    }

    /// The variances along the ellipse's long and short axes; nil for fewer than three pixels or pixels on a line.
    var axes: (major: Double, minor: Double)? { spread.map { ($0.major, $0.minor) } }

    /// The ellipse of the same moments; nil for fewer than three pixels or pixels on a line.
    var ellipse: MomentEllipse? {
        // The covariance's eigenvalues are the variances along the axes; an ellipse of semi-axes a, b
        // has variances a²/4 and b²/4.
        guard let (meanX, meanY, xx, yy, xy, major, minor) = spread else { return nil }
        let angle = 0.5 * atan2(2 * xy, xx - yy)
        return MomentEllipse(centreX: meanX, centreY: meanY, cosine: cos(angle), sine: sin(angle),
                             inverseMajor: 1 / (4 * major), inverseMinor: 1 / (4 * minor), area: Double.pi * 4 * (major * minor).squareRoot())
    }
}

/// An ellipse in frame coordinates, as ``PixelMoments/ellipse`` gives it.
struct MomentEllipse {
    var centreX: Double, centreY: Double, cosine: Double, sine: Double
    /// 1 / a² and 1 / b², a and b its semi-axes.
    var inverseMajor: Double, inverseMinor: Double
    var area: Double

    /// How many of the blob's own pixels lie inside.
    func count(of blob: Blob) -> Int {
        guard let mask = blob.mask else { return 0 }
        var inside = 0
        for y in 0..<mask.height {
            let row = y * mask.bytesPerRow, dy = Double(blob.bounds.y + y) - centreY
            for x in 0..<mask.width where mask.bytes[row + x] != 0 {
                let dx = Double(blob.bounds.x + x) - centreX
                let along = dx * cosine + dy * sine, across = dy * cosine - dx * sine
                if along * along * inverseMajor + across * across * inverseMinor <= 1 { inside += 1 }
            }
        }
        return inside
    }
}

import Foundation
import Ocular
internal import OcularAlgorithms
internal import OpenCVBridge
internal import OpenCVBridge

/// Rings and heaps, photographed as a tablet or a webcam does.
///
/// Users of a bean counter lay their objects as the textbook's users did: a coin in the middle of a
/// sheet of paper with beans in a ring around it, or beans pushed into a heap, every object touching
/// two or more others; and they photograph them from above with a tablet (2–5 megapixels, a JPEG
/// with an EXIF orientation) under a ceiling light, or hold them under a webcam. These scenes are
/// that: objects in contact (their outlines meeting or lying a little over each other), some cut by
/// the frame's edge, soft contact shadows under overhead light, the view tilted up to 15°, the
/// corners darker (vignetting), the white balance a few hundred kelvin off, JPEG; and what real
/// photos of tables show besides (``TableLook``): dark card under a lamp, paper exposed darker than
/// white, the camera farther away, coins shining.
extension BlobScenes {
    /// How a scene's objects lie on the table.
    package enum Arrangement: String, Sendable, CaseIterable, Codable {
        /// Strewn, some pairs touching: ``BlobScenes/scene(_:width:height:objects:)``.
        case scattered
        /// A coin in the middle and the objects that fit around it (5–14), each touching it and the next.
        case ring
        /// 5–15 objects pushed together, most touching two or more others.
        case heap
    }

    /// The scene of that index and arrangement, the same every time. Scattered scenes are
    /// ``scene(_:width:height:objects:)``'s; rings and heaps are photographs: three in four a
    /// tablet's (1632×1224 to 2592×1936, either way up, stored turned with the EXIF orientation
    /// that turns them back), one in four a webcam's 1280×720 frame.
    package func scene(_ index: Int, arrangement: Arrangement) throws(OcularError) -> Scene {
        guard arrangement != .scattered else { return try scene(index) }
        // Not index × SplitMix's own increment, as the scattered scenes are seeded: there, scene i + 1
        // draws scene i's numbers one step on.
        var random = SeededGenerator(seed: (arrangement == .ring ? 0x21_4E6 : 0x4E_A9) &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        let webcam = index % 4 == 3
        let tabletSizes = [(1632, 1224), (2048, 1536), (2304, 1728), (2592, 1936)]
        var (width, height) = webcam ? (1280, 720) : tabletSizes[Int.random(in: 0..<tabletSizes.count, using: &random)]
        if !webcam, Bool.random(using: &random) { swap(&width, &height) }
        let shortSide = Double(min(width, height))

        // The arrangement around (0, 0) in millimetres, then scaled so it spans 35–80 % of the short side.
        let coins = objects.indices.filter { !objects[$0].isBean }, beans = objects.indices.filter { objects[$0].isBean }
        let anyObject = Array(objects.indices)
        let pickMember = { (random: inout SeededGenerator) -> Int in
            let pool = !beans.isEmpty && (coins.isEmpty || Double.random(in: 0..<1, using: &random) < 0.8) ? beans : anyObject
            return pool[Int.random(in: 0..<pool.count, using: &random)]
        }
        var layout = Layout(objects: objects)
        switch arrangement {
        case .ring:
            let middle = coins.isEmpty ? anyObject : coins
            layout.ring(around: middle[Int.random(in: 0..<middle.count, using: &random)], members: 14, pick: pickMember, random: &random)
        case .heap:
            layout.heap(count: Int.random(in: 5...15, using: &random), pick: pickMember, random: &random)
        case .scattered:
            break
        }
        let span = max(layout.span(), 1)
        // What real tables add (dark card, exposure, distance, glints), from a generator of its own so
        // that every other choice stays what it was (seeded as `random` is, for the same reason).
        var lookRandom = SeededGenerator(seed: (arrangement == .ring ? 0x7AB_1E5 : 0x7AB_1E6) &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        let look = TableLook(random: &lookRandom)
        let fill = Double.random(in: 0.35...0.8, using: &random) * look.fillFactor
        let pixelsPerMillimetre = fill * shortSide / span
        // One scene in four is framed carelessly: the arrangement's middle lies near an edge, and
        // some objects are cut by it.
        let cut = index % 4 == 1
        var centre = Point(x: Double(width) / 2 + Double.random(in: -0.1...0.1, using: &random) * Double(width),
                           y: Double(height) / 2 + Double.random(in: -0.1...0.1, using: &random) * Double(height))
        if cut {
            // The object farthest towards one side is cut by that edge, 20–40 % of it outside.
            let side = Int.random(in: 0..<4, using: &random), outside = Double.random(in: 0.2...0.4, using: &random)
            let (near, far) = layout.outermost(towards: side)
            let offset = (near + outside * (far - near)) * pixelsPerMillimetre
            switch side {
            case 0: centre.x = -offset
            case 1: centre.x = Double(width) - offset
            case 2: centre.y = -offset
            default: centre.y = Double(height) - offset
            }
        }
        let placements = layout.placements.map { placement in
            Placement(object: placement.object, centre: Point(x: centre.x + placement.centre.x * pixelsPerMillimetre,
                                                              y: centre.y + placement.centre.y * pixelsPerMillimetre),
                      degrees: placement.degrees, scale: placement.scale * pixelsPerMillimetre)
        }

        // A sheet of paper or a table, lit from above: each object's shadow lies under it, soft, and
        // where objects meet their shadows add up (the dark seam a camera sees between touching beans).
        let tables: [[UInt8]] = [[238, 240, 242], [232, 236, 240], [226, 226, 222], [214, 204, 188], [205, 220, 214]]
        let paper = tables[index % 2 == 0 ? Int.random(in: 0..<2, using: &random) : Int.random(in: 0..<tables.count, using: &random)]
        var canvas = try Image(width: width, height: height, format: .bgr8, filledWith: look.table(paper: paper))
        let shadowDirection = Double.random(in: 0..<(2 * .pi), using: &random)
        let shadows = placements.map { _ in (sigma: Double.random(in: 0.04...0.07, using: &random), strength: Double.random(in: 0.35...0.55, using: &random)) }

        // The camera: tilted up to 15° (the near edge of the view magnified against the far one),
        // light falling off to one side and to the corners, the white balance off, noise, JPEG.
        let tilt = Double.random(in: 0...15, using: &random)
        let homography = try Self.tiltedView(width: width, height: height, degrees: tilt, edge: Int.random(in: 0..<4, using: &random))
        // Each outline through the camera: an object less than half inside the frame is not laid at
        // all (nobody would count it), one partly inside is labelled by what shows.
        let outlines = placements.map { placement in objects[placement.object].outline.map { homography.map(placement.map($0)) } }
        let laid = outlines.map { points in
            points.filter { $0.x >= 0 && $0.y >= 0 && $0.x < Double(width) && $0.y < Double(height) }.count * 2 >= points.count
        }
        for (index, placement) in placements.enumerated() where laid[index] {
            let object = objects[placement.object]
            let size = placement.radius(object.outline) * 2
            try lay(object, at: placement, on: &canvas, shadowX: cos(shadowDirection) * 0.02 * size, shadowY: sin(shadowDirection) * 0.02 * size,
                    shadowSigma: shadows[index].sigma * size, shadowStrength: shadows[index].strength)
        }
        let coinOutlines = placements.indices.filter { laid[$0] && !objects[placements[$0].object].isBean }
            .map { index in objects[placements[index].object].outline.map(placements[index].map) }
        canvas = try TableLook.glinting(canvas, coins: coinOutlines, random: &lookRandom)
        canvas = try canvas.warped(byHomography: homography)
        let falloff = Double.random(in: 0...0.2, using: &random), vignetting = look.vignetting(Double.random(in: 0.1...0.35, using: &random))
        let lightAngle = Double.random(in: 0..<(2 * .pi), using: &random)
        let kelvin = (Bool.random(using: &random) ? 1.0 : -1.0) * Double.random(in: 200...600, using: &random)
        try canvas.multiplyByLight(falloff: falloff, towards: lightAngle, vignetting: vignetting, kelvinOff: kelvin, exposure: look.exposure)
        try canvas.addNoise(sigma: Double.random(in: 1.5...3, using: &random), seed: random.next())
        let quality = Int.random(in: 80...92, using: &random)
        let orientation = webcam ? 1 : [1, 3, 6, 6, 8][Int.random(in: 0..<5, using: &random)]
        let file = try Self.jpeg(canvas, quality: quality, exifOrientation: orientation)
        let image = try Image(decoding: file, name: "a photographed scene")

        // Labels: what shows of each object laid.
        var blobs: [LabelledBlob] = []
        var cutObjects = 0
        for (index, placement) in placements.enumerated() where laid[index] {
            let object = objects[placement.object]
            let points = outlines[index]
            if points.contains(where: { $0.x < 0 || $0.y < 0 || $0.x >= Double(width) || $0.y >= Double(height) }) { cutObjects += 1 }
            let minX = max(0, points.map(\.x).min() ?? 0), maxX = min(Double(width), points.map(\.x).max() ?? 0)
            let minY = max(0, points.map(\.y).min() ?? 0), maxY = min(Double(height), points.map(\.y).max() ?? 0)
            let x = Int(minX.rounded(.down)), y = Int(minY.rounded(.down))
            blobs.append(LabelledBlob(label: object.label, bounds: PixelRectangle(x: x, y: y, width: max(1, Int(maxX.rounded(.up)) - x),
                                                                                  height: max(1, Int(maxY.rounded(.up)) - y))))
        }
        guard image.width == width, image.height == height else {
            throw .invalidArgument("the photographed scene came back \(image.width)×\(image.height), not \(width)×\(height): its EXIF orientation was not honoured")
        }
        var conditions = ["\(arrangement.rawValue) of \(blobs.count)", webcam ? "webcam \(width)×\(height)" : "tablet \(width)×\(height) EXIF \(orientation)",
                          "tilt \(Int(tilt.rounded()))°", "vignetting \(SweepFinish.format((vignetting * 100).rounded() / 100))",
                          "white balance \(kelvin > 0 ? "+" : "")\(Int(kelvin)) K", "jpeg \(quality)"]
        conditions += look.conditions
        if cutObjects > 0 { conditions.append("\(cutObjects) cut by the edge") }
        let name = String(format: "%@-%03d-%dx%d", arrangement.rawValue, index, width, height)
        return Scene(name: name, image: image, blobs: blobs, contact: 1, conditions: conditions.joined(separator: ", "), file: file)
    }

    /// Lays one object and its shadow on the canvas.
    func lay(_ object: Object, at placement: Placement, on canvas: inout Image, shadowX: Double, shadowY: Double, shadowSigma: Double,
             shadowStrength: Double) throws(OcularError) {
        let angle = placement.degrees * .pi / 180, c = cos(angle) * placement.scale, s = sin(angle) * placement.scale
        let cx = Double(object.image.width) / 2, cy = Double(object.image.height) / 2
        let map = try AffineMatrix(coefficients: [c, -s, placement.centre.x - c * cx + s * cy,
                                                  s, c, placement.centre.y - s * cx - c * cy])
        try object.image.withMatrix { (picture) throws(OcularError) in
            try object.alpha.withMatrix { (alpha) throws(OcularError) in
                try canvas.withMutableMatrix { (target) throws(OcularError) in
                    try OpenCV.call("laying an object") {
                        ocular_composite_object(picture, alpha, map.coefficients, target, shadowX, shadowY, shadowSigma, shadowStrength, $0)
                    }
                }
            }
        }
    }

    /// The view of a camera tilted `degrees` from straight down: the edge nearest it (0 left, 1
    /// right, 2 top, 3 bottom) is magnified against the far one by about tan(degrees) × 0.6 of the frame.
    static func tiltedView(width: Int, height: Int, degrees: Double, edge: Int) throws(OcularError) -> Homography {
        let w = Double(width), h = Double(height), inset = tan(degrees * .pi / 180) * 0.3
        // The frame's corners (top left, top right, bottom right, bottom left) and the points of the
        // table that land on them: the near edge covers less of the table.
        var from = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)]
        switch edge {
        case 0: from[0].y += inset * h; from[3].y -= inset * h
        case 1: from[1].y += inset * h; from[2].y -= inset * h
        case 2: from[0].x += inset * w; from[1].x -= inset * w
        default: from[3].x += inset * w; from[2].x -= inset * w
        }
        return try Homography(from: from, to: [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)])
    }

    /// The picture as a camera's JPEG: stored turned so that `exifOrientation` (1, 3, 6 or 8) turns it
    /// back, with that orientation in an EXIF segment (OpenCV writes none).
    static func jpeg(_ image: Image, quality: Int, exifOrientation: Int) throws(OcularError) -> [UInt8] {
        // 6: the viewer turns the stored picture a quarter clockwise, so it is stored a quarter anticlockwise.
        let turns = [1: 0, 3: 2, 6: -1, 8: 1][exifOrientation] ?? 0
        let stored = turns == 0 ? image : try image.rotated(quarterTurns: turns)
        var bytes = try stored.encoded(as: .jpeg(quality: quality))
        guard exifOrientation != 1 else { return bytes }
        // APP1 "Exif": a little-endian TIFF header and one IFD holding one entry, Orientation (0x0112, SHORT).
        let orientation = UInt8(exifOrientation)
        let segment: [UInt8] = [0xFF, 0xE1, 0x00, 34, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00,
                                0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,
                                0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, orientation, 0x00, 0x00, 0x00,
                                0x00, 0x00, 0x00, 0x00]
        bytes.insert(contentsOf: segment, at: 2)
        return bytes
    }
}

/// Where objects lie, in millimetres around (0, 0), each touching the ones it was laid against.
///
/// Two convex outlines are apart by the largest gap between their extents along any direction (and
/// overlap by the smallest overlap), so each placement keeps its outline's reach in 72 directions and
/// contact is found by bisection.
struct Layout {
    let objects: [BlobScenes.Object]
    /// Each object's reach from its centre in each direction at no turn, in millimetres.
    private let reaches: [[Double]]
    /// Each object's picture pixels to millimetres.
    private let scales: [Double]
    /// The directions' cosines and sines.
    private static let unit = (0..<directions).map { (cos(2 * Double.pi * Double($0) / Double(directions)), sin(2 * Double.pi * Double($0) / Double(directions))) }
    /// The objects laid, first to last.
    private(set) var placements: [BlobScenes.Placement] = []
    /// Each placement's reach in each of the directions, turned and scaled.
    private var placedReaches: [[Double]] = []

    static let directions = 72

    init(objects: [BlobScenes.Object]) {
        self.objects = objects
        // The outline scaled to the object's real long side in millimetres.
        scales = objects.map { object in
            object.millimetres / max(object.longSide, 1)
        }
        reaches = zip(objects, scales).map { object, scale in
            let step = max(1, object.outline.count / 400)
            let points = stride(from: 0, to: object.outline.count, by: step).map { object.outline[$0] }
            return (0..<Self.directions).map { direction in
                let angle = 2 * Double.pi * Double(direction) / Double(Self.directions), ux = cos(angle), uy = sin(angle)
                return scale * points.reduce(0) { max($0, $1.x * ux + $1.y * uy) }
            }
        }
    }

    /// The placement of `object` turned by `degrees` at `centre`, with its reaches.
    private func candidate(_ object: Int, degrees: Double, at centre: Point) -> (BlobScenes.Placement, [Double]) {
        let placement = BlobScenes.Placement(object: object, centre: centre, degrees: degrees, scale: scales[object])
        // Turning the object by θ moves its reach in direction φ to direction φ + θ.
        let shift = degrees / 360 * Double(Self.directions)
        let turned = (0..<Self.directions).map { direction -> Double in
            let source = (Double(direction) - shift).truncatingRemainder(dividingBy: Double(Self.directions))
            let wrapped = source < 0 ? source + Double(Self.directions) : source
            // The larger of the two nearest directions: a little wide rather than a little over.
            let lower = Int(wrapped) % Self.directions, upper = (lower + 1) % Self.directions
            return max(reaches[object][lower], reaches[object][upper])
        }
        return (placement, turned)
    }

    /// The gap between two placed outlines (negative: how deep they overlap).
    private static func gap(_ a: (BlobScenes.Placement, [Double]), _ b: (BlobScenes.Placement, [Double])) -> Double {
        let dx = b.0.centre.x - a.0.centre.x, dy = b.0.centre.y - a.0.centre.y
        var widest = -Double.infinity
        for direction in 0..<directions {
            let along = dx * unit[direction].0 + dy * unit[direction].1
            widest = max(widest, along - a.1[direction] - b.1[(direction + directions / 2) % directions])
        }
        return widest
    }

    private func placed(_ index: Int) -> (BlobScenes.Placement, [Double]) { (placements[index], placedReaches[index]) }

    private mutating func add(_ candidate: (BlobScenes.Placement, [Double])) {
        placements.append(candidate.0)
        placedReaches.append(candidate.1)
    }

    /// `object` against `neighbour` in direction `angle`, its outline `gap` millimetres from it (negative: over it).
    private func against(_ neighbour: Int, angle: Double, object: Int, degrees: Double, gap wanted: Double) -> (BlobScenes.Placement, [Double]) {
        let base = placements[neighbour].centre
        var near = 0.0, far = 200.0
        for _ in 0..<40 {
            let middle = (near + far) / 2
            let trial = candidate(object, degrees: degrees, at: Point(x: base.x + cos(angle) * middle, y: base.y + sin(angle) * middle))
            if Self.gap(placed(neighbour), trial) < wanted { near = middle } else { far = middle }
        }
        return candidate(object, degrees: degrees, at: Point(x: base.x + cos(angle) * far, y: base.y + sin(angle) * far))
    }

    /// The smallest gap between `trial` and any placed object but those in `except`.
    private func clearance(_ trial: (BlobScenes.Placement, [Double]), except: Set<Int>) -> Double {
        placements.indices.filter { !except.contains($0) }.reduce(Double.infinity) { min($0, Self.gap(placed($1), trial)) }
    }

    /// How deep, in millimetres, a touching object lies over its neighbour: mostly just meeting (the
    /// cut-out outlines' soft edges overlapping by 0.3 mm), at times a little over (a bean's edge on a coin).
    private static func overlap(_ random: inout SeededGenerator) -> Double {
        0.3 + (Double.random(in: 0..<1, using: &random) < 0.6 ? 0 : Double.random(in: 0...0.8, using: &random))
    }

    /// A coin in the middle, and objects around it, each touching it and the one before, until the
    /// ring closes or holds `members`.
    mutating func ring(around middle: Int, members: Int, pick: (inout SeededGenerator) -> Int, random: inout SeededGenerator) {
        add(candidate(middle, degrees: Double.random(in: 0..<360, using: &random), at: Point(x: 0, y: 0)))
        let start = Double.random(in: 0..<(2 * .pi), using: &random)
        var angle = start
        for member in 0..<members {
            let object = pick(&random), degrees = Double.random(in: 0..<360, using: &random)
            let depth = Self.overlap(&random)
            func atAngle(_ angle: Double) -> (BlobScenes.Placement, [Double]) {
                against(0, angle: angle, object: object, degrees: degrees, gap: -depth)
            }
            if member > 0 {
                // The smallest turn past the last member at which the two meet.
                let last = placements.count - 1
                var low = angle, high = angle + .pi
                guard Self.gap(placed(last), atAngle(high)) > -depth else { break }
                for _ in 0..<30 {
                    let middle = (low + high) / 2
                    if Self.gap(placed(last), atAngle(middle)) < -depth { low = middle } else { high = middle }
                }
                angle = high
                // Room left before the first member?
                if member > 1, clearance(atAngle(angle), except: [0, last]) < -depth { break }
            }
            add(atAngle(angle))
            if angle - start > 2 * .pi { break }
        }
    }

    /// `count` objects pushed together: each comes in from a random side until it meets the heap,
    /// then rolls along what it met until it meets a second one, when it can.
    mutating func heap(count: Int, pick: (inout SeededGenerator) -> Int, random: inout SeededGenerator) {
        add(candidate(pick(&random), degrees: Double.random(in: 0..<360, using: &random), at: Point(x: 0, y: 0)))
        for _ in 1..<max(count, 1) {
            let object = pick(&random), degrees = Double.random(in: 0..<360, using: &random)
            let depth = Self.overlap(&random)
            let middle = Point(x: placements.reduce(0) { $0 + $1.centre.x } / Double(placements.count),
                               y: placements.reduce(0) { $0 + $1.centre.y } / Double(placements.count))
            let direction = Double.random(in: 0..<(2 * .pi), using: &random)
            // In from afar along the direction, until it meets something.
            var distance = 200.0, step = 2.0
            var trial = candidate(object, degrees: degrees, at: Point(x: middle.x + cos(direction) * distance, y: middle.y + sin(direction) * distance))
            while distance > 0, clearance(trial, except: []) > -depth {
                distance -= step
                trial = candidate(object, degrees: degrees, at: Point(x: middle.x + cos(direction) * distance, y: middle.y + sin(direction) * distance))
            }
            step = 1
            while clearance(trial, except: []) < -depth, step > 0.01 {
                distance += step
                step /= 2
                trial = candidate(object, degrees: degrees, at: Point(x: middle.x + cos(direction) * distance, y: middle.y + sin(direction) * distance))
            }
            guard let met = placements.indices.min(by: { Self.gap(placed($0), trial) < Self.gap(placed($1), trial) }) else { continue }
            // Roll around what it met, the shorter way towards the heap's middle, until it meets another.
            let base = placements[met].centre
            let startAngle = atan2(trial.0.centre.y - base.y, trial.0.centre.x - base.x)
            let inward = atan2(middle.y - base.y, middle.x - base.x)
            let sense = sin(inward - startAngle) >= 0 ? 1.0 : -1.0
            func rolled(_ turn: Double) -> (BlobScenes.Placement, [Double]) {
                against(met, angle: startAngle + sense * turn, object: object, degrees: degrees, gap: -depth)
            }
            guard clearance(rolled(0), except: [met]) > -depth else { continue }
            var free = 0.0, best = rolled(0)
            for turn in stride(from: 2.0, through: 90, by: 2).map({ $0 * .pi / 180 }) {
                guard clearance(rolled(turn), except: [met]) <= -depth else {
                    free = turn
                    continue
                }
                // It meets a second object between `free` and `turn`: roll just that far.
                var blocked = turn
                for _ in 0..<12 {
                    let middle = (free + blocked) / 2
                    if clearance(rolled(middle), except: [met]) > -depth { free = middle } else { blocked = middle }
                }
                break
            }
            best = rolled(free)
            add(best)
        }
    }

    /// The object reaching farthest towards `side` (0 left, 1 right, 2 up, 3 down): where it starts
    /// and ends along that way, from the arrangement's (0, 0), its outer end first.
    func outermost(towards side: Int) -> (outer: Double, inner: Double) {
        let axis = side < 2 ? \Point.x : \Point.y
        let sign = side % 2 == 0 ? -1.0 : 1.0
        let outwards = [Self.directions / 2, 0, Self.directions * 3 / 4, Self.directions / 4][side]
        let inwards = (outwards + Self.directions / 2) % Self.directions
        guard let index = placements.indices.max(by: {
            sign * placements[$0].centre[keyPath: axis] + placedReaches[$0][outwards] < sign * placements[$1].centre[keyPath: axis] + placedReaches[$1][outwards]
        }) else { return (0, 0) }
        let centre = placements[index].centre[keyPath: axis]
        return (centre + sign * placedReaches[index][outwards], centre - sign * placedReaches[index][inwards])
    }

    /// The arrangement's width or height, whichever is larger, in millimetres.
    func span() -> Double {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for (placement, reach) in zip(placements, placedReaches) {
            minX = min(minX, placement.centre.x - reach[Self.directions / 2]); maxX = max(maxX, placement.centre.x + reach[0])
            minY = min(minY, placement.centre.y - reach[Self.directions * 3 / 4]); maxY = max(maxY, placement.centre.y + reach[Self.directions / 4])
        }
        return placements.isEmpty ? 0 : max(maxX - minX, maxY - minY)
    }
}

/// A plane-to-plane perspective map (3×3, row by row).
struct Homography: Sendable {
    var coefficients: [Double]

    /// The map taking the four points `from` to the four points `to` (cv::getPerspectiveTransform).
    init(from: [Point], to: [Point]) throws(OcularError) {
        guard from.count == 4, to.count == 4 else { throw .invalidArgument("a perspective map needs four points each way") }
        let source = from.flatMap { [$0.x, $0.y] }, target = to.flatMap { [$0.x, $0.y] }
        var result = [Double](repeating: 0, count: 9)
        try OpenCV.call("perspective transform") { error in
            source.withUnsafeBufferPointer { s in
                target.withUnsafeBufferPointer { t in
                    result.withUnsafeMutableBufferPointer { ocv_perspective_transform(s.baseAddress!, t.baseAddress!, $0.baseAddress!, error) }
                }
            }
        }
        coefficients = result
    }

    /// Where `point` lands.
    func map(_ point: Point) -> Point {
        let m = coefficients
        let w = m[6] * point.x + m[7] * point.y + m[8]
        return Point(x: (m[0] * point.x + m[1] * point.y + m[2]) / w, y: (m[3] * point.x + m[4] * point.y + m[5]) / w)
    }
}

extension Image {
    /// The image seen through `homography` (cv::warpPerspective, bilinear, edges repeated), at its own size.
    func warped(byHomography homography: Homography) throws(OcularError) -> Image {
        let packed = try self.packed
        return try Image.filledByOpenCV(width: width, height: height, format: packed.format) { (output) throws(OcularError) in
            try packed.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("warpPerspective \(packed)") { error in
                    homography.coefficients.withUnsafeBufferPointer { ocv_warp_perspective(input, output, $0.baseAddress!, OCV_INTER_LINEAR, error) }
                }
            }
        }
    }

    /// Light as a camera records it, multiplied in place: brighter towards `angle` by `falloff`
    /// across the frame, darker towards the corners by `vignetting` (1 − v r², r = 1 at a corner),
    /// and the white balance `kelvinOff` from the light's (positive: the picture bluer, as under a
    /// warmer light than the camera assumed), about 1 % of red and blue per 100 K; all of it times
    /// `exposure`.
    mutating func multiplyByLight(falloff: Double, towards angle: Double, vignetting: Double, kelvinOff: Double, exposure: Double = 1) throws(OcularError) {
        let columns = 33, rows = 33
        var gains = [Float](repeating: 1, count: columns * rows)
        let ux = cos(angle), uy = sin(angle)
        for row in 0..<rows {
            for column in 0..<columns {
                let x = 2 * Double(column) / Double(columns - 1) - 1, y = 2 * Double(row) / Double(rows - 1) - 1
                let along = (x * ux + y * uy) / 2
                gains[row * columns + column] = Float(exposure * (1 + falloff * along) * (1 - vignetting * (x * x + y * y) / 2))
            }
        }
        let factors = Image.whiteBalanceFactors(kelvinOff: kelvinOff)
        let name = "light over \(self)"
        try withMutableMatrix { (matrix) throws(OcularError) in
            try OpenCV.call(name) { error in
                gains.withUnsafeBufferPointer { g in
                    factors.withUnsafeBufferPointer { ocv_multiply_by_gain_map(matrix, g.baseAddress!, Int32(columns), Int32(rows), $0.baseAddress!, error) }
                }
            }
        }
    }

    /// Gaussian noise of standard deviation `sigma` added to every byte, in place (cv::randn): a
    /// sensor's. The same seed gives the same noise.
    mutating func addNoise(sigma: Double, seed: UInt64) throws(OcularError) {
        try withMutableMatrix { (matrix) throws(OcularError) in
            try OpenCV.call("noise") { ocv_add_gaussian_noise(matrix, sigma, seed, $0) }
        }
    }
}

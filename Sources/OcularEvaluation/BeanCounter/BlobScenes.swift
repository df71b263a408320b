import Foundation
import Ocular
internal import OpenCVBridge

/// A deterministic set of table scenes for measuring blob detection and naming: the objects of a
/// training list cut out of their pictures and laid on plain tables at random turns, several to a
/// scene, some touching, under light that falls across the table, with soft shadows, blur, noise
/// and JPEG; every object's label and box exact.
///
/// Sizes follow the objects' real sizes (a toonie is wider than a dime), and a scene's scale is
/// drawn so a toonie spans 14–24 % of the frame's short side. Touching objects are laid against a
/// neighbour so that a fraction c of their outlines, drawn from 0–30 %, meets it (for discs, centres
/// cos(π c) of the sum of their radii apart: the later one lies over the edge of the earlier).
/// Every sixth scene is a handful of beans, 6–12 of them, most lying against another, as in the
/// textbook's own picture.
package struct BlobScenes: Sendable {
    /// An object to lay: its picture and opacity, and its real long side.
    package struct Object: Sendable {
        package var label: Int
        /// Whether it is a bean (a handful of beans is a scene of its own: the textbook's picture).
        package var isBean: Bool
        package var image: Image
        /// 255 inside the object's outline.
        package var alpha: Image
        /// The object's long side in millimetres.
        package var millimetres: Double
        /// Points of the outline relative to the picture's centre, for laying objects side by side.
        var outline: [Point]

        /// The object's long side in its picture's pixels: twice the farthest outline point from the
        /// middle of the outline's box. Measured from the picture's centre instead, an object lying
        /// off-centre in its picture (the book's romano bean) was laid at two thirds of its size.
        var longSide: Double {
            guard let minX = outline.map(\.x).min(), let maxX = outline.map(\.x).max(),
                  let minY = outline.map(\.y).min(), let maxY = outline.map(\.y).max() else { return 0 }
            let middle = Point(x: (minX + maxX) / 2, y: (minY + maxY) / 2)
            return 2 * outline.reduce(0) { max($0, (($1.x - middle.x) * ($1.x - middle.x) + ($1.y - middle.y) * ($1.y - middle.y)).squareRoot()) }
        }
    }

    /// An object in a scene: what it is and where.
    package struct LabelledBlob: Sendable, Hashable, Codable {
        package var label: Int
        package var bounds: PixelRectangle

        package init(label: Int, bounds: PixelRectangle) {
            self.label = label
            self.bounds = bounds
        }

        private enum CodingKeys: String, CodingKey { case label, bounds }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            label = try container.decode(Int.self, forKey: .label)
            let box = try container.decode([Int].self, forKey: .bounds)
            guard box.count == 4, box[2] > 0, box[3] > 0 else {
                throw DecodingError.dataCorruptedError(forKey: .bounds, in: container, debugDescription: "must be [x, y, width, height] with a width and height above 0")
            }
            bounds = PixelRectangle(x: box[0], y: box[1], width: box[2], height: box[3])
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encode([bounds.x, bounds.y, bounds.width, bounds.height], forKey: .bounds)
        }
    }

    /// One scene.
    package struct Scene: Sendable {
        /// Unique, usable as a file name: "scene-007-1280x960".
        package var name: String
        package var image: Image
        package var blobs: [LabelledBlob]
        /// The largest fraction of an outline laid against another object (0: none touch; 1 in rings
        /// and heaps, where every object touches another).
        package var contact: Double
        /// Whether the light falls unevenly, shadows are cast, and how the picture was degraded.
        package var conditions: String
        /// The photograph's file as a camera wrote it (JPEG with its EXIF orientation), when the
        /// scene is one; `image` is what reading it gives.
        package var file: [UInt8]? = nil
    }

    package let objects: [Object]
    /// How many scenes the set holds.
    package let count: Int

    /// Real long sides in millimetres of the shared lists' objects, found by their descriptions, for a
    /// list that gives no ``TrainingList/millimetres``; 20 mm for any other. The coins' are their
    /// mints'; the book's beans are measured against its coins in its own photo of both (the
    /// studio's demo: a pinto bean 21 mm long, a romano bean 25 mm), the tables' against their złoty.
    package static func realSize(of description: String) -> Double {
        let sizes: [(String, Double)] = [("toonie", 28), ("loonie", 26.5), ("quarter", 23.88), ("nickel", 21.2), ("penny", 19.05),
                                         ("dime", 18.03), ("pinto", 21), ("romano", 25),
                                         ("zloty", 23), ("złoty", 23), ("white bean", 18), ("coffee bean", 11)]
        let lowered = description.lowercased()
        return sizes.first { lowered.contains($0.0) }?.1 ?? 20
    }

    /// The objects of a training list's pictures (one per picture that reads).
    package init(list: TrainingList, count: Int = 48) throws(OcularError) {
        var objects: [Object] = []
        for entry in list.entries {
            let image = try Image(contentsOfFile: list.path(of: entry)).converted(to: .bgr8)
            let alpha = try Blob.alone(in: image).mask ?? image
            let outline = Self.outline(of: alpha)
            guard !outline.isEmpty else { throw .invalidArgument("no object stands out in '\(entry.imageFilename)'") }
            objects.append(Object(label: entry.label, isBean: list.description(of: entry.label).lowercased().contains("bean"), image: image, alpha: alpha,
                                  millimetres: list.millimetres[entry.label] ?? Self.realSize(of: list.description(of: entry.label)), outline: outline))
        }
        guard !objects.isEmpty else { throw .invalidArgument("a scene set needs at least one object picture") }
        self.objects = objects
        self.count = count
    }

    /// The outline's points relative to the picture's centre: opaque pixels with a clear neighbour.
    static func outline(of alpha: Image) -> [Point] {
        var points: [Point] = []
        let cx = Double(alpha.width) / 2, cy = Double(alpha.height) / 2
        alpha.bytes.withUnsafeBufferPointer { bytes in
            func opaque(_ x: Int, _ y: Int) -> Bool {
                x >= 0 && y >= 0 && x < alpha.width && y < alpha.height && bytes[y * alpha.bytesPerRow + x] >= 128
            }
            for y in 0..<alpha.height {
                for x in 0..<alpha.width where opaque(x, y) && !(opaque(x - 1, y) && opaque(x + 1, y) && opaque(x, y - 1) && opaque(x, y + 1)) {
                    points.append(Point(x: Double(x) + 0.5 - cx, y: Double(y) + 0.5 - cy))
                }
            }
        }
        return points
    }

    /// An object as laid: which, where its centre is, its turn and scale.
    struct Placement {
        var object: Int
        var centre: Point
        var degrees: Double
        var scale: Double

        func map(_ point: Point) -> Point {
            let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
            return Point(x: centre.x + scale * (c * point.x - s * point.y), y: centre.y + scale * (s * point.x + c * point.y))
        }

        /// How far the outline reaches from the centre along the unit direction (ux, uy).
        func reach(_ outline: [Point], _ ux: Double, _ uy: Double) -> Double {
            let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
            return outline.reduce(0) { max($0, scale * ((c * $1.x - s * $1.y) * ux + (s * $1.x + c * $1.y) * uy)) }
        }

        func radius(_ outline: [Point]) -> Double {
            scale * outline.reduce(0) { max($0, ($1.x * $1.x + $1.y * $1.y).squareRoot()) }
        }
    }

    /// The scene of that index, the same every time.
    ///
    /// `width`, `height` and `objects` replace the index's own frame size (640×480 for even
    /// indices, 1280×960 for odd) and object count (3–10; 6–12 beans in a handful); every other
    /// choice stays the index's. Fewer objects are laid where the frame has no room left.
    package func scene(_ index: Int, width: Int? = nil, height: Int? = nil, objects wantedObjects: Int? = nil) throws(OcularError) -> Scene {
        var random = SeededGenerator(seed: 0xB1_0B5 &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let standard = index % 2 == 0 ? (640, 480) : (1280, 960)
        let (width, height) = (width ?? standard.0, height ?? standard.1)
        guard width >= 64, height >= 64, width <= 8192, height <= 8192 else {
            throw .invalidArgument("a scene is 64 to 8192 pixels wide and high, not \(width)×\(height)")
        }
        let shortSide = Double(min(width, height))
        let tables: [[UInt8]] = [[226, 226, 222], [196, 214, 226], [188, 190, 194], [214, 204, 188], [205, 220, 214]]
        var canvas = try Image(width: width, height: height, format: .bgr8, filledWith: tables[Int.random(in: 0..<tables.count, using: &random)])
        let handful = index % 6 == 5 && objects.contains(where: \.isBean)
        // A handful of beans is photographed closer: a bean is 8–14 % of the short side.
        let pixelsPerMillimetre = handful ? Double.random(in: 0.08...0.14, using: &random) * shortSide / 15
            : Double.random(in: 0.14...0.24, using: &random) * shortSide / 28
        let touching = index % 3 != 0 || handful
        let shadows = index % 5 != 4
        let lightAngle = Double.random(in: 0..<(2 * .pi), using: &random)
        let gradient = index % 4 == 3 ? 0 : Double.random(in: 0.15...0.5, using: &random)
        let drawn = handful ? Int.random(in: 6...12, using: &random) : Int.random(in: 3...10, using: &random)
        let wanted = min(200, max(0, wantedObjects ?? drawn))
        let choices = handful ? objects.indices.filter { objects[$0].isBean } : Array(objects.indices)
        var placements: [Placement] = []
        var contact = 0.0
        let gap = 0.03 * shortSide
        for _ in 0..<wanted {
            let which = choices[Int.random(in: 0..<choices.count, using: &random)]
            let object = objects[which]
            // The outline's long side is the object's, whatever margin its picture has.
            let scale = object.millimetres * pixelsPerMillimetre / max(object.longSide, 1)
            var placement = Placement(object: which, centre: Point(x: 0, y: 0), degrees: Double.random(in: 0..<360, using: &random), scale: scale)
            let radius = placement.radius(object.outline)
            var placed = false
            // Against a neighbour first when the scene has touching objects (about half of them).
            if touching, !placements.isEmpty, handful ? Double.random(in: 0..<1, using: &random) < 0.8 : Bool.random(using: &random) {
                for _ in 0..<60 {
                    let neighbour = placements[Int.random(in: 0..<placements.count, using: &random)]
                    let direction = Double.random(in: 0..<(2 * .pi), using: &random), ux = cos(direction), uy = sin(direction)
                    let fraction = Double.random(in: 0...0.3, using: &random)
                    let apart = (neighbour.reach(objects[neighbour.object].outline, ux, uy) + placement.reach(object.outline, -ux, -uy)) * cos(.pi * fraction)
                    placement.centre = Point(x: neighbour.centre.x + ux * apart, y: neighbour.centre.y + uy * apart)
                    if fits(placement, radius: radius, width: width, height: height, among: placements, except: neighbour.centre, gap: gap) {
                        contact = max(contact, fraction)
                        placed = true
                        break
                    }
                }
            }
            if !placed {
                for _ in 0..<200 {
                    placement.centre = Point(x: Double.random(in: radius...(Double(width) - radius), using: &random),
                                             y: Double.random(in: radius...(Double(height) - radius), using: &random))
                    if fits(placement, radius: radius, width: width, height: height, among: placements, except: nil, gap: gap) {
                        placed = true
                        break
                    }
                }
            }
            if placed { placements.append(placement) }
        }
        var blobs: [LabelledBlob] = []
        for placement in placements {
            let object = objects[placement.object]
            let size = placement.radius(object.outline) * 2
            let strength = shadows ? Double.random(in: 0.2...0.4, using: &random) : 0
            try lay(object, at: placement, on: &canvas, shadowX: -cos(lightAngle) * 0.08 * size, shadowY: -sin(lightAngle) * 0.08 * size,
                    shadowSigma: 0.08 * size, shadowStrength: strength)
            let corners = object.outline.map(placement.map)
            let minX = corners.map(\.x).min() ?? 0, maxX = corners.map(\.x).max() ?? 0
            let minY = corners.map(\.y).min() ?? 0, maxY = corners.map(\.y).max() ?? 0
            let x = Int(minX.rounded(.down)), y = Int(minY.rounded(.down))
            blobs.append(LabelledBlob(label: object.label, bounds: PixelRectangle(x: x, y: y, width: Int(maxX.rounded(.up)) - x,
                                                                                  height: Int(maxY.rounded(.up)) - y)))
        }
        // Light falling across the table: brighter towards the light, by `gradient` over the frame.
        var conditions: [String] = []
        if gradient > 0 {
            let ux = cos(lightAngle), uy = sin(lightAngle)
            let reach = abs(ux) * Double(width) + abs(uy) * Double(height)
            let lowest = min(0, ux * Double(width)) + min(0, uy * Double(height))
            canvas = try canvas.scalingPixels { x, y in
                let along = (ux * Double(x) + uy * Double(y) - lowest) / reach
                return 1 + gradient / 2 - gradient * along
            }
            conditions.append("light \(SweepFinish.format(gradient))")
        }
        if shadows { conditions.append("shadows") }
        let finishes: [SweepFinish] = [.none, .noise(sigma: 4), .blur, .jpeg(quality: 75)]
        let finish = finishes[(index / 2) % finishes.count]
        canvas = try finish.apply(to: canvas, seed: "blob scene \(index)")
        switch finish {
        case .noise: conditions.append("noise")
        case .blur: conditions.append("blur")
        case .jpeg: conditions.append("jpeg")
        default: break
        }
        if contact > 0 { conditions.append("touching \(Int((contact * 100).rounded())) %") }
        if handful { conditions.insert("handful of beans", at: 0) }
        let name = String(format: "scene-%03d-%dx%d", index, width, height)
        return Scene(name: name, image: canvas, blobs: blobs, contact: contact, conditions: conditions.joined(separator: ", "))
    }

    /// Inside the frame and clear of every object but the one it leans on.
    private func fits(_ placement: Placement, radius: Double, width: Int, height: Int, among others: [Placement], except: Point?, gap: Double) -> Bool {
        let margin = radius + 2
        guard placement.centre.x >= margin, placement.centre.y >= margin,
              placement.centre.x <= Double(width) - margin, placement.centre.y <= Double(height) - margin else { return false }
        for other in others where other.centre != except {
            let dx = other.centre.x - placement.centre.x, dy = other.centre.y - placement.centre.y
            if (dx * dx + dy * dy).squareRoot() < radius + other.radius(objects[other.object].outline) + gap { return false }
        }
        return true
    }
}

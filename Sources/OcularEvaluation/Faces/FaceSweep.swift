import Foundation
import Ocular

/// A deterministic robustness set for face detection: labelled faces moved, turned, lit and
/// degraded the ways a camera's pictures vary, each frame with its labels transformed exactly.
///
/// It is made from a ``FaceLabelList``: pictures with human faces and with cat faces are the faces
/// placed; pictures without faces are the busy backgrounds and the pictures that must give no box.
/// Each face is cut out with its surroundings (hair, shoulders) and warped onto a background by one
/// affine map — scale, in-plane rotation, mirror, shift — which also takes its label: the box keeps
/// the face's size times the scale, around the mapped centre (for a tilted face the upright box a
/// detector reports, not the rotated box's bounds). Frame edges clip labels; a face less than half
/// inside is not labelled.
package struct FaceSweep: Sendable {
    /// A labelled face to place.
    package struct Source: Sendable {
        package var name: String
        package var image: Image
        package var face: LabelledFace
        /// How far the picture may be enlarged before it stops looking like a photograph.
        package var largestEnlargement: Double
        /// Placed only in the held-apart group scenes (it is also in the single-face axes, as before).
        package var heldApart: Bool

        package init(name: String, image: Image, face: LabelledFace, largestEnlargement: Double = 5, heldApart: Bool = false) {
            self.name = name
            self.image = image
            self.face = face
            self.largestEnlargement = largestEnlargement
            self.heldApart = heldApart
        }
    }

    /// One frame of the sweep: its picture and the faces in it.
    package struct Frame: Sendable {
        /// Unique, and usable as a file name: "size-0.30-grace_hopper".
        package var name: String
        /// The variation it stands for: size, position, cut-off, mirror, tilt, light, quality, frame,
        /// background, several, none, or cat.
        package var axis: String
        package var image: Image
        package var faces: [LabelledFace]
    }

    /// How a face is placed: its size as a fraction of the frame's short side, its centre in frame
    /// pixels, its tilt in degrees (clockwise on screen) and whether it is mirrored.
    struct Placement: Sendable {
        var source: Source
        var size: Double
        var centre: Point
        var tilt: Double = 0
        var mirrored = false
    }


    /// A frame before it is drawn: cheap to list, drawn on demand.
    struct Recipe: Sendable {
        var name: String
        var axis: String
        var width = 640
        var height = 480
        /// An index into the backgrounds, or nil for a plain wall.
        var background: Int?
        var placements: [Placement]
        var finish = SweepFinish.none
    }

    package let humans: [Source]
    package let cats: [Source]
    /// Pictures without faces: the busy backgrounds, and the frames that must give no box.
    package let faceless: [(name: String, image: Image)]
    /// The faceless pictures that only the held-apart group scenes use as backgrounds.
    package let heldApartBackgrounds: Set<String>
    let recipes: [Recipe]

    /// - Parameters:
    ///   - humans: At least one human face.
    ///   - cats: Cat faces (may be empty: the cat and several-faces frames are then left out).
    ///   - faceless: At least one picture without a face.
    package init(humans: [Source], cats: [Source], faceless: [(name: String, image: Image)], heldApartBackgrounds: Set<String> = []) throws(OcularError) {
        guard !humans.isEmpty, !faceless.isEmpty else {
            throw .invalidArgument("a face sweep needs at least one human face and one picture without faces")
        }
        self.humans = humans
        self.cats = cats
        self.faceless = faceless
        self.heldApartBackgrounds = heldApartBackgrounds
        recipes = Self.recipes(humans: humans, cats: cats, faceless: faceless.map(\.name))
            + Self.groupRecipes(humans: humans, faceless: faceless.map(\.name), heldApartBackgrounds: heldApartBackgrounds)
    }

    /// Sources from a labelled list: each picture's first face is placed; pictures with no face are the backgrounds.
    /// - Throws: When a picture cannot be read, or the list lacks a human face or a faceless picture.
    package init(list: FaceLabelList, readOptions: ImageReadOptions = ImageReadOptions()) throws(OcularError) {
        var humans: [Source] = [], cats: [Source] = [], faceless: [(String, Image)] = [], heldApart: Set<String> = []
        for entry in list.entries {
            let image = try Image(contentsOfFile: list.path(of: entry), options: readOptions).converted(to: .bgr8)
            let name = ((entry.file as NSString).lastPathComponent as NSString).deletingPathExtension
            guard let face = entry.faces.first else {
                faceless.append((name, image))
                if entry.heldApart == true { heldApart.insert(name) }
                continue
            }
            let source = Source(name: name, image: image, face: face, heldApart: entry.heldApart == true)
            if face.species == .cat { cats.append(source) } else { humans.append(source) }
        }
        try self.init(humans: humans, cats: cats, faceless: faceless, heldApartBackgrounds: heldApart)
    }

    /// How many frames there are.
    package var count: Int { recipes.count }

    /// The frames' names and axes, in order, without drawing them.
    package var names: [(name: String, axis: String)] { recipes.map { ($0.name, $0.axis) } }

    /// The frame at `index` (0 ..< count), drawn.
    package func frame(_ index: Int) throws(OcularError) -> Frame {
        try draw(recipes[index])
    }

    // MARK: - The variations

    static let sizes = [0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    /// Cats from 40 pixels in a 640×480 frame to close-ups.
    static let catSizes = [0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    static let tilts: [Double] = [-25, -20, -15, -10, -5, 5, 10, 15, 20, 25]
    static let lights: [(String, SweepFinish)] = [
        ("dark-0.4", .exposure(0.4)), ("dark-0.6", .exposure(0.6)), ("bright-1.4", .exposure(1.4)), ("bright-1.6", .exposure(1.6)),
        ("gamma-0.5", .gamma(0.5)), ("gamma-2", .gamma(2)), ("low-contrast", .contrast(0.4)), ("side-light", .sideLight),
    ]
    static let qualities: [(String, SweepFinish)] = [("jpeg-30", .jpeg(quality: 30)), ("noise-8", .noise(sigma: 8)), ("blur", .blur)]

    static func recipes(humans: [Source], cats: [Source], faceless: [String]) -> [Recipe] {
        var recipes: [Recipe] = []
        // Backgrounds alternate: plain for even sources, busy for odd, unless the axis says.
        func background(_ index: Int) -> Int? { index % 2 == 0 ? nil : (index / 2) % faceless.count }
        func centred(_ source: Source, size: Double, width: Int = 640, height: Int = 480) -> Placement {
            Placement(source: source, size: size, centre: Point(x: Double(width) / 2, y: Double(height) / 2))
        }
        /// `source`'s face 0.35 of a 640×480 frame, moved towards the edge (dx, dy) until its box reaches
        /// past it by `cut` of its size.
        func cutOff(_ source: Source, dx: Double, dy: Double, by cut: Double) -> Placement {
            var placement = centred(source, size: 0.35)
            let box = placement.size * 480
            let aspect = Double(source.face.bounds.height) / Double(source.face.bounds.width)
            placement.centre = Point(x: 320 + dx * (320 - box * (0.5 - cut)), y: 240 + dy * (240 - box * aspect * (0.5 - cut)))
            return placement
        }
        func fits(_ placement: Placement, shortSide: Int) -> Bool {
            placement.size * Double(shortSide) / Double(placement.source.face.bounds.width) <= placement.source.largestEnlargement
        }
        for (index, source) in humans.enumerated() {
            let name = source.name
            for size in sizes where fits(centred(source, size: size), shortSide: 480) {
                recipes.append(Recipe(name: "size-\(format(size))-\(name)", axis: "size", background: background(index),
                                      placements: [centred(source, size: size)]))
            }
            // Corners, a face 0.3 of the frame high with a margin of a tenth of it.
            let side = 0.3 * 480, margin = 0.6 * side
            for (corner, x, y) in [("top-left", margin, margin), ("top-right", 640 - margin, margin),
                                   ("bottom-left", margin, 480 - margin), ("bottom-right", 640 - margin, 480 - margin)] {
                var placement = centred(source, size: 0.3)
                placement.centre = Point(x: x, y: y)
                guard fits(placement, shortSide: 480) else { continue }
                recipes.append(Recipe(name: "position-\(corner)-\(name)", axis: "position", background: background(index + 1), placements: [placement]))
            }
            // Cut off by an edge: the face's box reaches past it by a tenth or a quarter.
            for cut in [0.1, 0.25] {
                for (edge, dx, dy) in [("left", -1.0, 0.0), ("right", 1.0, 0.0), ("top", 0.0, -1.0), ("bottom", 0.0, 1.0)] {
                    let placement = cutOff(source, dx: dx, dy: dy, by: cut)
                    guard fits(placement, shortSide: 480) else { continue }
                    recipes.append(Recipe(name: "cut-\(edge)-\(format(cut))-\(name)", axis: "cut-off", background: background(index), placements: [placement]))
                }
            }
            var mirrored = centred(source, size: 0.4)
            mirrored.mirrored = true
            if fits(mirrored, shortSide: 480) {
                recipes.append(Recipe(name: "mirror-\(name)", axis: "mirror", background: background(index + 1), placements: [mirrored]))
            }
            for tilt in tilts {
                var placement = centred(source, size: 0.35)
                placement.tilt = tilt
                guard fits(placement, shortSide: 480) else { continue }
                recipes.append(Recipe(name: "tilt-\(format(tilt))-\(name)", axis: "tilt", background: background(index), placements: [placement]))
            }
            for (light, finish) in lights + qualities {
                let placement = centred(source, size: 0.35)
                guard fits(placement, shortSide: 480) else { continue }
                let axis = lights.contains { $0.0 == light } ? "light" : "quality"
                recipes.append(Recipe(name: "\(light)-\(name)", axis: axis, background: background(index + 1), placements: [placement], finish: finish))
            }
            for (width, height) in [(1280, 720), (720, 1280)] {
                for size in [0.2, 0.5] {
                    let placement = centred(source, size: size, width: width, height: height)
                    guard fits(placement, shortSide: min(width, height)) else { continue }
                    recipes.append(Recipe(name: "frame-\(width)x\(height)-\(format(size))-\(name)", axis: "frame", width: width, height: height,
                                          background: background(index + 1), placements: [placement]))
                }
            }
            for backdrop in faceless.indices {
                let placement = centred(source, size: 0.3)
                guard fits(placement, shortSide: 480) else { continue }
                recipes.append(Recipe(name: "background-\(faceless[backdrop])-\(name)", axis: "background", background: backdrop, placements: [placement]))
            }
        }
        for (index, name) in faceless.enumerated() {
            recipes.append(Recipe(name: "none-\(name)", axis: "none", background: index, placements: []))
        }
        for (index, cat) in cats.enumerated() {
            let name = cat.name
            for size in catSizes {
                recipes.append(Recipe(name: "cat-size-\(format(size))-\(name)", axis: "cat", background: size >= 0.5 ? nil : index % faceless.count,
                                      placements: [centred(cat, size: size)]))
            }
            var mirrored = centred(cat, size: 0.5)
            mirrored.mirrored = true
            recipes.append(Recipe(name: "cat-mirror-\(name)", axis: "cat", placements: [mirrored]))
            for tilt in [-20.0, -10, 10, 20] {
                var placement = centred(cat, size: 0.5)
                placement.tilt = tilt
                recipes.append(Recipe(name: "cat-tilt-\(format(tilt))-\(name)", axis: "cat", placements: [placement]))
            }
            for (corner, x) in [("left", 0.3), ("right", 0.7)] {
                var placement = centred(cat, size: 0.4)
                placement.centre = Point(x: 640 * x, y: 240)
                recipes.append(Recipe(name: "cat-\(corner)-\(name)", axis: "cat", background: (index + 1) % faceless.count, placements: [placement]))
            }
            // Cut off by an edge: the chin by the bottom, a cheek by either side. Not by the top: the source's
            // box already starts at the photo's top edge, its ears cut (chelsea), and a further cut takes the eyes.
            for cut in [0.1, 0.25] {
                for (edge, dx, dy) in [("left", -1.0, 0.0), ("right", 1.0, 0.0), ("bottom", 0.0, 1.0)] {
                    recipes.append(Recipe(name: "cat-cut-\(edge)-\(format(cut))-\(name)", axis: "cat", background: (index + 1) % faceless.count,
                                          placements: [cutOff(cat, dx: dx, dy: dy, by: cut)]))
                }
            }
            for (light, finish) in [lights[1], lights[3], lights[7], qualities[0], qualities[1]] {
                recipes.append(Recipe(name: "cat-\(light)-\(name)", axis: "cat", placements: [centred(cat, size: 0.5)], finish: finish))
            }
        }
        // Several faces: two people and a cat, at different sizes, apart.
        if let cat = cats.first {
            for (index, first) in humans.enumerated() {
                let second = humans[(index + 1) % humans.count]
                let placements = [
                    Placement(source: first, size: 0.3, centre: Point(x: 140, y: 150)),
                    Placement(source: second, size: 0.2, centre: Point(x: 500, y: 120)),
                    Placement(source: cat, size: 0.35, centre: Point(x: 400, y: 340)),
                ]
                guard placements.allSatisfy({ fits($0, shortSide: 480) }) else { continue }
                recipes.append(Recipe(name: "several-\(first.name)-\(second.name)-\(cat.name)", axis: "several",
                                      background: background(index + 1), placements: placements))
            }
        }
        return recipes
    }

    static func format(_ value: Double) -> String { SweepFinish.format(value) }

    // MARK: - Group scenes

    /// How many people a group scene holds, and the frames they are shot in.
    static let groupCounts = [2, 3, 5, 8, 12, 20]
    static let groupFrames = [(1280, 720), (1920, 1080)]
    /// The smallest face a group scene places, in pixels: the envelope's smallest.
    static let smallestGroupFace = 24.0
    /// What befalls a group scene, in turn: most are as shot, the rest dim, side-lit, bright, blurred,
    /// noisy or a phone's JPEG.
    static let groupFinishes: [(String, SweepFinish)] = [
        ("", .none), ("", .none), ("-dark-0.6", .exposure(0.6)), ("-side-light", .sideLight), ("", .none), ("-blur", .blur),
        ("-noise-8", .noise(sigma: 8)), ("-jpeg-70", .jpeg(quality: 70)), ("-bright-1.4", .exposure(1.4)), ("", .none),
    ]

    /// Scenes of 2 to 20 people at 720p and 1080p, as a group photo, a video call or a classroom shows
    /// them: faces from 24 pixels to as big as their share of the frame allows, a third turned by up to
    /// ±20°, some mirrored, on plain walls and busy pictures, some dim, blurred or noisy. Each face sits
    /// in its own cell of a grid with its hair and shoulders, so no face hides another. Axis "group"
    /// places the sources that choose the parameters on their backgrounds; "group-held-apart" places
    /// only the held-apart sources on the held-apart backgrounds, and no choice looks at it.
    static func groupRecipes(humans: [Source], faceless: [String], heldApartBackgrounds: Set<String>) -> [Recipe] {
        var recipes: [Recipe] = []
        for heldApart in [false, true] {
            let sources = humans.filter { $0.heldApart == heldApart }
            let backgrounds = faceless.indices.filter { heldApartBackgrounds.contains(faceless[$0]) == heldApart }
            guard !sources.isEmpty else { continue }
            let axis = heldApart ? "group-held-apart" : "group"
            var sceneIndex = 0
            for (width, height) in groupFrames {
                for count in groupCounts {
                    for busy in [false, true] where !busy || !backgrounds.isEmpty {
                        let (suffix, finish) = groupFinishes[sceneIndex % groupFinishes.count]
                        let name = "\(axis)-\(width)x\(height)-\(count)-\(busy ? "busy" : "plain")\(suffix)"
                        var generator = SeededGenerator(seed: name.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 })
                        let placements = groupPlacements(count: count, width: width, height: height, sources: sources, using: &generator)
                        recipes.append(Recipe(name: name, axis: axis, width: width, height: height,
                                              background: busy ? backgrounds[sceneIndex % backgrounds.count] : nil, placements: placements, finish: finish))
                        sceneIndex += 1
                    }
                }
            }
        }
        return recipes
    }

    /// `count` faces in a grid of cells about as wide as tall, each face's width drawn evenly on a log
    /// scale from 24 pixels to what its cell holds with the hair and shoulders around it (the cut-out is
    /// 3 face widths wide and 3.2 tall), no more than its picture may be enlarged.
    static func groupPlacements(count: Int, width: Int, height: Int, sources: [Source], using generator: inout SeededGenerator) -> [Placement] {
        let columns = Int((Double(count) * Double(width) / Double(height)).squareRoot().rounded(.up))
        let rows = (count + columns - 1) / columns
        let cellWidth = Double(width) / Double(columns), cellHeight = Double(height) / Double(rows)
        var cells = Array(0..<(columns * rows))
        cells.shuffle(using: &generator)
        let shortSide = Double(min(width, height))
        return (0..<count).map { index in
            let source = sources[(index + Int(generator.next() % UInt64(sources.count))) % sources.count]
            let tilted = generator.next() % 3 == 0
            // A turned cut-out reaches further out of its cell: leave it more room.
            let room = min(cellWidth / 3.0, cellHeight / 3.2) * (tilted ? 0.8 : 1)
            let largest = max(smallestGroupFace, min(room, source.largestEnlargement * Double(source.face.bounds.width)))
            let side = exp(Double.random(in: log(smallestGroupFace)...log(largest), using: &generator))
            let column = cells[index] % columns, row = cells[index] / columns
            // The face's centre anywhere its cut-out stays in the cell: 1.5 widths from the sides, 1.2 from the top, 2 from the bottom.
            let left = Double(column) * cellWidth + 1.5 * side, right = Double(column + 1) * cellWidth - 1.5 * side
            let top = Double(row) * cellHeight + 1.2 * side, bottom = Double(row + 1) * cellHeight - 2 * side
            let centre = Point(x: left < right ? Double.random(in: left...right, using: &generator) : (left + right) / 2,
                               y: top < bottom ? Double.random(in: top...bottom, using: &generator) : (top + bottom) / 2)
            var placement = Placement(source: source, size: side / shortSide, centre: centre)
            placement.tilt = tilted ? Double.random(in: -20...20, using: &generator).rounded() : 0
            placement.mirrored = generator.next() % 2 == 0
            return placement
        }
    }

    // MARK: - Drawing

    func draw(_ recipe: Recipe) throws(OcularError) -> Frame {
        var canvas: Image
        if let index = recipe.background {
            let picture = faceless[index % faceless.count].image
            let crop = PixelRectangle.centred(inWidth: picture.width, height: picture.height, aspectWidth: recipe.width, aspectHeight: recipe.height)
            canvas = try picture.cropped(to: crop).resized(width: recipe.width, height: recipe.height)
        } else {
            // A plain wall whose shade depends on the frame, so not every wall is the same grey.
            let hash: Int = recipe.name.utf8.reduce(0) { (sum: Int, byte: UInt8) -> Int in (sum &* 31 &+ Int(byte)) & 0xFFFF }
            let shade = 90 + hash % 120
            let pixel = [UInt8(shade), UInt8(shade), UInt8(min(255, shade + 12))]
            canvas = try Image(width: recipe.width, height: recipe.height, format: .bgr8, filledWith: pixel)
        }
        var faces: [LabelledFace] = []
        for placement in recipe.placements {
            let (cutout, origin) = try Self.cutout(placement.source)
            let map = try Self.map(placement, cutoutOrigin: origin, shortSide: min(recipe.width, recipe.height))
            canvas = try cutout.warped(by: map.picture, over: canvas)
            if let label = Self.label(placement, map: map, width: recipe.width, height: recipe.height) { faces.append(label) }
        }
        return Frame(name: recipe.name, axis: recipe.axis, image: try recipe.finish.apply(to: canvas, seed: recipe.name), faces: faces)
    }

    /// The face with its surroundings: a face width to each side, 0.7 above, 1.5 below, within the picture.
    static func cutout(_ source: Source) throws(OcularError) -> (Image, Point) {
        let face = source.face.bounds
        let around = PixelRectangle(x: face.x - face.width, y: face.y - face.height * 7 / 10,
                                    width: face.width * 3, height: face.height * 32 / 10)
        let inside = around.clipped(toWidth: source.image.width, height: source.image.height) ?? face
        return (try source.image.cropped(to: inside), Point(x: Double(inside.x), y: Double(inside.y)))
    }

    /// The map from the cut-out to the frame, and the face's scale.
    static func map(_ placement: Placement, cutoutOrigin: Point, shortSide: Int) throws(OcularError) -> (picture: AffineMatrix, scale: Double, centre: Point) {
        let face = placement.source.face.bounds
        let scale = placement.size * Double(shortSide) / Double(face.width)
        // The face's centre in the cut-out.
        let faceX = Double(face.x) + Double(face.width) / 2 - cutoutOrigin.x, faceY = Double(face.y) + Double(face.height) / 2 - cutoutOrigin.y
        let angle = placement.tilt * .pi / 180
        let flip = placement.mirrored ? -1.0 : 1.0
        // p' = centre + R(angle)·scale·(flip·(x − faceX), y − faceY)
        let a = cos(angle) * scale * flip, b = -sin(angle) * scale
        let d = sin(angle) * scale * flip, e = cos(angle) * scale
        let c = placement.centre.x - a * faceX - b * faceY
        let f = placement.centre.y - d * faceX - e * faceY
        return (try AffineMatrix(coefficients: [a, b, c, d, e, f]), scale, placement.centre)
    }

    /// The face's label in the frame: its size times the scale around its new centre, clipped to the
    /// frame; nil when less than half of it is inside.
    static func label(_ placement: Placement, map: (picture: AffineMatrix, scale: Double, centre: Point), width: Int, height: Int) -> LabelledFace? {
        let face = placement.source.face.bounds
        let boxWidth = Double(face.width) * map.scale, boxHeight = Double(face.height) * map.scale
        let box = PixelRectangle(x: Int((map.centre.x - boxWidth / 2).rounded()), y: Int((map.centre.y - boxHeight / 2).rounded()),
                                 width: Int(boxWidth.rounded()), height: Int(boxHeight.rounded()))
        guard let inside = box.clipped(toWidth: width, height: height), inside.width * inside.height * 2 >= box.width * box.height else { return nil }
        return LabelledFace(species: placement.source.face.species, bounds: inside)
    }
}

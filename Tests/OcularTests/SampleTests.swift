import Foundation
import OpenCVReference
import Testing
@testable import Ocular
import OcularTestSupport

/// The OpenCV tutorial's samples, each against known values.
@Suite("samples")
struct SampleTests {
    static let picture = TestData.path("images/coffee.png")

    /// What the reference target's plain C++ program makes of the shared picture.
    static func reference(method: Int, low: Double = 0, high: Double = 0, aperture: Int = 3, direction: Int = 2, scale: Double = 1) throws -> [UInt8] {
        var image = ReferenceImage()
        defer { reference_image_free(&image) }
        guard reference_edges(picture, Int32(method), low, high, Int32(aperture), Int32(direction), scale, &image) == 0, let bytes = image.bytes
        else { throw OcularError.invalidArgument("the reference could not make edges of \(picture)") }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(image.columns * image.rows)))
    }

    static func stage<S: Stage>(_ type: S.Type, _ json: String) throws -> S {
        guard let stage = try Pipeline(Recipe(json: #"{"stages":[{"stage":"\#(type.name)"\#(json.isEmpty ? "" : ", " + json)}]}"#)).steps[0].stage as? S
        else { throw OcularError.invalidArgument("not a \(type.name)") }
        return stage
    }

    // MARK: - Edges

    @Test("Canny equals OpenCV's own on a shared picture", arguments: [(50.0, 150.0, 3), (20, 60, 3), (100, 300, 5), (300, 500, 7)])
    func canny(low: Double, high: Double, aperture: Int) throws {
        let edges = try Self.stage(EdgesStage.self, #""method":"canny","low":\#(low),"high":\#(high),"aperture":\#(aperture)"#)
        let out = try edges.process(Frame(image: Image(contentsOfFile: Self.picture))).image
        #expect(out.format == .gray8)
        let expected = try Self.reference(method: 0, low: low, high: high, aperture: aperture)
        #expect(out.bytes == expected)
        #expect(Set(out.bytes) == [0, 255])
    }

    @Test("Sobel and Scharr equal OpenCV's own in x, y and both, at every aperture",
          arguments: [("sobel", 3), ("sobel", 5), ("sobel", 7), ("scharr", 3)], ["x", "y", "both"])
    func gradients(kernel: (method: String, aperture: Int), direction: String) throws {
        let (method, aperture) = kernel
        let edges = try Self.stage(EdgesStage.self, #""method":"\#(method)","aperture":\#(aperture),"direction":"\#(direction)""#)
        let out = try edges.process(Frame(image: Image(contentsOfFile: Self.picture))).image
        let scale = EdgesStage.strengthScale(method: method == "sobel" ? .sobel : .scharr, aperture: aperture)
        let expected = try Self.reference(method: method == "sobel" ? 1 : 2, aperture: aperture, direction: ["x", "y", "both"].firstIndex(of: direction)!,
                                          scale: scale)
        #expect(out.bytes == expected)
        // Not a black picture: the strengths use the 8 bits.
        #expect((out.bytes.max() ?? 0) > 200)
    }

    @Test("over the frame, edges are painted in the colour and the rest is untouched")
    func edgesOverFrame() throws {
        let picture = try Image(contentsOfFile: Self.picture)
        let alone = try Self.stage(EdgesStage.self, "").process(Frame(image: picture)).image
        let over = try Self.stage(EdgesStage.self, ##""edgesOnly":false,"colour":"#ff00ff""##).process(Frame(image: picture)).image
        #expect(over.format == .bgr8)
        var painted = 0
        for y in stride(from: 0, to: picture.height, by: 3) {
            for x in stride(from: 0, to: picture.width, by: 3) {
                let edge = alone.pixel(x: x, y: y)[0]
                if edge == 255 {
                    #expect(over.pixel(x: x, y: y) == [255, 0, 255])
                    painted += 1
                } else {
                    #expect(over.pixel(x: x, y: y) == picture.pixel(x: x, y: y))
                }
            }
        }
        #expect(painted > 100)
    }

    @Test("an even aperture is refused with what is allowed")
    func evenAperture() {
        #expect {
            try Pipeline(Recipe(json: #"{"stages":[{"stage":"edges","aperture":4}]}"#))
        } throws: { error in
            "\(error)".contains("aperture") && "\(error)".contains("from 3 to 7 in steps of 2")
        }
    }

    // MARK: - Colour

    @Test("sepia is the tutorial's matrix, by hand, in BGR and in RGBA with alpha kept")
    func sepia() throws {
        // (B, G, R) = (50, 100, 200): R′ = .393·200 + .769·100 + .189·50 = 164.95; G′ = 146.8; B′ = 114.35.
        // White: R′ = 1.351·255, G′ = 1.203·255 saturate; B′ = .937·255 = 238.9.
        let bgr = try Image(width: 3, height: 1, format: .bgr8, bytes: [50, 100, 200, 255, 255, 255, 0, 0, 0])
        let toned = try SepiaStage.withDefaults().process(Frame(image: bgr)).image
        #expect(toned.bytes == [114, 147, 165, 239, 255, 255, 0, 0, 0])
        let rgba = try Image(width: 1, height: 1, format: .rgba8, bytes: [200, 100, 50, 77])
        #expect(try SepiaStage.withDefaults().process(Frame(image: rgba)).image.bytes == [165, 147, 114, 77])
        // Gray has no colour to tone: it becomes BGR, each channel the row's sum × the value.
        let gray = try Image(width: 1, height: 1, format: .gray8, bytes: [100])
        #expect(try SepiaStage.withDefaults().process(Frame(image: gray)).image.bytes == [94, 120, 135])
    }

    @Test("negative is exactly 255 − v in every format, alpha kept")
    func negative() throws {
        let ramp = try Image(width: 256, height: 1, format: .gray8, bytes: (0...255).map(UInt8.init))
        #expect(try NegativeStage.withDefaults().process(Frame(image: ramp)).image.bytes == (0...255).map { UInt8(255 - $0) })
        let rgba = try Image(width: 2, height: 1, format: .rgba8, bytes: [0, 10, 200, 33, 255, 128, 1, 255])
        #expect(try NegativeStage.withDefaults().process(Frame(image: rgba)).image.bytes == [255, 245, 55, 33, 0, 127, 254, 255])
        let bgr = try Image(width: 2, height: 1, format: .bgr8, bytes: [0, 10, 200, 255, 128, 1])
        #expect(try NegativeStage.withDefaults().process(Frame(image: bgr)).image.bytes == [255, 245, 55, 0, 127, 254])
    }

    @Test("contrast and brightness: c · v + b, clamped, at both ends of each range",
          arguments: [(0.0, -128.0, [0, 0, 0, 0, 0]), (0, 128, [128, 128, 128, 128, 128]), (2, -128, [0, 0, 72, 126, 255]),
                      (2, 128, [128, 255, 255, 255, 255]), (1, 0, [0, 64, 100, 127, 255]), (0.5, 10, [10, 42, 60, 74, 138])])
    func contrastBrightness(contrast: Double, brightness: Double, expected: [Int]) throws {
        let values: [UInt8] = [0, 64, 100, 127, 255]
        let image = try Image(width: 5, height: 1, format: .gray8, bytes: values)
        let stage = try Self.stage(ContrastBrightnessStage.self, #""contrast":\#(contrast),"brightness":\#(brightness)"#)
        #expect(try stage.process(Frame(image: image)).image.bytes == expected.map(UInt8.init))
        // The same in every channel of BGR; RGBA keeps its alpha.
        let bgr = try Image(width: 5, height: 1, format: .bgr8, bytes: values.flatMap { [$0, $0, $0] })
        #expect(try stage.process(Frame(image: bgr)).image.bytes == expected.flatMap { [UInt8($0), UInt8($0), UInt8($0)] })
        let rgba = try Image(width: 5, height: 1, format: .rgba8, bytes: values.flatMap { [$0, $0, $0, 99] })
        #expect(try stage.process(Frame(image: rgba)).image.bytes == expected.flatMap { [UInt8($0), UInt8($0), UInt8($0), 99] })
    }

    // MARK: - Corners

    @Test("Harris finds the four corners of a drawn square, and nothing on a flat picture",
          arguments: [(60, 50, 40, false, 0), (30, 10, 12, false, 0), (100, 150, 90, true, 0), (50, 80, 60, false, 6)])
    func harrisSquare(side: Int, x: Int, y: Int, darkOnLight: Bool, noise: Int) throws {
        var image = try Image(width: 320, height: 240, format: .bgr8, filledWith: darkOnLight ? [230, 230, 230] : [20, 20, 20])
        let ink = darkOnLight ? Colour(red: 40, green: 40, blue: 40) : Colour(red: 240, green: 240, blue: 240)
        try image.drawRectangle(PixelRectangle(x: x, y: y, width: side, height: side), colour: ink, thickness: -1)
        if noise > 0 { image = try Self.noisy(image, sigma: Double(noise), seed: 7) }
        let frame = try Self.stage(CornersStage.self, "").process(Frame(image: image))
        let corners = frame.annotations(of: Corner.self)
        let truth = [(x, y), (x + side - 1, y), (x, y + side - 1), (x + side - 1, y + side - 1)]
        #expect(corners.count == 4, "\(corners)")
        for (cx, cy) in truth {
            #expect(corners.contains { abs($0.x - Double(cx)) <= 2 && abs($0.y - Double(cy)) <= 2 }, "no corner near (\(cx), \(cy)) in \(corners)")
        }
        let flat = try Image(width: 64, height: 48, format: .bgr8, filledWith: [90, 90, 90])
        #expect(try Self.stage(CornersStage.self, "").process(Frame(image: flat)).annotations.isEmpty)
    }

    // MARK: - Contours

    /// Three rectangles, two discs and a ring, dark on light (or light on dark).
    static func shapes(lightOnDark: Bool) throws -> Image {
        let (paper, ink) = lightOnDark ? (Colour(red: 10, green: 10, blue: 10), Colour(red: 250, green: 250, blue: 250))
            : (Colour(red: 240, green: 235, blue: 220), Colour(red: 30, green: 40, blue: 60))
        var image = try Image(width: 400, height: 300, format: .bgr8, filledWith: [paper.blue, paper.green, paper.red])
        for box in [PixelRectangle(x: 20, y: 20, width: 40, height: 30), PixelRectangle(x: 100, y: 30, width: 80, height: 20),
                    PixelRectangle(x: 30, y: 200, width: 25, height: 70)] {
            try image.drawRectangle(box, colour: ink, thickness: -1)
        }
        try image.drawCircle(at: Point(x: 250, y: 80), radius: 30, colour: ink, thickness: -1)
        try image.drawCircle(at: Point(x: 150, y: 200), radius: 15, colour: ink, thickness: -1)
        try image.drawCircle(at: Point(x: 300, y: 210), radius: 50, colour: ink, thickness: 12)  // a ring: a hole inside
        return image
    }

    @Test("contours count the shapes of a drawn picture, dark on light and light on dark", arguments: [false, true])
    func contours(lightOnDark: Bool) throws {
        let image = try Self.shapes(lightOnDark: lightOnDark)
        for method in ["otsu", "threshold", "adaptive"] {
            let outer = try Self.stage(ContoursStage.self, #""method":"\#(method)","mode":"outer""#).process(Frame(image: image))
            #expect(outer.annotations(of: Contour.self).count == 6, "\(method)")
            let all = try Self.stage(ContoursStage.self, #""method":"\#(method)","mode":"all""#).process(Frame(image: image))
            let found = all.annotations(of: Contour.self)
            #expect(found.count == 7, "\(method)")
            #expect(found.filter { $0.depth == 1 }.count == 1)
            // The 40 × 30 rectangle encloses 39 × 29 pixels between its contour's corner pixels.
            #expect(found.contains { $0.bounds == PixelRectangle(x: 20, y: 20, width: 40, height: 30) && $0.area == 39 * 29 })
            // The disc of radius 30: π r² within 4 %.
            #expect(found.contains { abs($0.area - Double.pi * 900) / (Double.pi * 900) < 0.04 && $0.bounds.width == 61 })
        }
        let drawn = try Self.stage(ContoursStage.self, ##""colour":"#ff0000","thickness":1"##).process(Frame(image: image)).image
        #expect(drawn.pixel(x: 20, y: 35) == [0, 0, 255])  // on the first rectangle's left side
    }

    // MARK: - Features

    @Test("ORB, FAST and AKAZE find keypoints on a textured picture and none on a flat one", arguments: ["orb", "fast", "akaze"])
    func features(detector: String) throws {
        let stage = try Self.stage(FeaturesStage.self, #""detector":"\#(detector)","maximum":300"#)
        let textured = try stage.process(Frame(image: Image(contentsOfFile: Self.picture)))
        let found = textured.annotations(of: Keypoint.self)
        #expect(found.count >= 50 && found.count <= 300, "\(found.count)")
        #expect(found.allSatisfy { $0.size > 0 && $0.x >= 0 && $0.y >= 0 })
        #expect(found.contains { $0.angle != nil } == (detector != "fast"))
        let flat = try Image(width: 320, height: 240, format: .bgr8, filledWith: [128, 100, 60])
        #expect(try stage.process(Frame(image: flat)).annotations.isEmpty)
    }

    @Test("a picture thinner than a keypoint's neighbourhood has none, and passes unchanged (OpenCV's pyramids failed on a 1-pixel side)",
          arguments: ["orb", "fast", "akaze"])
    func featuresOnSlivers(detector: String) throws {
        let stage = try Self.stage(FeaturesStage.self, #""detector":"\#(detector)""#)
        var generator = SeededGenerator(seed: 7)
        for (width, height) in [(1, 1), (500, 1), (1, 500), (6, 400), (400, 6)] {
            let noise = (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let image = try Image(width: width, height: height, format: .bgr8, bytes: noise)
            let processed = try stage.process(Frame(image: image))
            #expect(processed.annotations.isEmpty, "\(width)×\(height)")
            #expect(processed.image == image, "\(width)×\(height)")
        }
        // The smallest side that is searched goes through OpenCV without failing.
        let strip = try Image(width: 400, height: 7, format: .bgr8, bytes: (0..<(400 * 7 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        _ = try stage.process(Frame(image: strip))
    }

    // MARK: - Tracking

    /// A smooth random texture: noise at a sixteenth of the size, enlarged bilinearly.
    static func texture(width: Int, height: Int, seed: UInt64) throws -> Image {
        var generator = SeededGenerator(seed: seed)
        let (small, smallHeight) = (width / 8, height / 8)
        let noise = (0..<(small * smallHeight)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return try Image(width: small, height: smallHeight, format: .gray8, bytes: noise).resized(width: width, height: height)
    }

    @Test("tracking follows a shifted texture within 1 px a frame over 30 frames", arguments: [(2, 1), (-3, 2), (0, -4)])
    func tracking(dx: Int, dy: Int) throws {
        let texture = try Self.texture(width: 480, height: 400, seed: 11)
        let stage = try Self.stage(TrackingStage.self, "")
        var worst = 0.0
        var errors: [Double] = []
        var followed: [Int] = []
        for frame in 0..<30 {
            // The window moves by (dx, dy): what it shows moves by (−dx, −dy).
            let window = PixelRectangle(x: 120 + frame * dx, y: 120 + frame * dy, width: 240, height: 160)
            let image = try texture.cropped(to: window).converted(to: .bgr8)
            let tracks = try stage.process(Frame(image: image)).annotations(of: Track.self)
            guard frame > 0 else { continue }
            let moving = tracks.filter { $0.age > 1 }
            followed.append(moving.count)
            for track in moving {
                errors.append(hypot(track.motion.x + Double(dx), track.motion.y + Double(dy)))
                worst = max(worst, errors[errors.count - 1])
            }
        }
        errors.sort()
        #expect(worst < 1, "the worst motion error was \(worst) px; median \(errors[errors.count / 2]), 99th \(errors[errors.count * 99 / 100])")
        #expect(followed.min() ?? 0 >= 50, "points followed per frame: \(followed)")
    }

    @Test("tracking re-seeds when points are lost, and starts afresh on a frame of another size")
    func trackingReseeds() throws {
        let stage = try Self.stage(TrackingStage.self, #""points":100"#)
        let first = try Self.texture(width: 240, height: 160, seed: 1).converted(to: .bgr8)
        #expect(try stage.process(Frame(image: first)).annotations.count > 50)
        // An unrelated picture: the points are lost, and new ones are found at once.
        let other = try Self.texture(width: 240, height: 160, seed: 2).converted(to: .bgr8)
        let after = try stage.process(Frame(image: other)).annotations(of: Track.self)
        #expect(after.count > 50)
        #expect(after.filter { $0.age == 1 }.count >= after.count * 3 / 4)
        let bigger = try Self.texture(width: 320, height: 240, seed: 2).converted(to: .bgr8)
        #expect(try stage.process(Frame(image: bigger)).annotations(of: Track.self).allSatisfy { $0.age == 1 })
    }

    // MARK: - Denoising, cartoon, canvas

    static func noisy(_ image: Image, sigma: Double, seed: UInt64) throws -> Image {
        var generator = SeededGenerator(seed: seed)
        let bytes = image.bytes.map { value -> UInt8 in
            // Box–Muller.
            let u = Double.random(in: Double.ulpOfOne..<1, using: &generator), v = Double.random(in: 0..<1, using: &generator)
            let gaussian = (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
            return UInt8(max(0, min(255, (Double(value) + sigma * gaussian).rounded())))
        }
        return try Image(width: image.width, height: image.height, format: image.format, bytesPerRow: image.bytesPerRow, bytes: bytes)
    }

    static func psnr(_ one: Image, _ other: Image) -> Double {
        let squared = zip(one.bytes, other.bytes).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
        return 10 * log10(255 * 255 / (squared / Double(one.bytes.count)))
    }

    @Test("total-variation denoising raises the PSNR of a noisy picture against the clean one", arguments: [(15.0, "gray"), (25, "bgr")])
    func totalVariation(sigma: Double, format: String) throws {
        var clean = try Image(contentsOfFile: Self.picture).cropped(to: PixelRectangle(x: 100, y: 80, width: 200, height: 150))
        if format == "gray" { clean = try clean.converted(to: .gray8) }
        let noisy = try Self.noisy(clean, sigma: sigma, seed: 3)
        let denoised = try TotalVariationStage.withDefaults().process(Frame(image: noisy)).image
        #expect(denoised.format == clean.format)
        let before = Self.psnr(noisy, clean), after = Self.psnr(denoised, clean)
        #expect(after > before + 3, "PSNR \(before) → \(after) dB")
    }

    @Test("the cartoon flattens noisy halves into two colours and inks their border black")
    func cartoon() throws {
        var halves = try Image(width: 160, height: 120, format: .bgr8, filledWith: [200, 60, 30])
        try halves.drawRectangle(PixelRectangle(x: 80, y: 0, width: 80, height: 120), colour: Colour(red: 230, green: 200, blue: 40), thickness: -1)
        let out = try CartoonStage.withDefaults().process(Frame(image: Self.noisy(halves, sigma: 8, seed: 5))).image
        #expect(out.format == .bgr8)
        // Inside each half the noise is gone: one colour within a level or two.
        for (x, colour) in [(30, [200, 60, 30]), (130, [40, 200, 230])] {
            let pixel = out.pixel(x: x, y: 60).map(Int.init)
            #expect(zip(pixel, colour).allSatisfy { abs($0 - $1) <= 6 }, "\(pixel) vs \(colour)")
        }
        #expect((78...81).contains { out.pixel(x: $0, y: 60) == [0, 0, 0] })
        #expect(out.pixel(x: 40, y: 60) != [0, 0, 0])
    }

    @Test("the drawing canvas makes a two-level picture: lines on paper")
    func drawingCanvas() throws {
        let out = try DrawingCanvasStage.withDefaults().process(Frame(image: Image(contentsOfFile: Self.picture))).image
        #expect(out.format == .gray8)
        #expect(Set(out.bytes) == [0, 255])
        let ink = Double(out.bytes.filter { $0 == 0 }.count) / Double(out.bytes.count)
        #expect(ink > 0.02 && ink < 0.5, "ink covers \(ink)")
    }

    // MARK: - Odd inputs

    @Test("every sample takes tiny, narrow and YUV frames in every layout: a picture or a clear error, never a crash")
    func oddFrames() throws {
        var images: [Image] = []
        for (width, height) in [(1, 1), (2, 2), (3, 1), (1, 7), (5, 3), (64, 2)] {
            for format in [PixelFormat.gray8, .rgb8, .bgr8, .rgba8, .bgra8] {
                images.append(try Image(width: width, height: height, format: format, filledWith: [UInt8](repeating: 90, count: format.channels)))
            }
        }
        let colour = try Image(contentsOfFile: Self.picture).resized(width: 64, height: 48)
        for format in [PixelFormat.i420, .nv12, .yuyv] { images.append(try colour.converted(to: format)) }
        for description in StageRegistry.standard.descriptions where description.category == .sample {
            for image in images {
                let pipeline = try Pipeline(Recipe(stages: [Recipe.Step(description.name, [:])]))
                do {
                    let out = try pipeline.process(image)
                    #expect(out.width == image.width && out.height == image.height, "\(description.name) on \(image)")
                    #expect(!out.format.isYUV)
                } catch let error as OcularError {
                    // A refusal says what it could not do.
                    #expect("\(error)".count > 10, "\(description.name) on \(image): \(error)")
                }
            }
        }
    }

    // MARK: - The registry

    @Test("every sample is registered in the sample category, with a summary and parameters in their ranges")
    func registered() throws {
        let names = ["edges", "corners", "sepia", "negative", "contrastBrightness", "contours", "cartoon", "features", "tracking",
                     "totalVariation", "drawingCanvas"]
        let samples = StageRegistry.standard.descriptions.filter { $0.category == .sample }
        #expect(samples.map(\.name) == names)
        for sample in samples {
            #expect(sample.summary.count > 40)
            _ = try StageRegistry.standard.stage(named: sample.name).withDefaults()
        }
    }
}

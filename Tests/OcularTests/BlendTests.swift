import Foundation
import Testing
@testable import Ocular
import OcularTestSupport

/// Expected values are the formulas of the textbook's Light Work and W3C Compositing Level 1 worked by hand on colours
/// scaled to 0…1, times 255, rounded to the nearest level (no exact halves occur: 255 is odd); average
/// rounds halves up.
@Suite("Blending: twenty modes, one pass")
struct BlendTests {
    /// Backdrop (frame) and source pixels, RGB: two pairs that exercise both branches of every mode.
    static let backdrops: [[UInt8]] = [[200, 100, 30], [20, 220, 128]]
    static let sources: [[UInt8]] = [[60, 180, 240], [250, 10, 127]]

    /// Per mode, the expected RGB result of each pair.
    static let expected: [(BlendMode, [[UInt8]])] = [
        (.none, [[200, 100, 30], [20, 220, 128]]),
        (.normal, [[60, 180, 240], [250, 10, 127]]),
        // (200 + 60) / 2 = 130; (30 + 240) / 2 = 135; (128 + 127) / 2 = 127.5 → 128
        (.average, [[130, 140, 135], [135, 115, 128]]),
        // 200 · 60 / 255 = 47.06 → 47; 100 · 180 / 255 = 70.59 → 71; 128 · 127 / 255 = 63.75 → 64
        (.multiply, [[47, 71, 28], [20, 9, 64]]),
        // 255 − 55 · 195 / 255 = 212.94 → 213; 255 − 155 · 75 / 255 = 209.41 → 209
        (.screen, [[213, 209, 242], [250, 221, 191]]),
        // backdrop 200 > 127.5: screen(60, 2 · 200 − 255 = 145) = 60 + 145 − 60 · 145 / 255 = 170.88 → 171;
        // 128 > 127.5: 127 + 1 − 127 / 255 = 127.502 → 128
        (.overlay, [[171, 141, 56], [39, 188, 128]]),
        (.darken, [[60, 100, 30], [20, 10, 127]]),
        (.lighten, [[200, 180, 240], [250, 220, 128]]),
        // 200 / (1 − 60/255) = 261.5 → 255 (capped); 220 / (1 − 10/255) = 228.98 → 229
        (.colourDodge, [[255, 255, 255], [255, 229, 255]]),
        // 255 · (1 − (55/255) / (60/255)) = 21.25 → 21; (1 − 20/255) / (250/255) = 0.94 → 15.3 → 15
        (.colourBurn, [[21, 35, 16], [15, 0, 0]]),
        // source 60 ≤ 127.5: 200 · 120 / 255 = 94.12 → 94; source 127 ≤ 127.5: 128 · 254 / 255 = 127.498 → 127
        (.hardLight, [[94, 164, 229], [246, 17, 127]]),
        // source 60 ≤ ½: 200 − (1 − 120/255) · 200 · 55 / 255 = 177.16 → 177; source 180 > ½, backdrop 100/255 > ¼:
        // 100 + (105/255) · (255 · √(100/255) − 100) = 124.58 → 125
        (.softLight, [[177, 125, 78], [61, 192, 128]]),
        (.difference, [[140, 80, 210], [230, 210, 1]]),
        // 200 + 60 − 2 · 200 · 60 / 255 = 165.88 → 166
        (.exclusion, [[166, 139, 214], [231, 213, 128]]),
        // Lum(Cb) = 0.3 · 200 + 0.59 · 100 + 0.11 · 30 = 122.3; Sat(Cb) = 170. SetSat(Cs, 170) = (0, 170, 180) · (170/180)
        // = (0, 113.33, 170); its Lum 85.57; + 36.73 → (36.73, 150.07, 206.73)
        (.hue, [[37, 150, 207], [255, 92, 172]]),
        (.saturation, [[205, 99, 25], [0, 231, 125]]),
        // Lum(Cs) = 0.3 · 60 + 0.59 · 180 + 0.11 · 240 = 150.6; Cs + (122.3 − 150.6) = (31.7, 151.7, 211.7)
        (.colour, [[32, 152, 212], [255, 92, 172]]),
        // Cb + (150.6 − 122.3) = (228.3, 128.3, 58.3)
        (.luminosity, [[228, 128, 58], [0, 146, 79]]),
    ]

    func row(_ pixels: [[UInt8]], format: PixelFormat = .rgb8) throws -> Image {
        try Image(width: pixels.count, height: 1, format: .rgb8, bytes: pixels.flatMap { $0 }).converted(to: format)
    }

    func pixels(_ image: Image) -> [[UInt8]] {
        (0..<image.width).map { image.pixel(x: $0, y: 0) }
    }

    @Test("every mode gives the hand-computed 8-bit results", arguments: expected.map(\.0))
    func handComputed(mode: BlendMode) throws {
        let wanted = try #require(Self.expected.first { $0.0 == mode }?.1)
        let blend = try Blend(source: row(Self.sources), mode: mode)
        #expect(pixels(try blend.apply(to: row(Self.backdrops))) == wanted, "\(mode.rawValue)")
    }

    /// W3C Compositing Level 1's separable blend functions of bytes a and b, times 255, in Double.
    /// Colour dodge and burn are computed as 255·p/q from the bytes, so that exact halves stay exact.
    static func w3c(_ mode: BlendMode, _ a: Int, _ b: Int) -> Double {
        let cb = Double(a) / 255, cs = Double(b) / 255
        func hardLight(_ cb: Double, _ cs: Double) -> Double { cs <= 0.5 ? cb * 2 * cs : cb + (2 * cs - 1) - cb * (2 * cs - 1) }
        switch mode {
        case .normal: return cs
        case .multiply: return cb * cs
        case .screen, .hud: return cb + cs - cb * cs
        case .overlay: return hardLight(cs, cb)
        case .hardLight: return hardLight(cb, cs)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        case .colourDodge: return a == 0 ? 0 : b == 255 ? 1 : min(255, Double(255 * a) / Double(255 - b)) / 255
        case .colourBurn: return a == 255 ? 1 : b == 0 ? 0 : (255 - min(255, Double(255 * (255 - a)) / Double(b))) / 255
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        default: return cb
        }
    }

    @Test("every separable mode equals W3C's formula, rounded, for all 65,536 pairs of bytes, also mixed by an opacity",
          arguments: [BlendMode.normal, .multiply, .screen, .overlay, .darken, .lighten, .colourDodge, .colourBurn, .hardLight, .softLight, .difference, .exclusion])
    func exhaustive(mode: BlendMode) throws {
        // A 256 × 256 gray frame whose row is the backdrop byte, against a source whose column is the source byte.
        let frame = try Image(width: 256, height: 256, format: .gray8, bytes: (0..<65536).map { UInt8($0 >> 8) })
        let source = try Image(width: 256, height: 256, format: .gray8, bytes: (0..<65536).map { UInt8($0 & 255) })
        let blended = try Blend(source: source, mode: mode).apply(to: frame).bytes
        var wrong: [String] = []
        for a in 0..<256 {
            for b in 0..<256 {
                let exact = Self.w3c(mode, a, b) * 255
                let expected = UInt8((exact + 0.5).rounded(.down))
                if blended[a * 256 + b] != expected, wrong.count < 5 { wrong.append("(\(a), \(b)) → \(blended[a * 256 + b]), not \(expected) (\(exact))") }
            }
        }
        #expect(wrong.isEmpty, "\(mode.rawValue): \(wrong)")

        // The same pairs in see-through BGRA pixels at opacity 0.6 (α = 153): every colour byte is
        // round((102 · a + 153 · B) / 255) of the exact B, and alpha stays 77.
        func bgra(_ gray: Image, alpha: UInt8) throws -> Image {
            try Image(width: 256, height: 256, format: .bgra8, bytes: gray.bytes.flatMap { [$0, $0, $0, alpha] })
        }
        let mixed = try Blend(source: bgra(source, alpha: 255), mode: mode, opacity: 0.6).apply(to: bgra(frame, alpha: 77)).bytes
        var wrongMixed: [String] = []
        for a in 0..<256 {
            for b in 0..<256 {
                let blendedByte = Int((Self.w3c(mode, a, b) * 255 + 0.5).rounded(.down))
                let expected = UInt8((Double(102 * a + 153 * blendedByte) / 255 + 0.5).rounded(.down))
                let pixel = Array(mixed[(a * 256 + b) * 4..<(a * 256 + b) * 4 + 4])
                if pixel != [expected, expected, expected, 77], wrongMixed.count < 5 { wrongMixed.append("(\(a), \(b)) → \(pixel), not \(expected)") }
            }
        }
        #expect(wrongMixed.isEmpty, "\(mode.rawValue) at opacity 0.6: \(wrongMixed)")
    }

    /// W3C Compositing Level 1's non-separable blend functions in Double, on colours scaled to 0…1,
    /// written as the specification writes them (SetLum, ClipColor, SetSat).
    static func w3cColour(_ mode: BlendMode, backdrop: [Double], source: [Double]) -> [Double] {
        func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
        func clipColor(_ c: [Double]) -> [Double] {
            let l = lum(c), n = c.min()!, x = c.max()!
            var c = c
            if n < 0 { c = c.map { l + ($0 - l) * l / (l - n) } }
            if x > 1 { c = c.map { l + ($0 - l) * (1 - l) / (x - l) } }
            return c
        }
        func setLum(_ c: [Double], _ l: Double) -> [Double] { clipColor(c.map { $0 + l - lum(c) }) }
        func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }
        func setSat(_ c: [Double], _ s: Double) -> [Double] {
            let low = c.min()!, range = sat(c)
            return range > 0 ? c.map { ($0 - low) * s / range } : [0, 0, 0]
        }
        switch mode {
        case .hue: return setLum(setSat(source, sat(backdrop)), lum(backdrop))
        case .saturation: return setLum(setSat(backdrop, sat(source)), lum(backdrop))
        case .colour: return setLum(source, lum(backdrop))
        default: return setLum(backdrop, lum(source))
        }
    }

    /// Non-separable modes run in float: a result within 10⁻⁴ of a rounding boundary may round the other
    /// way than in Double (about one byte in 500 on photographs), never further.
    @Test("hue, saturation, color and luminosity stay within one level of W3C's formulas, in every pixel layout",
          arguments: [BlendMode.hue, .saturation, .colour, .luminosity])
    func nonSeparableAgainstDouble(mode: BlendMode) throws {
        // 4,096 random pairs, then gray, black, white and fully saturated colours against each other.
        var generator = SeededGenerator(seed: 13)
        var backdrops = (0..<4096).map { _ in (0..<3).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        var sources = (0..<4096).map { _ in (0..<3).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let special: [[UInt8]] = [[0, 0, 0], [255, 255, 255], [41, 41, 41], [249, 249, 249], [255, 0, 0], [0, 255, 0], [0, 0, 255],
                                  [255, 255, 0], [1, 0, 0], [254, 255, 255], [184, 121, 77], [26, 41, 72]]
        for backdrop in special { for source in special { backdrops.append(backdrop); sources.append(source) } }
        let expected = zip(backdrops, sources).map { backdrop, source in
            Self.w3cColour(mode, backdrop: backdrop.map { Double($0) / 255 }, source: source.map { Double($0) / 255 })
                .map { Int(min(max($0 * 255, 0), 255) + 0.5) }
        }
        let blend = try Blend(source: row(sources), mode: mode)
        for format in [PixelFormat.rgb8, .bgr8, .bgra8, .rgba8] {
            let blended = try pixels(blend.apply(to: row(backdrops, format: format)).converted(to: .rgb8))
            var off = 0, farOff: [String] = []
            for (index, (got, wanted)) in zip(blended, expected).enumerated() {
                let distance = zip(got, wanted).map { abs(Int($0) - $1) }.max()!
                if distance > 0 { off += 1 }
                if distance > 1, farOff.count < 5 { farOff.append("\(backdrops[index]) with \(sources[index]) → \(got), not \(wanted)") }
            }
            #expect(farOff.isEmpty, "\(mode.rawValue) in \(format): \(farOff)")
            #expect(off * 100 <= blended.count, "\(mode.rawValue) in \(format): \(off) of \(blended.count) pixels off by one")
        }
    }

    @Test("the expectations cover every mode")
    func coversEveryMode() {
        #expect(Set(Self.expected.map(\.0)).union([.hud]) == Set(BlendMode.allCases))  // HUD: see hud()
        #expect(BlendMode.allCases.count == 19)  // textbook none, average, HUD + 16 W3C (multiply, screen shared)
    }

    @Test("BGR and BGRA frames give the same colours as RGB; alpha is the frame's", arguments: [BlendMode.hue, .screen, .softLight, .luminosity])
    func channelOrders(mode: BlendMode) throws {
        let rgb = try Blend(source: row(Self.sources), mode: mode).apply(to: row(Self.backdrops))
        for format in [PixelFormat.bgr8, .bgra8, .rgba8] {
            var frame = try row(Self.backdrops, format: format)
            if format.hasAlpha {  // a see-through frame: alpha 77 must survive
                var bytes = frame.bytes
                for index in stride(from: 3, to: bytes.count, by: 4) { bytes[index] = 77 }
                frame = try Image(width: frame.width, height: 1, format: format, bytes: bytes)
            }
            let blended = try Blend(source: row(Self.sources), mode: mode).apply(to: frame)
            #expect(blended.format == format)
            #expect(pixels(try blended.converted(to: .rgb8)) == pixels(rgb), "\(mode.rawValue) in \(format)")
            if format.hasAlpha { #expect(blended.pixel(x: 1, y: 0)[3] == 77) }
        }
    }

    @Test("opacity mixes the frame and the blend: round((127 · a + 128 · B) / 255) at 0.5; 0 leaves the frame")
    func opacity() throws {
        let source = try row(Self.sources), frame = try row(Self.backdrops)
        // α = round(0.5 · 255) = 128. Screen of 200 and 60 is 213: (127 · 200 + 128 · 213) / 255 = 206.5 → 207 (206.525)
        let half = try Blend(source: source, mode: .screen, opacity: 0.5).apply(to: frame)
        #expect(half.pixel(x: 0, y: 0) == [207, 155, 136])
        #expect(try Blend(source: source, mode: .difference, opacity: 0).apply(to: frame) == frame)
        #expect(throws: OcularError.self) { try Blend(source: source, mode: .screen, opacity: 1.5) }
    }

    @Test("gray frames: separable modes per byte; hue, saturation and color keep the frame, luminosity takes the source")
    func grayFrames() throws {
        let frame = try Image(width: 2, height: 1, format: .gray8, bytes: [200, 20])
        let source = try Image(width: 2, height: 1, format: .gray8, bytes: [60, 250])
        func blended(_ mode: BlendMode) throws -> [UInt8] { try Blend(source: source, mode: mode).apply(to: frame).bytes }
        #expect(try blended(.multiply) == [47, 20])      // 20 · 250 / 255 = 19.6 → 20
        #expect(try blended(.screen) == [213, 250])      // 20 + 250 − 19.6 = 250.4 → 250
        #expect(try blended(.hue) == [200, 20])
        #expect(try blended(.saturation) == [200, 20])
        #expect(try blended(.colour) == [200, 20])
        #expect(try blended(.luminosity) == [60, 250])
        // A colour source is converted to the frame's gray first (BT.601: 0.299 R + 0.587 G + 0.114 B).
        let colourSource = try Image(width: 2, height: 1, format: .rgb8, bytes: [255, 0, 0, 0, 0, 255])
        let gray = try Blend(source: colourSource, mode: .normal).apply(to: frame)
        #expect(gray.format == .gray8)
        #expect(gray.bytes == [76, 29])
    }

    @Test("the source is cropped around its centre to the frame's shape")
    func cropKeepsTheCentre() throws {
        // Three 100-pixel-wide bands, red | green | blue: a square frame sees only the green.
        var bytes: [UInt8] = []
        for _ in 0..<100 {
            for x in 0..<300 { bytes += x < 100 ? [255, 0, 0] : x < 200 ? [0, 255, 0] : [0, 0, 255] }
        }
        let bands = try Image(width: 300, height: 100, format: .rgb8, bytes: bytes)
        let fitted = try Blend.fit(bands, width: 40, height: 40)
        #expect(fitted.width == 40 && fitted.height == 40)
        for x in [0, 20, 39] {
            let pixel = fitted.pixel(x: x, y: 20)
            #expect(pixel[1] >= 250 && pixel[0] <= 5 && pixel[2] <= 5, "x \(x): \(pixel)")
        }
        #expect(PixelRectangle.centred(inWidth: 300, height: 100, aspectWidth: 1, aspectHeight: 1) == PixelRectangle(x: 100, y: 0, width: 100, height: 100))
        // 100 · 9 / 16 = 56.25 → 56 rows, (300 − 56) / 2 = 122 above
        #expect(PixelRectangle.centred(inWidth: 100, height: 300, aspectWidth: 16, aspectHeight: 9) == PixelRectangle(x: 0, y: 122, width: 100, height: 56))
        #expect(PixelRectangle.centred(inWidth: 1920, height: 1080, aspectWidth: 1280, aspectHeight: 720) == PixelRectangle(x: 0, y: 0, width: 1920, height: 1080))
    }

    @Test("the prepared source follows the frame's size and format")
    func preparedFollowsFrame() throws {
        let blend = try Blend(source: Image(contentsOfFile: TestData.path("images/coffee.png")), mode: .screen)
        let small = try blend.preparedSource(for: Image(width: 64, height: 48, format: .bgr8, filledWith: [0, 0, 0]))
        #expect(small.width == 64 && small.height == 48 && small.format == .bgr8)
        let gray = try blend.preparedSource(for: Image(width: 30, height: 40, format: .gray8, filledWith: [0]))
        #expect(gray.width == 30 && gray.height == 40 && gray.format == .gray8)
    }

    @Test("HUD draws yellow-green edges where the source has edges and leaves flat areas untouched")
    func hud() throws {
        // A white square on black: edges along its sides, flat inside and outside.
        var bytes = [UInt8](repeating: 0, count: 64 * 64 * 3)
        for y in 16..<48 { for x in 16..<48 { for c in 0..<3 { bytes[(y * 64 + x) * 3 + c] = 255 } } }
        let square = try Image(width: 64, height: 64, format: .rgb8, bytes: bytes)
        let frame = try Image(width: 64, height: 64, format: .rgb8, filledWith: [100, 100, 100])
        let blended = try Blend(source: square, mode: .hud).apply(to: frame)
        for (x, y) in [(2, 2), (60, 5), (32, 32), (5, 58)] {
            #expect(blended.pixel(x: x, y: y) == [100, 100, 100], "flat at (\(x), \(y))")
        }
        // Just outside the square's left side the Laplacian is positive: 192 at x = 14 (OpenCV), so
        // green is Screen(100, 192) = 217 and red Screen(100, 96) = 158.
        let edge = blended.pixel(x: 14, y: 32)
        #expect(edge[1] == 217, "green at the edge: \(edge)")
        #expect(edge[0] == 158, "red half as strong: \(edge)")
        #expect(edge[2] == 100, "no blue: \(edge)")
        // Gray frames: untinted edges.
        let grayEdges = try Blend(source: square, mode: .hud).apply(to: frame.converted(to: .gray8))
        #expect(grayEdges.pixel(x: 14, y: 32)[0] == 217 && grayEdges.pixel(x: 2, y: 2)[0] == 100)
    }

    @Test("a source that cannot be read is a clear error naming the stage, the parameter and the file")
    func unreadableSource() throws {
        let missing = "/nonexistent/blend-source.png"
        let error = #expect(throws: StageError.self) {
            try BlendStage.with(["source": .text(missing), "mode": "screen"], images: ImageFiles())
        }
        let message = error?.description ?? ""
        #expect(message.contains("stage 'blend', parameter 'source'") && message.contains(missing), "\(message)")

        let notAnImage = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-blend-\(UUID()).png").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: notAnImage))
        defer { try? FileManager.default.removeItem(atPath: notAnImage) }
        let second = #expect(throws: StageError.self) { try BlendStage.with(["source": .text(notAnImage)], images: ImageFiles()) }
        #expect(second?.description.contains(notAnImage) == true, "\(second?.description ?? "")")

        let unknownMode = #expect(throws: StageError.self) { try BlendStage.with(["mode": "dissolve"]) }
        #expect(unknownMode?.description.contains("'color-dodge'") == true)
    }

    @Test("the blend stage in a recipe: no picture passes frames through; with one it blends")
    func stageInRecipe() throws {
        let frame = try row(Self.backdrops)
        let passThrough = try Pipeline(Recipe(json: #"{"stages":[{"stage":"blend","mode":"multiply"}]}"#))
        #expect(try passThrough.process(frame) == frame)
        struct OnePicture: ImageCatalog {
            let picture: Image
            func image(id: String) throws(OcularError) -> Image {
                guard id == "abc" else { throw .invalidArgument("no picture '\(id)'") }
                return picture
            }
        }
        let pipeline = try Pipeline(Recipe(json: #"{"stages":[{"stage":"blend","source":"abc","mode":"multiply"}]}"#),
                                    images: OnePicture(picture: row(Self.sources)))
        #expect(pixels(try pipeline.process(frame)) == [[47, 71, 28], [20, 9, 64]])
        #expect(throws: StageError.self) {
            try Pipeline(Recipe(json: #"{"stages":[{"stage":"blend","source":"zzz"}]}"#), images: OnePicture(picture: row(Self.sources)))
        }
    }
}

import Foundation
import Testing
@testable import Ocular

/// The Core Image–style filters, each against values worked out by hand.
@Suite("filters")
struct FilterTests {
    /// A one-stage pipeline's stage.
    static func filter<S: Stage>(_ type: S.Type, _ json: String = "", images: any ImageCatalog = NoImages()) throws -> S {
        let recipe = try Recipe(json: #"{"stages":[{"stage":"\#(type.name)"\#(json.isEmpty ? "" : ", " + json)}]}"#)
        guard let stage = try Pipeline(recipe, images: images).steps[0].stage as? S else { throw OcularError.invalidArgument("not a \(type.name)") }
        return stage
    }

    /// An RGB image of the given pixels side by side.
    static func row(_ pixels: [(Int, Int, Int)]) throws -> Image {
        try Image(width: pixels.count, height: 1, format: .rgb8, bytes: pixels.flatMap { [UInt8($0.0), UInt8($0.1), UInt8($0.2)] })
    }

    /// The stage's output pixels, red, green, blue.
    static func apply(_ stage: some Stage, to pixels: [(Int, Int, Int)]) throws -> [[Int]] {
        let out = try stage.process(Frame(image: row(pixels))).image
        #expect(out.format == .rgb8)
        return (0..<out.width).map { x in out.pixel(x: x, y: 0).map(Int.init) }
    }

    // MARK: - Colour

    @Test("sepia tone is the classic matrix at intensity 1 and half of it at 0.5")
    func sepiaTone() throws {
        // R = .393·100 + .769·150 + .189·201 = 192.639; G = .349·100 + .686·150 + .168·201 = 171.568;
        // B = .272·100 + .534·150 + .131·201 = 133.631. White: red and green clip, blue .937·255 = 238.9.
        #expect(try Self.apply(Self.filter(SepiaToneFilter.self), to: [(100, 150, 201), (255, 255, 255)]) == [[193, 172, 134], [255, 255, 239]])
        // Halfway: (100 + 192.639)/2 = 146.3, (150 + 171.568)/2 = 160.8, (201 + 133.631)/2 = 167.3.
        #expect(try Self.apply(Self.filter(SepiaToneFilter.self, #""intensity":0.5"#), to: [(100, 150, 201)]) == [[146, 161, 167]])
        #expect(try Self.apply(Self.filter(SepiaToneFilter.self, #""intensity":0"#), to: [(100, 150, 201)]) == [[100, 150, 201]])
    }

    @Test("exposure multiplies linear light by 2^EV")
    func exposure() throws {
        // 128/255 = 0.50196 is 0.21586 linear; ×2 = 0.43173, encoded 1.055·0.43173^(1/2.4) − 0.055 = 0.68845 → 175.56.
        // ×½ = 0.10793, encoded 0.36225 → 92.37; white ×½ is 0.5 linear, 0.73536 encoded → 187.52. Black stays, white clips.
        #expect(try Self.apply(Self.filter(ExposureAdjustFilter.self, #""ev":1"#), to: [(128, 0, 255)]) == [[176, 0, 255]])
        #expect(try Self.apply(Self.filter(ExposureAdjustFilter.self, #""ev":-1"#), to: [(128, 0, 255)]) == [[92, 0, 188]])
        // Every level, decoded: doubled to within the rounding of one level.
        let levels = (0...255).map { ($0, $0, $0) }
        let out = try Self.apply(Self.filter(ExposureAdjustFilter.self, #""ev":1"#), to: levels)
        for level in 0...120 {
            let doubled = 2 * sRGBDecoded(Double(level) / 255)
            let got = sRGBDecoded(Double(out[level][0]) / 255)
            #expect(abs(got - doubled) <= sRGBDecoded(Double(out[level][0] + 1) / 255) - sRGBDecoded(Double(out[level][0]) / 255) + 1e-9,
                    "level \(level)")
        }
    }

    @Test("gamma raises each value to the power")
    func gamma() throws {
        // (128/255)² · 255 = 64.25; √(64/255) · 255 = 127.75.
        #expect(try Self.apply(Self.filter(GammaAdjustFilter.self, #""power":2"#), to: [(128, 0, 255)]) == [[64, 0, 255]])
        #expect(try Self.apply(Self.filter(GammaAdjustFilter.self, #""power":0.5"#), to: [(64, 0, 255)]) == [[128, 0, 255]])
    }

    @Test("colour controls at the ends of their ranges")
    func colourControls() throws {
        // Saturation 0: every colour its Rec. 709 luma: red 0.2126·255 = 54.2, green 182.4, blue 18.4.
        #expect(try Self.apply(Self.filter(ColourControlsFilter.self, #""saturation":0"#), to: [(255, 0, 0), (0, 255, 0), (0, 0, 255)])
                == [[54, 54, 54], [182, 182, 182], [18, 18, 18]])
        // Saturation 2: red twice as far from its luma: 2·255 − 54.2 clips, 0 − 54.2 clips.
        #expect(try Self.apply(Self.filter(ColourControlsFilter.self, #""saturation":2"#), to: [(255, 0, 0), (100, 100, 100)])
                == [[255, 0, 0], [100, 100, 100]])
        // Contrast 0.25: (in − 0.5)·0.25 + 0.5 → 0 becomes 95.6, 255 becomes 159.4.
        #expect(try Self.apply(Self.filter(ColourControlsFilter.self, #""contrast":0.25"#), to: [(0, 255, 128)]) == [[96, 159, 128]])
        // Contrast 4 pushes everything but mid-gray to the ends.
        #expect(try Self.apply(Self.filter(ColourControlsFilter.self, #""contrast":4"#), to: [(0, 255, 60)]) == [[0, 255, 0]])
        // Brightness: −1 black, +1 white, 0.2 adds 51.
        #expect(try Self.apply(Self.filter(ColourControlsFilter.self, #""brightness":-1"#), to: [(255, 200, 10)]) == [[0, 0, 0]])
        #expect(try Self.apply(Self.filter(ColourControlsFilter.self, #""brightness":1"#), to: [(0, 200, 10)]) == [[255, 255, 255]])
        #expect(try Self.apply(Self.filter(ColourControlsFilter.self, #""brightness":0.2"#), to: [(100, 0, 250)]) == [[151, 51, 255]])
        #expect(try Self.apply(Self.filter(ColourControlsFilter.self), to: [(12, 200, 99)]) == [[12, 200, 99]])
    }

    @Test("hue by 120° turns each primary into the next, and grays stay")
    func hue() throws {
        let primaries = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (90, 90, 90)]
        #expect(try Self.apply(Self.filter(HueAdjustFilter.self, #""angle":120"#), to: primaries) == [[0, 255, 0], [0, 0, 255], [255, 0, 0], [90, 90, 90]])
        #expect(try Self.apply(Self.filter(HueAdjustFilter.self, #""angle":-120"#), to: primaries) == [[0, 0, 255], [255, 0, 0], [0, 255, 0], [90, 90, 90]])
        #expect(try Self.apply(Self.filter(HueAdjustFilter.self, #""angle":0"#), to: primaries) == [[255, 0, 0], [0, 255, 0], [0, 0, 255], [90, 90, 90]])
    }

    @Test("the tone curve passes through its five points and never falls between them")
    func toneCurve() throws {
        let points = #""point0":[0,0.2],"point1":[0.2,0.4],"point2":[0.6,0.6],"point3":[0.8,0.8],"point4":[1,1]"#
        let levels = (0...255).map { ($0, $0, $0) }
        let out = try Self.apply(Self.filter(ToneCurveFilter.self, points), to: levels)
        for (input, output) in [(0, 51), (51, 102), (153, 153), (204, 204), (255, 255)] { #expect(out[input][0] == output, "level \(input)") }
        for level in 1...255 { #expect(out[level][0] >= out[level - 1][0], "level \(level)") }
        // The defaults are the identity.
        #expect(try Self.apply(Self.filter(ToneCurveFilter.self), to: levels).map { $0[0] } == Array(0...255))
        #expect(throws: StageError.self) { try Self.filter(ToneCurveFilter.self, #""point2":[0.2,0.5]"#) }
    }

    @Test("vibrance: dull colours gain saturation, grays stay")
    func vibrance() throws {
        // (200, 100, 100): max 200, mean 133.3, weight (200 − 133.3)/255 · (−3) = −0.784; green and blue
        // 100 + (200 − 100)·(−0.784) = 21.6.
        #expect(try Self.apply(Self.filter(VibranceFilter.self, #""amount":1"#), to: [(200, 100, 100), (80, 80, 80)]) == [[200, 22, 22], [80, 80, 80]])
        // −1 pulls toward the maximum: 100 + 100·0.784 = 178.4.
        #expect(try Self.apply(Self.filter(VibranceFilter.self, #""amount":-1"#), to: [(200, 100, 100)]) == [[200, 178, 178]])
    }

    @Test("white point: white becomes the colour and everything scales with it")
    func whitePoint() throws {
        #expect(try Self.apply(Self.filter(WhitePointAdjustFilter.self, ##""color":"#ff8000""##), to: [(255, 255, 255), (100, 100, 100)])
                == [[255, 128, 0], [100, 50, 0]])
    }

    @Test("colour matrix: channels swapped and biased")
    func colourMatrix() throws {
        let swap = #""rVectorR":0,"rVectorB":1,"bVectorR":1,"bVectorB":0,"biasVectorG":0.2"#
        #expect(try Self.apply(Self.filter(ColourMatrixFilter.self, swap), to: [(10, 20, 30)]) == [[30, 71, 10]])
    }

    @Test("temperature and tint: the same light changes nothing; tungsten white becomes neutral")
    func temperature() throws {
        #expect(try Self.apply(Self.filter(TemperatureAndTintFilter.self), to: [(10, 128, 250)]) == [[10, 128, 250]])
        // White under 3000 K light, as sRGB: warm, red above blue.
        let tungsten = TemperatureAndTintFilter.white(3000, tint: 0) / TemperatureAndTintFilter.white(6500, tint: 0)
        let scale = 200 / tungsten.max()
        let warm = (0..<3).map { Int((255 * sRGBEncoded(tungsten[$0] * scale / 255)).rounded()) }
        #expect(warm[0] > warm[2] + 60)
        let corrected = try Self.apply(Self.filter(TemperatureAndTintFilter.self, #""neutralTemperature":3000"#), to: [(warm[0], warm[1], warm[2])])[0]
        #expect(corrected.max()! - corrected.min()! <= 12, "\(warm) became \(corrected)")
        // Tint: a target tint of 100 scales linear green by 0.8, encoded by 0.8^(1/2.2) = 0.9036: 128 → 115.7.
        let magenta = try Self.apply(Self.filter(TemperatureAndTintFilter.self, #""targetTint":100"#), to: [(128, 128, 128)])[0]
        #expect(magenta == [128, 116, 128])
    }

    @Test("highlights and shadows: the defaults change nothing; lifting shadows spares black and white")
    func highlightShadow() throws {
        let levels = [(0, 0, 0), (40, 40, 40), (128, 64, 32), (255, 255, 255)]
        #expect(try Self.apply(Self.filter(HighlightShadowAdjustFilter.self), to: levels) == levels.map { [$0.0, $0.1, $0.2] })
        let lifted = try Self.apply(Self.filter(HighlightShadowAdjustFilter.self, #""shadowAmount":1"#), to: levels)
        #expect(lifted[0] == [0, 0, 0] && lifted[3] == [255, 255, 255])
        #expect(lifted[1][0] > 55)
        // Colour kept: the ratios of the channels stay.
        #expect(abs(Double(lifted[2][0]) / Double(lifted[2][2]) - 4) < 0.2)
        let pulled = try Self.apply(Self.filter(HighlightShadowAdjustFilter.self, #""highlightAmount":0.3"#), to: [(220, 220, 220), (30, 30, 30)])
        #expect(pulled[0][0] < 205 && pulled[1][0] == 30)
    }

    @Test("colour filters keep alpha, and give colour for gray and YUV frames")
    func formats() throws {
        let sepia = try Self.filter(SepiaToneFilter.self)
        let rgba = try Image(width: 2, height: 1, format: .rgba8, bytes: [100, 150, 201, 7, 255, 255, 255, 200])
        let out = try sepia.process(Frame(image: rgba)).image
        #expect(out.format == .rgba8 && out.pixel(x: 0, y: 0) == [193, 172, 134, 7] && out.pixel(x: 1, y: 0)[3] == 200)
        let gray = try Image(width: 4, height: 2, format: .gray8, filledWith: [100])
        #expect(try sepia.process(Frame(image: gray)).image.format == .bgr8)
        let yuv = try Image(width: 4, height: 2, format: .nv12, filledWith: [100, 128, 128])
        let fromYUV = try sepia.process(Frame(image: yuv)).image
        #expect(fromYUV.format == .bgr8 && fromYUV.width == 4)
    }

    // MARK: - Geometry, compositing, generator, blur

    @Test("straighten turns the picture and fills the frame: no empty corner at any angle", arguments: [-45.0, -10, 3, 10, 30, 45])
    func straighten(angle: Double) throws {
        let white = try Image(width: 200, height: 100, format: .bgr8, filledWith: [255, 255, 255])
        let out = try Self.filter(StraightenFilter.self, #""angle":\#(angle)"#).process(Frame(image: white)).image
        #expect(out.width == 200 && out.height == 100)
        for (x, y) in [(0, 0), (199, 0), (0, 99), (199, 99)] { #expect(out.pixel(x: x, y: y) == [255, 255, 255], "corner (\(x), \(y)) at \(angle)°") }
        // |cos θ| + (w/h)·|sin θ|: at 10°, 0.98481 + 2·0.17365 = 1.33211.
        if angle == 10 { #expect(abs(StraightenFilter.scale(width: 200, height: 100, degrees: 10) - 1.33211) < 1e-5) }
    }

    @Test("straighten leaves the centre where it was and turns a line by the angle")
    func straightenTurns() throws {
        // A horizontal black line through the middle of a white picture, turned by 10°.
        var bytes = [UInt8](repeating: 255, count: 201 * 101)
        for x in 0..<201 { bytes[50 * 201 + x] = 0 }
        let out = try Self.filter(StraightenFilter.self, #""angle":10"#).process(Frame(image: Image(width: 201, height: 101, format: .gray8, bytes: bytes))).image
        #expect(out.pixel(x: 100, y: 50)[0] < 128)
        // 40 px right of the centre (before the zoom of 1.332 the line passes 40·tan 10° = 7.1 px lower).
        let column = (0..<101).map { out.pixel(x: 140, y: $0)[0] }
        let darkest = column.enumerated().min { $0.element < $1.element }!.offset
        #expect(abs(darkest - 57) <= 1, "the line crosses x = 140 at y \(darkest)")
    }

    @Test("crop keeps the rectangle's pixels")
    func crop() throws {
        var bytes = [UInt8](repeating: 0, count: 100 * 80)
        for index in bytes.indices { bytes[index] = UInt8(index % 100 + index / 100) }
        let image = try Image(width: 100, height: 80, format: .gray8, bytes: bytes)
        let out = try Self.filter(CropFilter.self, #""x":0.1,"y":0.25,"width":0.5,"height":0.5"#).process(Frame(image: image)).image
        #expect(out.width == 50 && out.height == 40)
        #expect(out.pixel(x: 0, y: 0) == [UInt8(10 + 20)] && out.pixel(x: 49, y: 39) == [UInt8(59 + 59)])
        // Cut at the edges: starting at 0.8 with width 0.5 keeps the last fifth.
        let edge = try Self.filter(CropFilter.self, #""x":0.8,"width":0.5"#).process(Frame(image: image)).image
        #expect(edge.width == 20 && edge.height == 80)
        #expect(throws: StageError.self) { try Self.filter(CropFilter.self, #""x":1"#) }
    }

    @Test("affine transform: the output is the mapped picture's bounds")
    func affine() throws {
        // Red top-left quarter of a 100 × 80 picture.
        let image = try Image(width: 100, height: 80, format: .bgr8, bytes: (0..<8000).flatMap { index -> [UInt8] in
            index % 100 < 50 && index / 100 < 40 ? [0, 0, 255] : [200, 200, 200]
        })
        let doubled = try Self.filter(AffineTransformFilter.self, #""a":2"#).process(Frame(image: image)).image
        #expect(doubled.width == 200 && doubled.height == 80)
        #expect(doubled.pixel(x: 98, y: 20) == [0, 0, 255] && doubled.pixel(x: 102, y: 20) == [200, 200, 200])
        // A quarter turn, (x, y) → (−y, x): 80 × 100, the red quarter at the top right.
        let turned = try Self.filter(AffineTransformFilter.self, #""a":0,"b":1,"c":-1,"d":0"#).process(Frame(image: image)).image
        #expect(turned.width == 80 && turned.height == 100)
        #expect(turned.pixel(x: 70, y: 10) == [0, 0, 255] && turned.pixel(x: 10, y: 10) == [200, 200, 200] && turned.pixel(x: 70, y: 90) == [200, 200, 200])
        // A shear: the bounds widen by c·height.
        let sheared = try Self.filter(AffineTransformFilter.self, #""c":0.5"#).process(Frame(image: image)).image
        #expect(sheared.width == 140 && sheared.height == 80)
        #expect(throws: StageError.self) { try Self.filter(AffineTransformFilter.self, #""a":1,"b":2,"c":0.5,"d":1"#) }
    }

    /// One picture, whatever the id.
    struct OnePicture: ImageCatalog {
        let picture: Image
        func image(id: String) throws -> Image { picture }
    }

    @Test("source over: the picture covers by its alpha")
    func sourceOver() throws {
        let frame = try Image(width: 4, height: 2, format: .bgr8, filledWith: [100, 100, 100])
        // Left half opaque red, right half red at alpha 128.
        let picture = try Image(width: 4, height: 2, format: .bgra8, bytes: (0..<8).flatMap { $0 % 4 < 2 ? [0, 0, 255, 255] : [0, 0, 255, 128] as [UInt8] })
        let stage = try Self.filter(SourceOverCompositingFilter.self, #""image":"logo""#, images: OnePicture(picture: picture))
        let out = try stage.process(Frame(image: frame)).image
        #expect(out.pixel(x: 0, y: 0) == [0, 0, 255])
        // (255·128 + 100·127)/255 = 178.3 for red; (100·127)/255 = 49.8 for blue and green.
        #expect(out.pixel(x: 3, y: 1) == [50, 50, 178])
        // An opaque picture without alpha covers the frame; no picture leaves it.
        let plain = try Image(width: 8, height: 4, format: .bgr8, filledWith: [1, 2, 3])
        #expect(try Self.filter(SourceOverCompositingFilter.self, #""image":"x""#, images: OnePicture(picture: plain)).process(Frame(image: frame)).image.pixel(x: 2, y: 1) == [1, 2, 3])
        #expect(try Self.filter(SourceOverCompositingFilter.self).process(Frame(image: frame)).image == frame)
    }

    @Test("constant colour fills the frame, keeping its size and format")
    func constantColour() throws {
        let frame = try Image(width: 6, height: 3, format: .rgba8, filledWith: [1, 2, 3, 4])
        let out = try Self.filter(ConstantColourGeneratorFilter.self, ##""color":"#336699""##).process(Frame(image: frame)).image
        #expect(out.format == .rgba8 && out.width == 6 && out.height == 3)
        #expect(Set((0..<6).map { out.pixel(x: $0, y: 2) }) == [[0x33, 0x66, 0x99, 255]])
    }

    @Test("Gaussian blur: a step edge takes the normal curve's values at ±σ")
    func gaussianBlur() throws {
        // Black left of x = 100, white from it; after a blur of σ the profile is 255·Φ((x + ½ − 100)/σ).
        var bytes = [UInt8](repeating: 0, count: 200 * 20)
        for y in 0..<20 { for x in 100..<200 { bytes[y * 200 + x] = 255 } }
        let image = try Image(width: 200, height: 20, format: .gray8, bytes: bytes)
        for sigma in [2.0, 5, 10] {
            let out = try Self.filter(GaussianBlurFilter.self, #""radius":\#(sigma)"#).process(Frame(image: image)).image
            let profile = (0..<200).map { Double(out.pixel(x: $0, y: 10)[0]) }
            for offset in [-1.0, 0, 1] {
                // The pixel whose centre lies offset·σ from the edge (the edge sits at x = 99.5).
                let x = Int((99.5 + offset * sigma).rounded(.up))
                let expected = 255 * 0.5 * erfc(-(Double(x) - 99.5) / (sigma * 2.0.squareRoot()))
                #expect(abs(profile[x] - expected) <= 2, "σ \(sigma) at x \(x): \(profile[x]) vs \(expected)")
            }
        }
        #expect(try Self.filter(GaussianBlurFilter.self, #""radius":0"#).process(Frame(image: image)).image == image)
    }

    // MARK: - Listing

    @Test("the seventeen filters are registered in Core Image's categories")
    func registered() throws {
        let names = ["sepiaTone", "colorControls", "colorMatrix", "exposureAdjust", "gammaAdjust", "hueAdjust", "highlightShadowAdjust",
                     "temperatureAndTint", "toneCurve", "vibrance", "whitePointAdjust", "straighten", "affineTransform", "crop",
                     "sourceOverCompositing", "constantColorGenerator", "gaussianBlur"]
        let filters = StageRegistry.standard.descriptions.filter(\.filter)
        #expect(Set(filters.map(\.name)) == Set(names))
        let categories = Dictionary(filters.map { ($0.name, $0.category) }, uniquingKeysWith: { a, _ in a })
        #expect(categories["gaussianBlur"] == .blur && categories["crop"] == .geometry && categories["sepiaTone"] == .colourEffect
                && categories["sourceOverCompositing"] == .composite && categories["constantColorGenerator"] == .generator
                && categories["vibrance"] == .colourAdjustment)
    }
}

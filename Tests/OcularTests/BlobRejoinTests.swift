import Foundation
@testable import Ocular
import Testing

/// Parts of one object joined back after naming (`BlobDetector.rejoined`), and what is never joined.
@Suite("Blob fragments")
struct BlobRejoinTests {
    static let classifier = Result { try BlobClassifier.train(try TrainingList(contentsOfFile: BlobTests.trainingList), profile: .standard).classifier }

    /// A blob of `size` whose mask is `own` (row by row, true for its pixels) and whose picture is one colour.
    static func blob(at origin: (x: Int, y: Int), size: (width: Int, height: Int), colour: [UInt8], own: (Int, Int) -> Bool) throws -> Blob {
        let mask = (0..<size.height).flatMap { y in (0..<size.width).map { x in own(x, y) ? UInt8(255) : 0 } }
        return Blob(image: try Image(width: size.width, height: size.height, format: .bgr8, filledWith: colour),
                    bounds: PixelRectangle(x: origin.x, y: origin.y, width: size.width, height: size.height),
                    mask: try Image(width: size.width, height: size.height, format: .gray8, bytes: mask), tableBrightness: 200)
    }

    @Test("an ellipse's pixels agree with their moment ellipse, two discs side by side and a cross much less")
    func ellipseAgreement() throws {
        let ellipse = try Self.blob(at: (0, 0), size: (120, 60), colour: [0, 0, 0]) { x, y in
            let (dx, dy) = ((Double(x) + 0.5 - 60) / 58, (Double(y) + 0.5 - 30) / 28)
            return dx * dx + dy * dy <= 1
        }
        #expect(ellipse.ellipseAgreement > 0.97)
        let discs = try Self.blob(at: (0, 0), size: (120, 60), colour: [0, 0, 0]) { x, y in
            let (dy, left, right) = (Double(y) + 0.5 - 30, Double(x) + 0.5 - 30, Double(x) + 0.5 - 90)
            return left * left + dy * dy <= 900 || right * right + dy * dy <= 900
        }
        #expect((0.7...0.9).contains(discs.ellipseAgreement), "\(discs.ellipseAgreement)")
        let cross = try Self.blob(at: (0, 0), size: (90, 90), colour: [0, 0, 0]) { x, y in (35..<55).contains(x) || (35..<55).contains(y) }
        #expect(cross.ellipseAgreement < 0.7, "\(cross.ellipseAgreement)")
        #expect(Blob(image: ellipse.image, bounds: ellipse.bounds).ellipseAgreement == 0)
    }

    @Test("two blobs joined: the box round both, each one's own pixels from its own picture, both masks")
    func joined() throws {
        // Two overlapping boxes; each one's own pixels are its half of a 20 × 10 bar.
        let left = try Self.blob(at: (10, 20), size: (14, 10), colour: [10, 20, 30]) { x, _ in x < 10 }
        let right = try Self.blob(at: (16, 18), size: (14, 14), colour: [200, 100, 50]) { x, y in x >= 4 && (2..<12).contains(y) }
        let whole = try left.joined(with: right)
        #expect(whole.bounds == PixelRectangle(x: 10, y: 18, width: 20, height: 14))
        let mask = try #require(whole.mask)
        #expect(mask.bytes.filter { $0 != 0 }.count == 200)
        #expect(whole.image.pixel(x: 3, y: 5) == [10, 20, 30] && mask.pixel(x: 3, y: 5) == [255])
        #expect(whole.image.pixel(x: 15, y: 5) == [200, 100, 50] && mask.pixel(x: 15, y: 5) == [255])
        // Outside both boxes: the table's gray; inside one box but neither's own: that box's picture.
        #expect(whole.image.pixel(x: 0, y: 0) == [200, 200, 200] && mask.pixel(x: 0, y: 0) == [0])
        #expect(mask.pixel(x: 15, y: 0) == [0])
        #expect(whole.tableBrightness == 200)
        #expect(try left.border(with: right, reach: 1) > 0)
        let apart = try Self.blob(at: (40, 20), size: (10, 10), colour: [0, 0, 0]) { _, _ in true }
        #expect(try left.border(with: apart, reach: 3) == 0)
    }

    /// The demo scene's blobs, named, with the romano bean's mask cut in two: a sliver `sliver` pixels
    /// wide down its long left side, and the rest.
    static func sceneWithCutBean(sliver: Int) throws -> (blobs: [Blob], bean: PixelRectangle) {
        let classifier = try Self.classifier.get()
        let blobs = try classifier.classified(try BlobDetector().detect(in: try BlobTests.scene()).blobs)
        let index = try #require(blobs.firstIndex { $0.label == 8 })
        let bean = blobs[index], mask = try #require(bean.mask)
        // The first own pixel of each row: the sliver is the `sliver` own pixels after it.
        let starts = (0..<mask.height).map { y in (0..<mask.width).first { mask.bytes[y * mask.bytesPerRow + $0] != 0 } ?? mask.width }
        func part(_ inSliver: Bool) throws -> Blob {
            var bytes = [UInt8](repeating: 0, count: mask.width * mask.height)
            for y in 0..<mask.height {
                for x in 0..<mask.width where mask.bytes[y * mask.bytesPerRow + x] != 0 && (x < starts[y] + sliver) == inSliver {
                    bytes[y * mask.width + x] = 255
                }
            }
            return Blob(image: bean.image, bounds: bean.bounds, mask: try Image(width: mask.width, height: mask.height, format: .gray8, bytes: bytes),
                        tableBrightness: bean.tableBrightness)
        }
        var cut = blobs
        cut.remove(at: index)
        cut += try classifier.classified([try part(false), try part(true)])
        return (cut, bean.bounds)
    }

    @Test("a romano bean's shaded side cut off, named nothing or doubtfully, is joined back: the scene is seven objects again",
          arguments: [4, 8, 12, 20])
    func shadedSideJoinedBack(sliver: Int) throws {
        let classifier = try Self.classifier.get()
        let (blobs, bean) = try Self.sceneWithCutBean(sliver: sliver)
        #expect(blobs.count == 8)
        let doubt = BlobDetector.Separation().rejoinDoubt
        func own(_ blob: Blob) -> Int { blob.mask?.bytes.filter { $0 != 0 }.count ?? 0 }
        let cutOff = try #require(blobs.filter { $0.bounds == bean }.min { own($0) < own($1) })
        #expect(cutOff.label == 0 || (cutOff.classification?.distance ?? 0) >= doubt)
        let rejoined = try BlobDetector().rejoined(blobs, in: try BlobTests.scene(), by: classifier)
        #expect(rejoined.map(\.label).sorted() == [2, 3, 4, 5, 6, 7, 8])
        #expect(rejoined.contains { $0.label == 8 && $0.bounds == bean })
        #expect(zip(rejoined, rejoined.dropFirst()).allSatisfy { $0.bounds.area >= $1.bounds.area })
        // The textbook's detection leaves a list as it is.
        let textbook = try BlobDetector(profile: .textbook).rejoined(blobs, in: try BlobTests.scene(), by: classifier)
        #expect(textbook.count == 8)
    }

    @Test("an object named nothing lying against a bean stays an object of its own, and the bean a bean")
    func unknownObjectStays() throws {
        // A blue square, like nothing the training list holds, laid against the pinto bean's left side.
        let original = try BlobTests.scene()
        let pinto = try #require(BlobTests.sceneObjects.first { $0.label == 7 })
        let found = try BlobDetector().detect(in: original).blobs
        let bean = try #require(found.first { $0.bounds.contains(PixelRectangle(x: pinto.x - 20, y: pinto.y - 20, width: 40, height: 40)) })
        let square = PixelRectangle(x: bean.bounds.x - 60, y: pinto.y - 30, width: 64, height: 60)
        var bytes = original.bytes
        for y in square.y..<(square.y + square.height) {
            for x in square.x..<(square.x + square.width) { (bytes[y * original.bytesPerRow + 3 * x], bytes[y * original.bytesPerRow + 3 * x + 1], bytes[y * original.bytesPerRow + 3 * x + 2]) = (200, 60, 40) }
        }
        let scene = try Image(width: original.width, height: original.height, format: .bgr8, bytesPerRow: original.bytesPerRow, bytes: bytes)
        let blobs = try BlobDetector().named(in: scene, by: try Self.classifier.get())
        #expect(blobs.contains { $0.label == 0 && $0.bounds.intersectionOverUnion(square) >= 0.7 }, "\(blobs.map { ($0.label, $0.bounds) })")
        #expect(blobs.contains { $0.label == 7 && $0.bounds.intersectionOverUnion(bean.bounds) >= 0.8 })
    }

    @Test("two pinto beans touching, end to end or side by side, stay two even when every name is doubted",
          arguments: [(true, 0), (false, 0), (true, 40), (false, 40)])
    func touchingBeansStayTwo(endToEnd: Bool, turn: Int) throws {
        let width = 640, height = 480, side = 150
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for pixel in 0..<(width * height) { (bytes[pixel * 3], bytes[pixel * 3 + 1], bytes[pixel * 3 + 2]) = (196, 203, 208) }
        let pinto = try BlobTests.cutOut(label: 7)
        // Where the cut-out's own outline begins and ends, found by laying it once on a scratch copy.
        var scratch = bytes
        let alone = try BlobTests.lay(pinto, side: side, x: 0, y: 0, on: &scratch, width: width)
        let first = try BlobTests.lay(pinto, side: side, x: 120, y: 150, on: &bytes, width: width)
        let second = endToEnd
            ? try BlobTests.lay(pinto, side: side, x: first.x + first.width - 2 - alone.x, y: 150 + turn, on: &bytes, width: width)
            : try BlobTests.lay(pinto, side: side, x: 120 + turn, y: first.y + first.height - 2 - alone.y, on: &bytes, width: width)
        let scene = try Image(width: width, height: height, format: .bgr8, bytes: bytes)
        var separation = BlobDetector.Separation()
        separation.rejoinDoubt = 0
        let doubting = try BlobDetector(method: .separating(separation))
        let classifier = try Self.classifier.get()
        let found = try classifier.classified(try doubting.detect(in: scene).blobs)
        try #require(found.filter { $0.bounds.intersectionOverUnion(first) >= 0.7 || $0.bounds.intersectionOverUnion(second) >= 0.7 }.count == 2,
                     "the detection parts them: \(found.map(\.bounds)) against \(first) and \(second)")
        let rejoined = try doubting.rejoined(found, in: scene, by: classifier)
        #expect(rejoined.contains { $0.bounds.intersectionOverUnion(first) >= 0.7 }, "\(rejoined.map(\.bounds)) against \(first)")
        #expect(rejoined.contains { $0.bounds.intersectionOverUnion(second) >= 0.7 }, "\(rejoined.map(\.bounds)) against \(second)")
    }
}

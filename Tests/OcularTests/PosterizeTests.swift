import Testing
@testable import Ocular

@Suite("posterize")
struct PosterizeTests {
    @Test("each value goes to the nearest of the kept levels, evenly spaced from 0 to 255")
    func nearestLevel() throws {
        let row = try Image(width: 8, height: 1, format: .gray8, bytes: [0, 42, 43, 127, 128, 212, 213, 255])
        let four = try PosterizeStage.with(PosterizeStage.levels(4)).process(Frame(image: row)).image
        #expect(four.bytes == [0, 0, 85, 85, 170, 170, 255, 255])
        let pixel = try Image(width: 1, height: 1, format: .rgba8, bytes: [100, 200, 127, 77])
        let two = try PosterizeStage.with(PosterizeStage.levels(2)).process(Frame(image: pixel)).image
        #expect(two.bytes == [0, 255, 0, 77])  // alpha kept
    }

    @Test("a gradient keeps exactly `levels` values, each within half a step of the input", arguments: [2, 3, 5, 16, 64])
    func gradient(levels: Int) throws {
        let ramp = try Image(width: 256, height: 1, format: .bgr8, bytes: (0..<256).flatMap { [UInt8($0), UInt8(255 - $0), UInt8($0 / 2)] })
        let recipe = try Recipe(json: #"{"stages":[{"stage":"posterize","levels":\#(levels)}]}"#)
        let out = try Pipeline(recipe).process(ramp)
        #expect(Set(out.bytes.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)).count == levels)
        let halfStep = 255 / (2 * Double(levels - 1)) + 0.5
        for (input, output) in zip(ramp.bytes, out.bytes) {
            #expect(abs(Double(input) - Double(output)) <= halfStep, "\(input) → \(output)")
        }
    }

    @Test("levels outside 2…64 or not whole are refused by the declaration")
    func refused() {
        for levels in ["1", "65", "2.5", "\"4\""] {
            #expect(throws: StageError.self) { try Pipeline(Recipe(json: #"{"stages":[{"stage":"posterize","levels":\#(levels)}]}"#)) }
        }
    }
}

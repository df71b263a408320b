import Testing
@testable import Ocular
import OcularTestSupport

@Suite("Gray-world white balance and tint")
struct TintTests {
    @Test("white balance equalises the channel means of coffee.png after a colour cast")
    func whiteBalanceRemovesCast() throws {
        let coffee = try Image(contentsOfFile: TestData.path("images/coffee.png"))
        let cast = try Tint(red: 0.7, green: 0.9, blue: 1.3).apply(to: coffee)  // a cold, blue cast
        let castMeans = cast.channelMeans()
        #expect(castMeans.max()! - castMeans.min()! > 20, "the cast should separate the means: \(castMeans)")

        // With the largest gain 1 nothing clips: the means agree within 2 %. Keeping the brightness
        // raises the weak channel, whose brightest pixels clip at 255: within 4 %.
        for (keepsBrightness, tolerance) in [(false, 0.02), (true, 0.04)] {
            let balanced = try WhiteBalance(saturationThreshold: 1, keepsBrightness: keepsBrightness).apply(to: cast)
            let means = balanced.channelMeans()
            let average = means.reduce(0, +) / 3
            for mean in means { #expect(abs(mean - average) < tolerance * average, "balanced means \(means), keeping brightness: \(keepsBrightness)") }
        }
    }

    @Test("white balance keeps format and alpha, and leaves gray alone")
    func whiteBalanceFormats() throws {
        var bytes = noiseBytes(count: 8 * 8 * 4, seed: 4)
        for index in stride(from: 0, to: bytes.count, by: 4) { bytes[index + 2] /= 2; bytes[index + 3] = 77 }
        let bgra = try Image(width: 8, height: 8, format: .bgra8, bytes: bytes)
        let balanced = try WhiteBalance(saturationThreshold: 1).apply(to: bgra)
        #expect(balanced.format == .bgra8)
        #expect(stride(from: 3, to: balanced.bytes.count, by: 4).allSatisfy { balanced.bytes[$0] == 77 })
        let means = balanced.channelMeans()
        #expect(abs(means[2] - means[0]) < 0.05 * means[0], "red was halved and should be restored: \(means)")

        let gray = try Image(width: 4, height: 1, format: .gray8, bytes: [1, 2, 3, 4])
        #expect(try WhiteBalance().apply(to: gray) == gray)
        #expect(throws: OcularError.self) { try WhiteBalance(saturationThreshold: 2).apply(to: bgra) }
    }

    @Test("random tint factors stay in their ranges")
    func factorRanges() {
        var generator = SeededGenerator(seed: 99)
        var lowest = Tint(red: 9, green: 9, blue: 9), highest = Tint(red: 0, green: 0, blue: 0)
        for _ in 0..<10_000 {
            let tint = Tint.random(using: &generator)
            #expect(TintRanges.coolPig.red.contains(tint.red) && TintRanges.coolPig.green.contains(tint.green) && TintRanges.coolPig.blue.contains(tint.blue))
            lowest = Tint(red: min(lowest.red, tint.red), green: min(lowest.green, tint.green), blue: min(lowest.blue, tint.blue))
            highest = Tint(red: max(highest.red, tint.red), green: max(highest.green, tint.green), blue: max(highest.blue, tint.blue))
        }
        // Uniform draws cover the ranges: the extremes come within 1 % of the bounds.
        #expect(lowest.red < 0.51 && highest.red > 1.49 && lowest.green < 0.61 && highest.green > 1.39)
        #expect(lowest.blue < 0.42 && highest.blue > 1.58)
    }

    @Test("a seed repeats its tints; another seed gives others")
    func seededRepeatability() {
        let first = TintSequence(seed: 42), again = TintSequence(seed: 42), other = TintSequence(seed: 43)
        #expect((0..<20).map(first.tint(number:)) == (0..<20).map(again.tint(number:)))
        #expect(first.tint(number: 0) != other.tint(number: 0))
        #expect(first.tint(number: 0) != first.tint(number: 1))
    }

    @Test("the animation holds each tint for its interval")
    func animationTiming() {
        let sequence = TintSequence(seed: 1, interval: .seconds(2))
        #expect(sequence.tint(at: .milliseconds(1999)) == sequence.tint(number: 0))
        #expect(sequence.tint(at: .milliseconds(2001)) == sequence.tint(number: 1))
        #expect(sequence.tint(at: .seconds(9)) == sequence.tint(number: 4))
    }

    @Test("tint multiplies each channel in its own place and saturates")
    func tintArithmetic() throws {
        let tint = Tint(red: 1.5, green: 0.6, blue: 1.6)
        let rgb = try Image(width: 2, height: 1, format: .rgb8, bytes: [100, 100, 100, 200, 10, 250])
        let tinted = try tint.apply(to: rgb)
        #expect(tinted.pixel(x: 0, y: 0) == [150, 60, 160])
        #expect(tinted.pixel(x: 1, y: 0) == [255, 6, 255])

        let bgra = try Image(width: 1, height: 1, format: .bgra8, bytes: [10, 20, 30, 40])
        #expect(try Tint(red: 2, green: 1, blue: 0.5).apply(to: bgra).pixel(x: 0, y: 0) == [5, 20, 60, 40])
    }

    @Test("a gray image is tinted as RGB")
    func tintGray() throws {
        let gray = try Image(width: 1, height: 1, format: .gray8, bytes: [100])
        let tinted = try Tint(red: 1.2, green: 1, blue: 0.5).apply(to: gray)
        #expect(tinted.format == .rgb8 && tinted.pixel(x: 0, y: 0) == [120, 100, 50])
    }
}

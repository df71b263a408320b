import Foundation
import NIOCore
import Ocular
import OcularTestSupport
import Testing
@testable import OcularStudio

@Suite("a stream's link: measured from its answers, and the level that keeps the rate")
struct LinkMeterTests {
    /// A simulated client: frames of `bytes(level)` each way over a link of `kilobytesPerMs` (both
    /// directions), `latencyMs` one way, and `processingMs` on the server. Returns the level after
    /// each frame.
    struct SimulatedLink {
        var meter = LinkMeter()
        var time = 0.0
        var kilobytesPerMs: Double
        var latencyMs = 0.5
        var processingMs = 5.0

        /// A 1280×720 frame of an ordinary scene at the top rung, and two thirds of it per rung down.
        static func bytes(_ level: Int) -> Double { 110_000 * Foundation.pow(2.0 / 3.0, Double(level)) }

        mutating func run(frames: Int) -> [Int] {
            var levels: [Int] = []
            for _ in 0..<frames {
                let bytes = Self.bytes(meter.level)
                let transfer = bytes / 1000 / kilobytesPerMs
                // Up: the frame follows the acknowledgement at once.
                time += transfer + latencyMs
                meter.frameArrived(bytes: Int(bytes), at: time)
                meter.processed(milliseconds: processingMs)
                time += processingMs
                meter.answerWritten(bytes: Int(bytes), at: time)
                time += transfer + 2 * latencyMs  // down, then the acknowledgement back
                _ = meter.answerReceived(at: time, sendingNext: true)
                levels.append(meter.level)
            }
            return levels
        }

        /// `frames` frames over a link whose speed depends on the rung (a bursty one), one by one.
        mutating func run(frames: Int, kilobytesPerMs speed: (Int) -> Double) -> [Int] {
            (0..<frames).flatMap { _ in
                kilobytesPerMs = speed(meter.level)
                return run(frames: 1)
            }
        }

        /// How many times `levels` steps from `rung` to the one above it.
        static func tries(from rung: Int, in levels: [Int]) -> Int {
            zip(levels, levels.dropFirst()).filter { $0.0 == rung && $0.1 == rung - 1 }.count
        }
    }

    @Test("a fast link stays at the top rung")
    func fastLinkStays() {
        var link = SimulatedLink(kilobytesPerMs: 125)  // 1 Gbit/s
        #expect(link.run(frames: 300).allSatisfy { $0 == 0 })
        #expect(link.meter.downloadRate.map { $0 > 50_000 } == true, "bytes per ms")
    }

    @Test("20 Mbit/s settles on the largest frames whose transfers fit, without oscillating; 5 Mbit/s on smaller ones; a clear link climbs back")
    func settlesAndClimbs() {
        var link = SimulatedLink(kilobytesPerMs: 2.5)  // 20 Mbit/s
        let twenty = link.run(frames: 300)
        // Rung 3 (~33 kB a frame) is the largest whose two transfers fit in 33 ms less processing.
        #expect(twenty.last == 3)
        #expect(Set(twenty.suffix(200)).count == 1, "settled: \(Array(twenty.suffix(200)))")
        #expect(link.meter.waitBeforeStepUp == LinkMeter.underBeforeStepUp, "no failed tries")
        #expect(twenty.firstIndex(of: 3).map { $0 < 30 } == true, "down within a second: \(twenty.prefix(40))")
        link.kilobytesPerMs = 0.625  // 5 Mbit/s
        let five = link.run(frames: 300)
        #expect(five.last == 7)
        #expect(Set(five.suffix(200)).count == 1)
        link.kilobytesPerMs = 12.5  // 100 Mbit/s
        let clear = link.run(frames: 400)
        #expect(clear.last == 0, "climbed back: \(clear)")
        #expect(Set(clear.suffix(100)).count == 1)
        // The rates it measured are those of the link (the answer's round trip includes the latency).
        let measured = link.meter.downloadRate ?? 0
        #expect(measured > 12_500 * 0.8 && measured <= 12_500, "\(measured) bytes/ms")
        #expect(abs((link.meter.uploadRate ?? 0) - 12_500) < 12_500 * 0.1)
    }

    @Test("a recipe slower than the camera sets the rate: the transfers may take half its time, no more")
    func slowRecipe() {
        var link = SimulatedLink(kilobytesPerMs: 2.5, processingMs: 200)
        let levels = link.run(frames: 100)
        #expect(abs(link.meter.budgetMs - 100) < 1, "half the processing time")
        // At 20 Mbit/s the full frames' transfers fit in 100 ms; at 5 Mbit/s ~22 kB frames do (rung 4).
        #expect(levels.allSatisfy { $0 == 0 })
        link.kilobytesPerMs = 0.625
        #expect(link.run(frames: 100).last == 4)
    }

    @Test("a stream whose every 30th frame takes 200 ms (a whole-frame face search) and the rest 15 ms reads as 15 ms a frame, never slower than the camera; a recipe that turns slow reads slow within 8 frames")
    func processingIgnoresOneOffFrames() {
        var meter = LinkMeter()
        var highest = 0.0
        for frame in 0..<300 {
            meter.processed(milliseconds: frame % 30 == 29 ? 200 : 15)
            highest = max(highest, meter.processingMs ?? 0)
        }
        #expect(highest == 15, "read \(highest) ms")
        #expect(meter.budgetMs > meter.frameIntervalMs - 16)
        var frames = 0
        while (meter.processingMs ?? 0) <= meter.frameIntervalMs, frames < 30 {
            meter.processed(milliseconds: 60)
            frames += 1
        }
        #expect(frames <= 8, "slow after \(frames) frames")  // past the middle of the last 15
    }

    @Test("a link that holds a rung but not the one above tries it ever more rarely")
    func triesBackOff() {
        // Rung 3 of an ordinary frame takes ~26 ms both ways here; latency makes rung 2 ~40 ms.
        var link = SimulatedLink(kilobytesPerMs: 2.5, latencyMs: 0.5)
        link.meter = LinkMeter()
        _ = link.run(frames: 100)
        #expect(link.meter.level == 3)
        // Make rung 3 look roomy (its transfers well under the budget) while rung 2 stays too large:
        // a faster link for small frames is what a bursty Wi-Fi link looks like.
        let levels = link.run(frames: 3000) { $0 >= 3 ? 5 : 2 }
        let tries = SimulatedLink.tries(from: 3, in: levels)
        #expect(tries >= 3 && tries <= 8, "tries: \(tries)")
        #expect(Double(levels.filter { $0 == 3 }.count) / Double(levels.count) > 0.95)
        #expect(link.meter.waitBeforeStepUp > LinkMeter.underBeforeStepUp * 4)
    }

    @Test("a token bucket that lets a rung's small frames through at once (transfers under a third of the budget) while the rung above fills it: the tries back off all the same, and a link that truly clears still climbs at once")
    func bucketBackOff() {
        // 5 Mbit/s behind a bucket: rung 6 (~10 kB) crosses at 80 Mbit/s, a burst; rung 5 (~14 kB) at the rate.
        var link = SimulatedLink(kilobytesPerMs: 10, latencyMs: 0.5)
        let levels = link.run(frames: 3000) { $0 >= 6 ? 10 : 0.625 }
        let tries = SimulatedLink.tries(from: 6, in: levels)
        #expect(tries >= 3 && tries <= 8, "tries: \(tries)")
        #expect(Double(levels.suffix(2000).filter { $0 == 6 }.count) / 2000 > 0.95)
        // The link clears (every rung's transfers shrink to a tenth): the next rung is tried within a second.
        link.kilobytesPerMs = 100
        let cleared = link.run(frames: 40)
        #expect(cleared.contains { $0 < 6 }, "\(cleared)")
    }

    @Test("transfers well under the budget but now and then merely within it still lead to a try of the rung above")
    func noisyRoomClimbs() {
        var meter = LinkMeter()
        var time = 0.0
        /// One answer whose round trip is `roundTrip` ms; no upload is timed (the page waited for its camera).
        func frame(_ roundTrip: Double) {
            meter.processed(milliseconds: 3)
            meter.answerWritten(bytes: 10_000, at: time)
            time += roundTrip
            _ = meter.answerReceived(at: time, sendingNext: false)
            time += 5
        }
        for _ in 0..<3 { frame(100) }  // far over the budget: two rungs down
        #expect(meter.level == 2)
        let budget = meter.budgetMs
        // Mostly half the budget; every fifth sample 1.2 × the budget, which lifts the smoothed transfers
        // into the band between the headroom (0.7) and the budget for one frame, never over it.
        var climbedAt: Int?
        for index in 0..<200 where climbedAt == nil {
            frame(index % 5 == 4 ? budget * 1.2 : budget * 0.5)
            let transfer = meter.transferMs ?? 0
            #expect(transfer <= budget, "never over the budget: \(transfer) of \(budget) ms")
            if meter.level < 2 { climbedAt = index }
        }
        // 30 frames well under, and the 7 in the band between them.
        #expect(climbedAt == 36, "climbed after \(climbedAt.map(String.init) ?? "never")")
    }

    @Test("fixed quality measures but never moves; an upload is timed only when the frame followed the acknowledgement")
    func fixedAndUntimed() {
        var link = SimulatedLink(kilobytesPerMs: 0.625)
        link.meter = LinkMeter(adapts: false)
        #expect(link.run(frames: 100).allSatisfy { $0 == 0 })
        #expect(link.meter.transferMs.map { $0 > 300 } == true)

        var meter = LinkMeter()
        meter.answerWritten(bytes: 10_000, at: 0)
        _ = meter.answerReceived(at: 10, sendingNext: false)
        meter.frameArrived(bytes: 10_000, at: 500)  // the page waited for its camera: no upload time
        #expect(meter.uploadMs == nil)
        #expect(meter.answerRoundTripMs == 10)
    }

    @Test("a frame sent while another is processed is timed from its `upload` announcement, not from an acknowledgement long before")
    func framesSentAhead() {
        var meter = LinkMeter()
        meter.answerWritten(bytes: 10_000, at: 0)
        _ = meter.answerReceived(at: 10, sendingNext: true)
        meter.frameArrived(bytes: 20_000, at: 14)
        #expect(meter.uploadMs == 4)
        // The next frame goes 30 ms later, while that one is processed.
        meter.uploadStarts(at: 44)
        meter.frameArrived(bytes: 20_000, at: 48)
        #expect(meter.uploadMs == 4)
        #expect(meter.uploadRate == 5_000, "bytes per ms")
        // Unannounced, a frame is not timed.
        meter.frameArrived(bytes: 20_000, at: 400)
        #expect(meter.uploadMs == 4)
    }
}

@Suite("the stream's link reports")
struct StreamLinkTests {

    @Test("an acknowledged answer brings the link's figures; a bad acknowledgement is refused by name; answers follow the level's quality")
    func acknowledgements() throws {
        let session = try StreamSession(configuration: StudioConfiguration())
        let image = try Image(contentsOfFile: dataRoot + "/images/coffee.png")
        let frame = ByteBuffer(bytes: try image.encoded(as: .jpeg(quality: 90)))
        session.frameArrived(bytes: frame.readableBytes)
        guard case .frame(let jpeg, _, _) = session.process(frame) else { Issue.record("no answer"); return }
        session.answerWritten(bytes: jpeg.count)
        let link = try StreamProtocol().answer(session.receive(declared: "received", ["next": true]))
        #expect(link.type == "link" && link["level"] == 0 && link["levels"].int == LinkLevel.ladder.count)
        #expect(link["processingMs"].double.map { $0 > 0 } == true)
        #expect(link["upload"]["quality"] == 0.85)
        #expect(link["answerQuality"] == 80, "the top rung keeps the chosen quality")
        // Within the second and at the same level: no report.
        session.answerWritten(bytes: jpeg.count)
        #expect(try session.receive(declared: "received", ["next": false]) == nil)
        // Sent as text: neither is an acknowledgement the studio takes.
        let refused = try StreamProtocol().answer(session.receive(#"{"type":"received","next":"yes"}"#))
        #expect(refused.type == "error" && refused.message == "next must be true or false")
        let unknown = try StreamProtocol().answer(session.receive(#"{"type":"received","nxt":true}"#))
        #expect(unknown.message == "a received message has no 'nxt'; it has next")
        // A frame sent ahead is announced, and nothing answers the announcement.
        #expect(try session.receive(declared: "upload") == nil)
        let stray = try StreamProtocol().answer(session.receive(#"{"type":"upload","next":true}"#))
        #expect(stray.type == "error" && stray.message == "an upload message has no 'next'; it has only its type")
    }
}

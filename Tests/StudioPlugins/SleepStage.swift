import Foundation
import Ocular

/// A stage that exists only in tests: it holds each frame for a while and changes nothing, a recipe
/// slower than the camera. With it the browser tests check that nothing between the camera and the
/// screen queues frames behind slow processing.
public struct SleepStage: Stage {
    public static let name = "sleep"
    public static let title = "Sleep"
    public static let category = StageCategory.colourEffect
    public static let summary = "Holds every frame for a while and changes nothing (a stage of the tests, not of Ocular)."
    public static let milliseconds = Key<Int>.integer("milliseconds", title: "Milliseconds", in: 0...2000, default: 200,
                                                      help: "How long each frame is held.")
    public static let parameters = declared(milliseconds)

    let duration: Int

    public init(_ values: StageValues) {
        duration = values[Self.milliseconds]
    }

    public func process(_ frame: Frame) throws -> Frame {
        Thread.sleep(forTimeInterval: Double(duration) / 1000)
        return frame
    }
}

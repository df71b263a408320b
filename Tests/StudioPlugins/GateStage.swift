import Foundation
import Ocular
import Synchronization

/// A stage that exists only in tests: each frame waits at the gate until the test opens it, so a
/// test can hold every frame thread busy for as long as it needs, as a client's heaviest frame does.
public struct GateStage: Stage {
    public static let name = "gate"
    public static let title = "Gate"
    public static let category = StageCategory.colourEffect
    public static let summary = "Holds every frame until the test opens the gate (a stage of the tests, not of Ocular)."
    public static let parameters = declared()

    /// How many frames have reached the gate, and whether it is open.
    public static let state = Mutex<(arrived: Int, open: Bool)>((0, true))

    /// Closes the gate and forgets the frames counted.
    public static func close() { state.withLock { $0 = (0, false) } }
    public static func open() { state.withLock { $0.open = true } }
    public static var arrived: Int { state.withLock { $0.arrived } }

    public init(_ values: StageValues) {}

    public func process(_ frame: Frame) throws -> Frame {
        Self.state.withLock { $0.arrived += 1 }
        // At most a minute: a test that fails must not leave a thread held for ever.
        for _ in 0..<6000 where !Self.state.withLock({ $0.open }) { usleep(10_000) }
        return frame
    }
}

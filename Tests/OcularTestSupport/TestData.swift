import Foundation
import Ocular

/// The shared test data (real images, videos, cascades) lives beside the repository, never fetched.
public enum TestData {
    public static let root: String = {
        if let override = ProcessInfo.processInfo.environment["OCULAR_TEST_DATA"] { return override }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repository.deletingLastPathComponent().appendingPathComponent("shared/data").path
    }()

    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// The studio's demo pictures, in this repository.
    public static func demo(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/OcularStudio/Public/demo/" + relative).path
    }

    /// The studio's shipped training list (outside the folder it serves).
    public static let shippedTrainingList = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/OcularStudio/TrainingList/labels.json").path
}

/// A fresh folder for one test's files, removed when the test ends.
public final class TemporaryFolder {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "ocular-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder, hidden files included.
    public var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}


/// Deterministic pseudo-random bytes for test images.
public func noiseBytes(count: Int, seed: UInt64) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
}

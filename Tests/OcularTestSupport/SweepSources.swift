import Foundation
@testable import Ocular
@testable import OcularEvaluation

/// The robustness sweep of Tests/Fixtures/faces/sweep-sources.json: the shared faces and pictures plus
/// Grace Hopper (matplotlib's sample data), messi5.jpg and three faceless pictures of Debian's opencv-doc.
package enum SweepSources {
    package static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/faces").path
    package static let sharedPrefix = "../../../../shared/data/"

    /// The list, its shared pictures read from the test data folder (OCULAR_TEST_DATA when set).
    package static func list() throws -> FaceLabelList {
        var list = try FaceLabelList(contentsOf: folder + "/sweep-sources.json")
        list.entries = list.entries.map { entry in
            var entry = entry
            if entry.file.hasPrefix(sharedPrefix) { entry.file = TestData.path(String(entry.file.dropFirst(sharedPrefix.count))) }
            return entry
        }
        return list
    }

    /// Made once per process: decoding the sources is the slow part.
    package static let sweep: Result<FaceSweep, OcularError> = Result { () throws(OcularError) in
        do { return try FaceSweep(list: try list()) } catch let error as OcularError { throw error } catch {
            throw .invalidArgument("\(error)")
        }
    }

    /// A cat under 0.3 of the short side: below what the votes find (the sweep's one cat is a close-up
    /// whose ears the photo cuts off; shrunk into a frame it is a picture the cat cascade was not trained on).
    package static func isSmallCat(_ name: String) -> Bool {
        name.hasPrefix("cat-size-") && (Double(name.dropFirst("cat-size-".count).prefix(4)) ?? 1) < 0.3
    }

    /// The frames the issue's figure is over: faces 0.1–0.8 of the short side, tilted at most ±20°.
    package static func inIssueRange(_ name: String) -> Bool {
        if name.hasPrefix("size-") { return !name.hasPrefix("size-0.08") && !name.hasPrefix("size-0.90") }
        if name.hasPrefix("tilt-") { return !name.hasPrefix("tilt-25") && !name.hasPrefix("tilt--25") }
        return !name.hasPrefix("cat-") && !name.hasPrefix("none-")
    }
}

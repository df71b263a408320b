import Foundation
import HummingbirdWSClient
import Ocular
@testable import OcularStudio

/// The shared test pictures beside the repository (override with OCULAR_TEST_DATA).
let dataRoot: String = {
    if let override = ProcessInfo.processInfo.environment["OCULAR_TEST_DATA"] { return override }
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return repository.deletingLastPathComponent().appendingPathComponent("shared/data").path
}()

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

/// A processed frame's answer as a client reads it: the number of the frame it answers, the messages
/// that go with it (its annotations, a save's answer), and its JPEG.
struct ReadFrameAnswer {
    let frame: Int
    let messages: [[String: Any]]
    let jpeg: [UInt8]

    init(_ message: WebSocketMessage?) throws {
        guard case .binary(let buffer) = message else { throw NotAFrameAnswer(description: "expected a frame, got \(String(describing: message))") }
        let (header, jpeg) = try StreamMessage.FrameAnswer.read(buffer)
        guard let frame = header["frame"] as? Int, let messages = header["messages"] as? [[String: Any]] else {
            throw NotAFrameAnswer(description: "a frame answer's header without its frame or messages: \(header)")
        }
        self.frame = frame
        self.messages = messages
        self.jpeg = jpeg
    }

    var image: Image {
        get throws { try Image(decoding: jpeg, name: "reply") }
    }
}

struct NotAFrameAnswer: Error, CustomStringConvertible { let description: String }

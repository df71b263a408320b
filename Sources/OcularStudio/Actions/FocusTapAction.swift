import Foundation
import Ocular

/// `{"type":"tap","x":…,"y":…,"viewWidth":…,"viewHeight":…,"frameWidth":…,"frameHeight":…,
/// "layout":"letterbox","orientation":"landscape-right","position":"front"}`: a tap on the preview,
/// mapped by the server through ``CameraGeometry`` (the one tested place) to the camera's point of
/// interest, which the page then hands to the camera.
struct TapRequest: MessageBody, Equatable {
    var x: Double
    var y: Double
    var viewWidth: Double
    var viewHeight: Double
    var frameWidth: Double
    var frameHeight: Double
    var layout: PreviewLayout
    var orientation: VideoOrientation
    var position: CameraPosition

    enum CodingKeys: String, CodingKey, CaseIterable {
        case x, y, viewWidth, viewHeight, frameWidth, frameHeight, layout, orientation, position
    }

    static func describe(_ field: CodingKeys) -> MessageField {
        switch field {
        case .x, .y, .viewWidth, .viewHeight, .frameWidth, .frameHeight: MessageField(.number, required: true, "a number of pixels")
        case .layout: MessageField(.choice(PreviewLayout.allCases.map(\.rawValue)), "how the preview shows the frame")
        case .orientation: MessageField(.choice(VideoOrientation.allCases.map(\.rawValue)), "how the device is held")
        case .position: MessageField(.choice(CameraPosition.allCases.map(\.rawValue)), "which camera")
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func number(_ key: CodingKeys) throws -> Double {
            guard let value = try? container.decode(Double.self, forKey: key), value.isFinite, abs(value) <= 1e6 else {
                throw StreamMessageError("a tap's \(key.stringValue) must be a number of pixels")
            }
            return value
        }
        x = try number(.x)
        y = try number(.y)
        viewWidth = try number(.viewWidth)
        viewHeight = try number(.viewHeight)
        frameWidth = try number(.frameWidth)
        frameHeight = try number(.frameHeight)
        func choice<Value: RawRepresentable & CaseIterable>(_ key: CodingKeys, _ fallback: Value) throws -> Value where Value.RawValue == String {
            guard let text = try? container.decodeIfPresent(String.self, forKey: key) else {
                if container.contains(key) { throw StreamMessageError("a tap's \(key.stringValue) must be text") }
                return fallback
            }
            guard let value = Value(rawValue: text) else {
                throw StreamMessageError("a tap's \(key.stringValue) is one of \(Value.allCases.map(\.rawValue).joined(separator: ", ")), not \(StageError.quoted(text))")
            }
            return value
        }
        layout = try choice(.layout, PreviewLayout.letterbox)
        // A browser delivers camera frames upright already: its frames are the sensor frame as
        // shown, which is what landscape-right means here.
        orientation = try choice(.orientation, VideoOrientation.landscapeRight)
        position = try choice(.position, CameraPosition.back)
    }

    /// Where the frame shows in the view, and the tap's point of interest there (nil off the picture).
    var answer: (preview: CGRect, point: CGPoint?) {
        let preview = CameraGeometry.previewRect(frame: CGSize(width: frameWidth, height: frameHeight),
                                                 view: CGSize(width: viewWidth, height: viewHeight), layout: layout)
        let point = CameraGeometry.pointOfInterest(tap: CGPoint(x: x, y: y), preview: preview, orientation: orientation, position: position)
        return (preview, point)
    }
}

/// Tap to focus, on every page: a ``TapRequest`` answered `tapped` with where the frame shows in the
/// view and the camera's point of interest (0…1 in the camera's frame), or null for a tap beside the
/// picture.
final class FocusTapAction: PageAction {
    static let name = "focusTap"
    static let tapped = ActionAnswerType<Tapped>("tapped")
    static let answers = [tapped.declaration]

    enum Message: InboundMessages {
        case tap(TapRequest)
        static let declarations: [MessageDeclaration<Message>] = [.init("tap", TapRequest.self, Message.tap)]
    }

    init(context: PageActionContext) {}

    func receive(_ message: Message) throws(StreamMessageError) -> StreamMessage.Outbound? {
        switch message {
        case .tap(let tap):
            let answer = tap.answer
            return Self.tapped(Tapped(preview: answer.preview, pointOfInterest: answer.point))
        }
    }

    /// The answer: the preview rectangle, and the point (null off the picture).
    struct Tapped: AnswerBody {
        let preview: CGRect
        let pointOfInterest: CGPoint?

        enum CodingKeys: String, CodingKey, CaseIterable { case preview, pointOfInterest }

        static func describe(_ field: CodingKeys) -> MessageField {
            switch field {
            case .preview: MessageField(.object, required: true, "x, y, width, height: the preview's rectangle")
            case .pointOfInterest: MessageField(.object, required: true, "x, y: the point, fractions of the frame; null off the picture")
            }
        }
        private struct Point: Encodable { let x: Double, y: Double }
        private struct Rectangle: Encodable { let x: Double, y: Double, width: Double, height: Double }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Rectangle(x: preview.minX, y: preview.minY, width: preview.width, height: preview.height), forKey: .preview)
            if let point = pointOfInterest {
                try container.encode(Point(x: point.x, y: point.y), forKey: .pointOfInterest)
            } else {
                try container.encodeNil(forKey: .pointOfInterest)
            }
        }
    }
}

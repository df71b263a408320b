import Foundation

/// How the device is held while capturing, as AVFoundation names it. The sensor's own frame is
/// landscape-right: the device turned so that its top points left.
public enum VideoOrientation: String, CaseIterable, Sendable, Codable {
    /// Upright, the home button (or chin) down.
    case portrait
    /// Upside down.
    case portraitUpsideDown = "portrait-upside-down"
    /// Turned a quarter to the left: the top of the device on the left.
    case landscapeLeft = "landscape-left"
    /// Turned a quarter to the right: the top of the device on the right.
    case landscapeRight = "landscape-right"
}

/// Which way a camera faces. A front camera's picture is shown mirrored, as people expect of a mirror.
public enum CameraPosition: String, CaseIterable, Sendable, Codable {
    /// The camera facing the user (`front`) or away (`back`).
    case front, back
}

/// How a frame fills a view of another shape.
public enum PreviewLayout: String, CaseIterable, Sendable, Codable {
    /// The whole frame, as large as fits, centred; black bars fill the rest.
    case letterbox
    /// The whole view covered, centred; what overflows is cropped.
    case aspectFill = "aspect-fill"
}

/// The arithmetic between a camera's frames and what a person sees and taps, in one place: both
/// textbook apps got rotation or mirroring wrong somewhere, so every caller goes through here.
public enum CameraGeometry {
    /// Where the frame is drawn in the view. Both layouts keep the frame's aspect ratio and centre
    /// it; aspect-fill's rectangle reaches past the view (negative origin) where it is cropped.
    /// - Parameters:
    ///   - frame: The frame's size in pixels, as shown (after rotation).
    ///   - view: The view's size.
    ///   - layout: Letterbox or aspect-fill.
    /// - Returns: The preview rectangle in view coordinates; empty when either size is empty.
    public static func previewRect(frame: CGSize, view: CGSize, layout: PreviewLayout) -> CGRect {
        guard frame.width > 0, frame.height > 0, view.width > 0, view.height > 0 else { return .zero }
        let horizontal = view.width / frame.width, vertical = view.height / frame.height
        let scale = layout == .letterbox ? min(horizontal, vertical) : max(horizontal, vertical)
        let width = frame.width * scale, height = frame.height * scale
        return CGRect(x: (view.width - width) / 2, y: (view.height - height) / 2, width: width, height: height)
    }

    /// The camera's point of interest for a tap, normalised to 0…1 in the landscape-right sensor
    /// frame, as AVFoundation's `focusPointOfInterest` and W3C's `pointsOfInterest` take it.
    ///
    /// As the textbook maps a tap: subtract the preview's offset and divide by its size; reject what falls outside 0…1;
    /// rotate into the sensor's frame (portrait (x, y) → (y, 1 − x), upside-down → (1 − y, x),
    /// landscape-left → (1 − x, 1 − y), landscape-right unchanged); then mirror x for the front camera.
    /// - Parameters:
    ///   - tap: Where the tap landed, in view coordinates.
    ///   - preview: Where the frame is drawn (``previewRect(frame:view:layout:)``).
    ///   - orientation: How the device is held.
    ///   - position: Which camera.
    /// - Returns: The point, or nil for a tap beside the picture (on a letterbox bar).
    public static func pointOfInterest(tap: CGPoint, preview: CGRect, orientation: VideoOrientation,
                                       position: CameraPosition) -> CGPoint? {
        guard preview.width > 0, preview.height > 0 else { return nil }
        let x = (tap.x - preview.minX) / preview.width, y = (tap.y - preview.minY) / preview.height
        guard (0...1).contains(x), (0...1).contains(y) else { return nil }
        var point = switch orientation {
        case .portrait: CGPoint(x: y, y: 1 - x)
        case .portraitUpsideDown: CGPoint(x: 1 - y, y: x)
        case .landscapeLeft: CGPoint(x: 1 - x, y: 1 - y)
        case .landscapeRight: CGPoint(x: x, y: y)
        }
        if position == .front { point.x = 1 - point.x }
        return point
    }

    /// How to show a sensor frame upright: mirror it for the front camera, then turn it clockwise by
    /// quarter turns. The exact inverse of what ``pointOfInterest(tap:preview:orientation:position:)``
    /// does to a tap, so a tap on a shown pixel maps back to that pixel of the sensor frame.
    /// - Parameters:
    ///   - orientation: How the device is held.
    ///   - position: Which camera.
    /// - Returns: The clockwise quarter turns and whether to mirror first.
    public static func displayTransform(orientation: VideoOrientation, position: CameraPosition) -> (quarterTurns: Int, mirrored: Bool) {
        let turns = switch orientation {
        case .landscapeRight: 0
        case .portrait: 1
        case .landscapeLeft: 2
        case .portraitUpsideDown: 3
        }
        return (turns, position == .front)
    }
}

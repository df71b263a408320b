internal import OcularAlgorithms
internal import OpenCVBridge

/// How a blend source combines with each frame. The frame is the backdrop, the source the source.
///
/// The textbook's modes (none, average, multiply, screen, HUD) and the sixteen modes of W3C
/// Compositing Level 1, spelled as CSS spells them (`color-dodge`). The textbook's Multiply and
/// Screen are W3C's. The separable modes give the formula's exact value rounded to the nearest 8-bit
/// level (average rounds halves up); hue, saturation, color and luminosity are computed in float and
/// stay within one level of the formulas in Double (at most about one byte in 500 of a photograph is off by one).
public enum BlendMode: String, Sendable, CaseIterable, Codable {
    /// The frame unchanged: the picture is not drawn.
    case none
    /// The mean of the frame and the picture, sample by sample.
    case average
    /// A head-up display: the picture's bright parts added over the frame, its dark parts left out.
    case hud
    /// The picture over the frame (W3C `normal`): B(cb, cs) = cs.
    case normal
    /// Darkens: B(cb, cs) = cb × cs.
    case multiply
    /// Lightens: B(cb, cs) = cb + cs − cb × cs.
    case screen
    /// Multiply or screen by the frame's value: hard light with the layers swapped.
    case overlay
    /// The darker of the two: B(cb, cs) = min(cb, cs).
    case darken
    /// The lighter of the two: B(cb, cs) = max(cb, cs).
    case lighten
    /// Brightens the frame to reflect the picture: B = min(1, cb / (1 − cs)).
    case colourDodge = "color-dodge"
    /// Darkens the frame to reflect the picture: B = 1 − min(1, (1 − cb) / cs).
    case colourBurn = "color-burn"
    /// Multiply where the picture is dark, screen where it is light.
    case hardLight = "hard-light"
    /// A gentler hard light, as a diffused spotlight (the W3C formula).
    case softLight = "soft-light"
    /// B(cb, cs) = |cb − cs|.
    case difference
    /// Like difference with less contrast: B(cb, cs) = cb + cs − 2 × cb × cs.
    case exclusion
    /// The picture's hue with the frame's saturation and luminosity.
    case hue
    /// The picture's saturation with the frame's hue and luminosity.
    case saturation
    /// The picture's hue and saturation with the frame's luminosity.
    case colour = "color"
    /// The picture's luminosity with the frame's hue and saturation.
    case luminosity

    /// What people read.
    public var title: String {
        switch self {
        case .none: "None"
        case .average: "Average"
        case .hud: "HUD (edges)"
        case .colourDodge: "Color dodge"
        case .colourBurn: "Color burn"
        case .hardLight: "Hard light"
        case .softLight: "Soft light"
        default: rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        }
    }

    /// The bridge's per-pixel mode: HUD is Screen with the source's edges; none has none.
    var pixelMode: OcularBlendMode? {
        switch self {
        case .none: nil
        case .average: OCULAR_BLEND_AVERAGE
        case .hud, .screen: OCULAR_BLEND_SCREEN
        case .normal: OCULAR_BLEND_NORMAL
        case .multiply: OCULAR_BLEND_MULTIPLY
        case .overlay: OCULAR_BLEND_OVERLAY
        case .darken: OCULAR_BLEND_DARKEN
        case .lighten: OCULAR_BLEND_LIGHTEN
        case .colourDodge: OCULAR_BLEND_COLOR_DODGE
        case .colourBurn: OCULAR_BLEND_COLOR_BURN
        case .hardLight: OCULAR_BLEND_HARD_LIGHT
        case .softLight: OCULAR_BLEND_SOFT_LIGHT
        case .difference: OCULAR_BLEND_DIFFERENCE
        case .exclusion: OCULAR_BLEND_EXCLUSION
        case .hue: OCULAR_BLEND_HUE
        case .saturation: OCULAR_BLEND_SATURATION
        case .colour: OCULAR_BLEND_COLOR
        case .luminosity: OCULAR_BLEND_LUMINOSITY
        }
    }

    /// The mode of that name.
    /// - Parameter name: The mode's name as recipes spell it (`screen`, `color-dodge`).
    /// - Throws: ``OcularError/invalidArgument(_:)`` listing the modes when there is none.
    public init(named name: String) throws(OcularError) {
        guard let mode = BlendMode(rawValue: name) else {
            throw .invalidArgument("unknown blend mode '\(name.prefix(60))'; the modes are \(BlendMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = mode
    }
}

extension BlendMode: ParameterChoice {}

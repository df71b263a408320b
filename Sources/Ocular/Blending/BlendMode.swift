internal import OpenCVBridge

/// How a blend source combines with each frame. The frame is the backdrop, the source the source.
///
/// The textbook's modes (none, average, multiply, screen, HUD) and the sixteen modes of W3C
/// Compositing Level 1, spelled as CSS spells them (`color-dodge`). The textbook's Multiply and
/// Screen are W3C's. The separable modes give the formula's exact value rounded to the nearest 8-bit
/// level (average rounds halves up); hue, saturation, color and luminosity are computed in float and
/// stay within one level of the formulas in Double (at most about one byte in 500 of a photograph is off by one).
public enum BlendMode: String, Sendable, CaseIterable, Codable {
    case none
    case average
    case hud
    case normal
    case multiply
    case screen
    case overlay
    case darken
    case lighten
    case colorDodge = "color-dodge"
    case colorBurn = "color-burn"
    case hardLight = "hard-light"
    case softLight = "soft-light"
    case difference
    case exclusion
    case hue
    case saturation
    case color
    case luminosity

    /// What people read.
    public var title: String {
        switch self {
        case .none: "None"
        case .average: "Average"
        case .hud: "HUD (edges)"
        case .colorDodge: "Color dodge"
        case .colorBurn: "Color burn"
        case .hardLight: "Hard light"
        case .softLight: "Soft light"
        default: rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        }
    }

    /// The bridge's per-pixel mode: HUD is Screen with the source's edges; none has none.
    var pixelMode: OCVBlendMode? {
        switch self {
        case .none: nil
        case .average: OCV_BLEND_AVERAGE
        case .hud, .screen: OCV_BLEND_SCREEN
        case .normal: OCV_BLEND_NORMAL
        case .multiply: OCV_BLEND_MULTIPLY
        case .overlay: OCV_BLEND_OVERLAY
        case .darken: OCV_BLEND_DARKEN
        case .lighten: OCV_BLEND_LIGHTEN
        case .colorDodge: OCV_BLEND_COLOR_DODGE
        case .colorBurn: OCV_BLEND_COLOR_BURN
        case .hardLight: OCV_BLEND_HARD_LIGHT
        case .softLight: OCV_BLEND_SOFT_LIGHT
        case .difference: OCV_BLEND_DIFFERENCE
        case .exclusion: OCV_BLEND_EXCLUSION
        case .hue: OCV_BLEND_HUE
        case .saturation: OCV_BLEND_SATURATION
        case .color: OCV_BLEND_COLOR
        case .luminosity: OCV_BLEND_LUMINOSITY
        }
    }

    /// The mode of that name.
    /// - Throws: ``OcularError/invalidArgument(_:)`` listing the modes when there is none.
    public init(named name: String) throws(OcularError) {
        guard let mode = BlendMode(rawValue: name) else {
            throw .invalidArgument("unknown blend mode '\(name.prefix(60))'; the modes are \(BlendMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = mode
    }
}

extension BlendMode: ParameterChoice {}

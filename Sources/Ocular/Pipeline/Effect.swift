/// The live effects a stream or a batch job can apply to every frame.
public enum Effect: String, CaseIterable, Sendable, Codable {
    /// Frames pass through unchanged (decoded and re-encoded).
    case none
    /// The luma of each frame, as a single-channel image.
    case gray
    /// The animated random tint of the "cool pig" demo: a new tint every interval.
    case tint
    /// Gray-world automatic white balance of each frame.
    case whitebalance

    /// A short name for people.
    public var title: String {
        switch self {
        case .none: "None"
        case .gray: "Gray"
        case .tint: "Tint"
        case .whitebalance: "White balance"
        }
    }
}

/// Applies the chosen ``Effect`` to successive frames, holding what spans frames: the tint
/// animation's sequence and the white-balance settings.
public struct FrameProcessor: Sendable, Equatable {
    public var effect: Effect
    public var tints: TintSequence
    public var whiteBalance: WhiteBalance

    /// - Parameters:
    ///   - effect: What to do to each frame.
    ///   - tints: The tint animation (seed and interval).
    ///   - whiteBalance: Settings of the white balance.
    public init(effect: Effect = .none, tints: TintSequence = TintSequence(seed: 0), whiteBalance: WhiteBalance = WhiteBalance()) {
        self.effect = effect
        self.tints = tints
        self.whiteBalance = whiteBalance
    }

    /// Processes one frame.
    /// - Parameters:
    ///   - frame: The frame, in any format.
    ///   - elapsed: Time since the stream started, which picks the tint.
    /// - Returns: The processed frame, the same size as `frame`.
    public func process(_ frame: Image, at elapsed: Duration) throws(OcularError) -> Image {
        switch effect {
        case .none: frame
        case .gray: try frame.converted(to: .gray8)
        case .tint: try tints.tint(at: elapsed).apply(to: frame)
        case .whitebalance: try whiteBalance.apply(to: frame)
        }
    }
}

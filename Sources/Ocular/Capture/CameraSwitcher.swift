/// What "Switch camera" cycles through.
public enum CameraChoice: String, CaseIterable, Sendable, Codable {
    /// The bundled still picture: always there, the default without a camera.
    case still = "static"
    /// The camera facing the user.
    case front
    /// The camera facing away from the user.
    case back
}

/// The order of "Switch camera": static → front → back → static, skipping what is absent.
public enum CameraSwitcher {
    /// The choice after `current`.
    /// - Parameters:
    ///   - current: What shows now.
    ///   - available: What exists; the still always does, whether listed or not.
    /// - Returns: The next available choice in the cycle; `current` itself when nothing else exists.
    public static func next(after current: CameraChoice, available: Set<CameraChoice>) -> CameraChoice {
        let cycle = CameraChoice.allCases
        let present = available.union([.still])
        let start = cycle.firstIndex(of: current) ?? 0
        for step in 1...cycle.count {
            let candidate = cycle[(start + step) % cycle.count]
            if present.contains(candidate) { return candidate }
        }
        return current
    }
}

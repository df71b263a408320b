import Foundation

/// A run of point-wise colour operations compiled into one pass over the pixels.
///
/// Applying the operations one by one rounds to whole levels and clamps to 0…255 after each. The program
/// does the same after every step, so a run gives what one-by-one gives; what fusion saves is the
/// passes: every pixel is read once, taken through every step while it is at hand, and written once,
/// with rows spread over the cores. Steps fuse further where that stays within one level of one-by-one:
/// curves compose exactly (a table of a table); two matrices become one when the first keeps every
/// colour in range (so its clamp does nothing) and the roundings the fused matrix skips, carried through
/// the gains of every later step (exact for matrices and tables, estimated on a lattice of colours for
/// the per-pixel mixes), cannot move any output by more than one level.
public struct ColourProgram: Sendable, CustomStringConvertible {
    /// One step of the pass, with the stages it stands for.
    public struct Step: Sendable {
        /// What one step does to every pixel.
        public enum Work: Sendable {
            /// A matrix on red, green and blue.
            case matrix(ColourMatrix)
            /// A lookup table per channel.
            case curves(ChannelCurves)
            /// A mix with the pixel's own luma or saturation.
            case mix(ColourMix)
        }

        /// What the step does.
        public let work: Work
        /// The stages fused into this step, in order.
        public let stages: [String]
        /// Their operations, as given.
        let parts: [ColourOperation]

        init(_ stage: String, _ operation: ColourOperation) {
            switch operation {
            case .matrix(let matrix): work = .matrix(matrix)
            case .curves(let curves): work = .curves(curves)
            case .mix(let mix): work = .mix(mix)
            }
            stages = [stage]
            parts = [operation]
        }

        private init(work: Work, stages: [String], parts: [ColourOperation]) {
            self.work = work
            self.stages = stages
            self.parts = parts
        }

        /// `next` after this step as one step, where the two kinds compose.
        func fused(with next: Step) -> Step? {
            let work: Work
            switch (self.work, next.work) {
            case (.curves(let first), .curves(let second)):
                work = .curves(second.after(first))
            case (.matrix(let first), .matrix(let second)) where first.keepsColoursInRange:
                work = .matrix(second.after(first))
            default:
                return nil
            }
            return Step(work: work, stages: stages + next.stages, parts: parts + next.parts)
        }
    }

    /// The steps, in order.
    public let steps: [Step]

    /// Compiles a run of operations.
    /// - Parameter operations: Each operation with the name of the stage it comes from, in order.
    public init(_ operations: [(stage: String, operation: ColourOperation)]) {
        let given = operations.map { Step($0.stage, $0.operation) }
        var steps: [Step] = []
        for (index, step) in given.enumerated() {
            if let last = steps.last, let fused = last.fused(with: step) {
                let candidate = steps.dropLast() + [fused]
                if Self.deviation(of: candidate + given[(index + 1)...]) <= 1 {
                    steps = Array(candidate)
                    continue
                }
            }
            steps.append(step)
        }
        self.steps = steps
    }

    /// The largest difference, in levels, that the steps' result can have from one-by-one's.
    static func deviation(of steps: some Sequence<Step>) -> Int {
        var levels = 0
        for step in steps {
            switch step.work {
            case .curves(let curves):
                // The composed table is exactly one-by-one's: only a difference coming in spreads.
                levels = curves.spread(levels)
            case .matrix:
                // A fused matrix skips the roundings (half a level each) between its parts, and each
                // part's gain carries what came before.
                var unrounded = 0.0
                for (index, part) in step.parts.enumerated() {
                    guard case .matrix(let matrix) = part else { continue }
                    unrounded = matrix.gain * (index == 0 ? Double(levels) : unrounded + 0.5)
                }
                levels = Self.rounded(unrounded)
            case .mix(let mix):
                levels = Self.rounded(Double(levels) * mix.gain)
            }
        }
        return levels
    }

    /// The most two values at most `difference` apart can differ once both are rounded.
    private static func rounded(_ difference: Double) -> Int {
        difference == 0 ? 0 : Int(difference.rounded(.down)) + 1
    }

    /// Each step in words: "exposureAdjust + gammaAdjust → one lookup table per channel".
    public var stepDescriptions: [String] {
        steps.map { step in
            let what: String
            switch step.work {
            case .matrix(let matrix): what = "3×4 matrix \(matrix)"
            case .curves: what = "one lookup table per channel"
            case .mix(.vibrance(let amount)): what = "per-pixel vibrance \(amount)"
            case .mix(.highlightShadow(let highlights, let shadows)): what = "per-pixel highlights \(highlights), shadows \(shadows)"
            }
            return "\(step.stages.joined(separator: " + ")) → \(what)"
        }
    }

    /// The steps as `ocular apply --explain` lists them under their pass.
    var stepLines: [String] {
        stepDescriptions.enumerated().map { "  step \($0.offset + 1): \($0.element)" }
    }

    /// The steps, in order.
    public var description: String { stepDescriptions.joined(separator: "; ") }

    /// A value in levels rounded to the nearest (ties to even, as OpenCV's saturate_cast) and kept within 0…255.
    static func level(_ value: Double) -> UInt8 {
        guard value.isFinite else { return value > 0 ? 255 : 0 }
        return UInt8(min(255, max(0, value.rounded(.toNearestOrEven))))
    }
}

extension ColourMix {
    /// How far a difference between two inputs can grow through the mix (∞-norm), estimated on a lattice
    /// of colours with a margin of a half.
    var gain: Double {
        var largest = 0.0
        let step: Float = 1.0 / 8, nudge: Float = 1.0 / 255
        for r in 0...8 {
            for g in 0...8 {
                for b in 0...8 {
                    let colour = SIMD3<Float>(Float(r) * step, Float(g) * step, Float(b) * step)
                    let base = apply(colour)
                    for channel in 0..<3 {
                        var moved = colour
                        moved[channel] = min(1, moved[channel] + nudge)
                        moved[channel] = moved[channel] == colour[channel] ? colour[channel] - nudge : moved[channel]
                        let change = apply(moved) - base
                        largest = max(largest, Double(max(abs(change.x), abs(change.y), abs(change.z)) / nudge))
                    }
                }
            }
        }
        return largest * 1.5
    }
}

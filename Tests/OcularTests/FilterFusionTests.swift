import Foundation
import OcularTestSupport
import Testing
@testable import Ocular

/// Fused colour chains against the same stages applied one by one (each rounding to 8 bits).
@Suite("filter fusion")
struct FilterFusionTests {
    /// The benchmark's chain: colour controls, exposure, gamma, hue, vibrance.
    static let exampleChain = #"""
        {"stages":[{"stage":"colorControls","saturation":1.2,"brightness":0.05,"contrast":1.1},{"stage":"exposureAdjust","ev":0.5},
        {"stage":"gammaAdjust","power":0.8},{"stage":"hueAdjust","angle":20},{"stage":"vibrance","amount":0.4}]}
        """#

    /// Every red and green level with blue in steps of `blueStep` (from 0, 255 included): a gradient
    /// that holds every colour when the step is 1.
    static func gradient(blueStep: Int) throws -> Image {
        let blues = Array(stride(from: 0, through: 255, by: blueStep)) + (255 % blueStep == 0 ? [] : [255])
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 * 256 * blues.count * 3)
        for blue in blues {
            for green in 0...255 {
                for red in 0...255 { bytes += [UInt8(blue), UInt8(green), UInt8(red)] }
            }
        }
        return try Image(width: 256 * 16, height: 256 * blues.count / 16, format: .bgr8, bytes: bytes)
    }

    /// The largest difference per channel between the fused pipeline and its stages one by one, and
    /// the share of values that differ at all.
    static func difference(_ pipeline: Pipeline, on image: Image) throws -> (largest: Int, differing: Double) {
        let fused = try pipeline.process(image)
        var oneByOne = image
        for step in pipeline.steps { oneByOne = try step.stage.process(Frame(image: oneByOne)).image }
        #expect(fused.format == oneByOne.format && fused.width == oneByOne.width)
        var largest = 0, differing = 0
        for (a, b) in zip(fused.bytes, oneByOne.bytes) where a != b {
            largest = max(largest, abs(Int(a) - Int(b)))
            differing += 1
        }
        return (largest, Double(differing) / Double(fused.bytes.count))
    }

    @Test("the example chain compiles to one pass of four steps, exposure and gamma in one table")
    func explained() throws {
        let pipeline = try Pipeline(Recipe(json: Self.exampleChain))
        #expect(pipeline.passes.count == 1)
        guard case .fused(let program) = pipeline.passes[0] else { Issue.record("not fused"); return }
        #expect(program.steps.map(\.stages) == [["colorControls"], ["exposureAdjust", "gammaAdjust"], ["hueAdjust"], ["vibrance"]])
        #expect(pipeline.explanation.first == "pass 1: colorControls, exposureAdjust, gammaAdjust, hueAdjust, vibrance fused into one pass over the pixels")
        // A stage that is not point-wise splits the run.
        let split = try Pipeline(Recipe(json: #"{"stages":[{"stage":"gammaAdjust"},{"stage":"gaussianBlur"},{"stage":"sepiaTone"},{"stage":"vibrance"}]}"#))
        #expect(split.passes.count == 3)
    }

    @Test("matrices fuse into one when the first keeps colours in range, and not otherwise")
    func matricesFuse() throws {
        // Saturation below 1 keeps every colour inside the cube; the hue turn after it fuses.
        let fusing = try Pipeline(Recipe(json: #"{"stages":[{"stage":"gammaAdjust","power":0.9},{"stage":"colorControls","saturation":0.7},{"stage":"hueAdjust","angle":30}]}"#))
        guard case .fused(let program) = fusing.passes[0] else { Issue.record("not fused"); return }
        #expect(program.steps.map(\.stages) == [["gammaAdjust"], ["colorControls", "hueAdjust"]])
        // Not when a matrix follows that could carry the skipped rounding past a level: a difference of
        // one level through sepia's gain of 1.07 could round to two.
        let carried = try Pipeline(Recipe(json: #"{"stages":[{"stage":"colorControls","saturation":0.7},{"stage":"hueAdjust","angle":30},{"stage":"sepiaTone","intensity":0.2}]}"#))
        guard case .fused(let three) = carried.passes[0] else { Issue.record("not fused"); return }
        #expect(three.steps.count == 3)
        // A hue turn pushes some colours out of range (red's green goes below 0): its clamp matters, no fusing.
        let apart = try Pipeline(Recipe(json: #"{"stages":[{"stage":"hueAdjust","angle":30},{"stage":"colorControls","saturation":0.7}]}"#))
        guard case .fused(let kept) = apart.passes[0] else { Issue.record("not fused"); return }
        #expect(kept.steps.count == 2)
    }

    @Test("the example chain equals one by one within a level on every red–green pair and blue in steps of 5")
    func exampleChainExhaustive() throws {
        let (largest, differing) = try Self.difference(Pipeline(Recipe(json: Self.exampleChain)), on: Self.gradient(blueStep: 5))
        #expect(largest <= 1)
        // As the program rounds after every step, fusion changes nothing here.
        #expect(differing == 0)
    }

    @Test("fused matrices stay within a level of one by one on the gradient, and differ somewhere")
    func fusedMatricesExhaustive() throws {
        let recipe = ##"{"stages":[{"stage":"colorControls","saturation":0.7,"contrast":0.9},{"stage":"whitePointAdjust","color":"#f0e8d0"},{"stage":"hueAdjust","angle":30}]}"##
        let pipeline = try Pipeline(Recipe(json: recipe))
        guard case .fused(let program) = pipeline.passes[0] else { Issue.record("not fused"); return }
        // Fusing colour controls with the white point would skip a rounding that the hue turn's gain of
        // 1.49 carries past a level; the white point and the hue turn, last, fuse.
        #expect(program.steps.map(\.stages) == [["colorControls"], ["whitePointAdjust", "hueAdjust"]])
        let (largest, differing) = try Self.difference(pipeline, on: Self.gradient(blueStep: 5))
        #expect(largest <= 1)
        #expect(differing > 0 && differing < 0.5)
    }

    /// A colour filter with random values inside its declared ranges.
    static func randomStep(_ random: inout SeededGenerator) -> String {
        let stages = StageRegistry.standard.stages.filter { $0 is any ColourOperationStage.Type }
        let stage = stages[Int(random.next() % UInt64(stages.count))]
        var fields = [#""stage":"\#(stage.name)""#]
        for parameter in stage.parameters {
            switch parameter.kind {
            case .number(let minimum, let maximum, _, _):
                let fraction = Double(random.next() % 1001) / 1000
                fields.append(#""\#(parameter.name)":\#(minimum + (maximum - minimum) * fraction)"#)
            case .colour:
                let value = random.next() & 0xffffff | 0x808080
                fields.append(##""\##(parameter.name)":"#\##(String(value, radix: 16))""##)
            default:
                break
            }
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

/// Random chains of colour filters run fused and one by one: 30 chains under `make eval`, 4 in a sample run.
@Suite("filter fusion evaluation")
struct FilterFusionEvaluation {
    @Test("random chains of colour filters equal one by one within a level, on a gradient and on shared pictures")
    func randomChains() async throws {
        do {
            var random = SeededGenerator(seed: 36)
            let gradient = try FilterFusionTests.gradient(blueStep: 51)
            let pictures = try [Image(contentsOfFile: TestData.path("images/coffee.png")), Image(contentsOfFile: TestData.path("images/rocket.jpg")).shrunk(toFit: 640)]
            var fusedSteps = 0, stages = 0, chains = 0, largestDifference = 0
            for _ in 0..<Evaluation.rounds(full: 30, sample: 4) {
                let length = 2 + Int(random.next() % 5)
                let recipe = #"{"stages":["# + (0..<length).map { _ in FilterFusionTests.randomStep(&random) }.joined(separator: ",") + "]}"
                let pipeline = try Pipeline(Recipe(json: recipe))
                if case .fused(let program) = pipeline.passes[0] { fusedSteps += program.steps.count }
                stages += length
                chains += 1
                for image in [gradient] + pictures {
                    let (largest, _) = try FilterFusionTests.difference(pipeline, on: image)
                    #expect(largest <= 1, "\(recipe) on \(image)")
                    largestDifference = max(largestDifference, largest)
                }
            }
            Evaluation.table("Random chains of colour filters, fused against one by one", columns: ["chains", "stages", "fused steps", "largest difference (levels)"],
                             rows: [["\(chains)", "\(stages)", "\(fusedSteps)", "\(largestDifference)"]])
            // Fusion did fuse: fewer steps than stages.
            #expect(fusedSteps < stages)
        }
    }
}

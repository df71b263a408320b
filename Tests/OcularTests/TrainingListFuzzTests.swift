import Foundation
import Testing
@testable import Ocular
@testable import OcularEvaluation
import OcularTestSupport

/// Damaged training lists (JSON and property list) and damaged stored models: each either reads as
/// something valid (every label inside the list, every descriptor the profile's size) or is refused
/// with a typed error. Never a crash, never a model whose sizes do not fit.
@Suite("Damaged training lists and models", .timeLimit(.minutes(2)))
struct TrainingListFuzzTests {
    static let rounds = 600

    static func mutated(_ seed: [UInt8], round: Int, using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        guard !bytes.isEmpty else { return bytes }
        switch round % 4 {
        case 0:
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            }
        case 1:
            bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
        case 2:
            // Numbers where the lists keep labels: huge, negative, fractional.
            let text = String(decoding: bytes, as: UTF8.self)
            let numbers = ["-1", "9223372036854775807", "99999999999999999999", "2.5", "1e400", "0", "\"7\""]
            bytes = Array(text.replacingOccurrences(of: ["2", "3", "7", "8"].randomElement(using: &generator)!,
                                                    with: numbers.randomElement(using: &generator)!).utf8)
        default:
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            let end = min(bytes.count, start + Int.random(in: 1...64, using: &generator))
            for index in start..<end { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        return bytes
    }

    @Test("mutated JSON and property lists read as valid lists or are refused by name")
    func lists() throws {
        var generator = SeededGenerator(seed: 18)
        var read = 0, refused = 0
        // The shared list, the textbook's property list, and the shipped list with coins' values and sizes.
        for (name, path) in [("labels.json", TestData.path("beancounter/labels.json")),
                             ("BlobClassifierTraining.plist", TestData.path("beancounter/BlobClassifierTraining.plist")),
                             ("shipped labels.json", TestData.shippedTrainingList)] {
            let seed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for round in 0..<Self.rounds {
                let bytes = Self.mutated(seed, round: round, using: &generator)
                do {
                    let list = try TrainingList.decode(Data(bytes), folder: "/nowhere", path: name)
                    #expect(list.labelDescriptions.count >= 2)
                    #expect(list.entries.allSatisfy { (1..<list.labelDescriptions.count).contains($0.label) && !$0.imageFilename.isEmpty })
                    #expect(list.values.allSatisfy { label, worth in
                        worth.label == label && (1..<list.labelDescriptions.count).contains(label) && worth.value.isFinite
                            && worth.value >= 0 && worth.currency.count == 3
                    })
                    #expect(list.millimetres.allSatisfy { label, millimetres in
                        (1..<list.labelDescriptions.count).contains(label) && millimetres.isFinite && (0.1...10_000).contains(millimetres)
                    })
                    read += 1
                } catch {
                    #expect(error.description.contains(name))
                    refused += 1
                }
            }
        }
        #expect(read > 0 && refused > 0, "read \(read), refused \(refused)")
    }

    @Test("mutated scene lists (blobs evaluate's input) read with every box positive and every image named, or are refused naming the file")
    func sceneLists() throws {
        var generator = SeededGenerator(seed: 31)
        let scenes = BlobSceneList(scenes: [
            .init(image: "scene-000.png", blobs: [.init(label: 7, bounds: PixelRectangle(x: 10, y: 20, width: 30, height: 40)),
                                                  .init(label: 3, bounds: PixelRectangle(x: 200, y: 220, width: 38, height: 38))],
                  conditions: "light 0.3, shadows"),
            .init(image: "scene-001.png", blobs: [.init(label: 8, bounds: PixelRectangle(x: 5, y: 6, width: 7, height: 8))]),
        ])
        let seed = [UInt8](try JSONEncoder().encode(scenes))
        var read = 0, refused = 0
        for round in 0..<Self.rounds {
            let bytes = Self.mutated(seed, round: round, using: &generator)
            do {
                let list = try BlobSceneList.decode(Data(bytes), path: "scenes.json")
                #expect(list.scenes.allSatisfy { !$0.image.isEmpty && $0.blobs.allSatisfy { $0.bounds.width > 0 && $0.bounds.height > 0 } })
                read += 1
            } catch {
                #expect(error.description.contains("scenes.json"))
                refused += 1
            }
        }
        #expect(read > 0 && refused > 0, "read \(read), refused \(refused)")
    }

    @Test("mutated face label lists (faces evaluate's input) read with every box positive and every file named, or are refused naming the file")
    func faceLabelLists() throws {
        var generator = SeededGenerator(seed: 30)
        let folder = try TemporaryFolder()
        let path = folder.file("faces.json")
        // Both forms: a list of entries, and the shared data's object keyed by path.
        let seeds = try [SweepSources.folder + "/sweep-sources.json", TestData.path("cats/labels.json")].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        var read = 0, refused = 0
        for round in 0..<Self.rounds {
            try Data(Self.mutated([UInt8](seeds[round % 2]), round: round, using: &generator)).write(to: URL(fileURLWithPath: path))
            do {
                let list = try FaceLabelList(contentsOf: path)
                #expect(list.entries.allSatisfy { !$0.file.isEmpty && $0.faces.allSatisfy { $0.bounds.width > 0 && $0.bounds.height > 0 } })
                read += 1
            } catch {
                #expect("\(error)".contains(path))
                refused += 1
            }
        }
        #expect(read > 0 && refused > 0, "read \(read), refused \(refused)")
    }

    @Test("mutated model files load with every size right, or are refused")
    func models() throws {
        let folder = try TemporaryFolder()
        let list = try BlobTests.copiedTrainingSet(into: folder)
        let path = try BlobModel.classifier(forList: list, profile: .standard).report.modelPath
        let seed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var generator = SeededGenerator(seed: 1818)
        var loaded = 0, refused = 0
        for round in 0..<60 {
            try Data(Self.mutated(seed, round: round, using: &generator)).write(to: URL(fileURLWithPath: path))
            do {
                let model = try StoredModel.read(path, profile: .standard)
                #expect(model.references.allSatisfy { $0.descriptor.colour.count == 32 * 32 * 32 && $0.descriptor.hueSaturation.count == 960
                    && $0.descriptor.keypoints.count % 32 == 0 && model.labelDescriptions.indices.contains($0.label) })
                loaded += 1
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0, "loaded \(loaded), refused \(refused)")
    }
}

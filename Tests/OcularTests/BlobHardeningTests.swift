import Foundation
import Testing
@testable import Ocular
import OcularTestSupport

/// The bean counter's stored model and training lists against damage and excess. Before: a model
/// with a flipped byte inside a number loaded as good (wrong distances, no retraining), and a list
/// could name any number of pictures of any size.
@Suite("Bean counter: damaged models and oversized lists")
struct BlobHardeningTests {
    @Test("a model with any byte changed is found damaged by its checksum and retrained to the same classifier")
    func damagedModel() throws {
        let folder = try TemporaryFolder()
        let list = try BlobTests.copiedTrainingSet(into: folder)
        let first = try BlobModel.classifier(forList: list, profile: .standard)
        let path = first.report.modelPath
        let stored = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(stored.starts(with: Array("OCULARBM".utf8)))
        // Flip one bit in the middle of the file (inside the descriptors' numbers), then near the end.
        for offset in [stored.count / 2, stored.count - 40] {
            var damaged = stored
            damaged[offset] ^= 0x10
            try damaged.write(to: URL(fileURLWithPath: path))
            let repaired = try BlobModel.classifier(forList: list, profile: .standard)
            #expect(!repaired.report.loaded, "byte \(offset)")
            #expect(repaired.report.notes.first?.contains("damaged: its checksum does not match its bytes") == true, "\(repaired.report.notes)")
            #expect(repaired.classifier.references == first.classifier.references)
            #expect(try BlobModel.classifier(forList: list, profile: .standard).report.loaded, "the rewritten model loads")
        }
        // Cut short: also retrained.
        try stored.prefix(stored.count - 1).write(to: URL(fileURLWithPath: path))
        #expect(try !BlobModel.classifier(forList: list, profile: .standard).report.loaded)
    }

    @Test("a list naming more than 10000 pictures is refused by name")
    func tooManyEntries() throws {
        let folder = try TemporaryFolder()
        let entries = (0...TrainingList.maximumEntries).map { #"{"imageFilename":"p\#($0).png","label":1}"# }.joined(separator: ",")
        try Data(#"{"labelDescriptions":["unidentified","bean"],"blobs":[\#(entries)]}"#.utf8).write(to: URL(fileURLWithPath: folder.file("list.json")))
        #expect {
            try TrainingList(contentsOfFile: folder.file("list.json"))
        } throws: { error in "\(error)".contains("it names 10001 pictures; a training list may name at most 10000") }
    }

    @Test("a label that is not a whole number is named", arguments: ["1.5", "\"1\"", "1e30", "-1"])
    func nonIntegerLabel(label: String) throws {
        let folder = try TemporaryFolder()
        try Data(#"{"labelDescriptions":["unidentified","bean"],"blobs":[{"imageFilename":"a.png","label":\#(label)}]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.file("list.json")))
        #expect {
            try TrainingList(contentsOfFile: folder.file("list.json"))
        } throws: { error in
            let text = "\(error)"
            return text.contains("blobs[0]") && text.contains("label") && (text.contains("whole number") || text.contains("labels run from 1")) && !text.contains("DecodingError")
        }
    }

    @Test("training stops by name once the pictures pass the pixel limit")
    func pixelLimit() throws {
        let folder = try TemporaryFolder()
        let list = try TrainingList(contentsOfFile: try BlobTests.copiedTrainingSet(into: folder))
        #expect {
            try BlobClassifier.train(list, profile: .standard, pixelLimit: 300_000)
        } throws: { error in "\(error)".contains("the training pictures hold more than 0.3 megapixels together") }
        #expect(try BlobClassifier.train(list, profile: .standard).classifier.references.count == 7)
    }
}

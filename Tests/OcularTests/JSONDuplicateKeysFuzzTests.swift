import Foundation
import OcularTestSupport
import Testing
@testable import Ocular

/// Random JSON documents, their keys drawn from a small pool and written raw or escaped, so that
/// repeats are common and often spelt differently; each document's first repeat is known as it is
/// written, and the scan must find exactly it. Damaged copies must not crash it.
@Suite("Keys named twice in random JSON", .timeLimit(.minutes(2)))
struct JSONDuplicateKeysFuzzTests {
    /// Keys that look alike, that hold JSON's own punctuation, and Unicode's two forms of one word.
    static let keys = ["a", "b", "A", "\"", "\\", "{", ",", ":", "}", "[\"a\"]", "caf\u{E9}", "cafe\u{301}", "\u{0}", ""]
    static let strings = ["", "a", "{\"a\":1}", "\\", "\",\"a\":", "caf\u{E9}"]

    struct Document {
        var text = ""
        var firstRepeat: String?
    }

    /// A key or string as JSON writes it, or with every character as a \u escape.
    static func literal(_ text: String, escaped: Bool) -> String {
        guard escaped else { return (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\"" }
        return "\"" + text.utf16.map { String(format: "\\u%04x", $0) }.joined() + "\""
    }

    static func value(depth: Int, into document: inout Document, using generator: inout SeededGenerator) {
        switch depth > 3 ? Int.random(in: 0..<3, using: &generator) : Int.random(in: 0..<6, using: &generator) {
        case 0: document.text += ["1", "-0.5e3", "true", "null"].randomElement(using: &generator)!
        case 1, 2: document.text += literal(strings.randomElement(using: &generator)!, escaped: Bool.random(using: &generator))
        case 3:
            document.text += "["
            for index in 0..<Int.random(in: 0...3, using: &generator) {
                if index > 0 { document.text += "," }
                value(depth: depth + 1, into: &document, using: &generator)
            }
            document.text += "]"
        default:
            document.text += "{"
            var seen = Set<[UInt8]>()
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                if index > 0 { document.text += " , " }
                let key = keys.randomElement(using: &generator)!
                document.text += literal(key, escaped: Bool.random(using: &generator)) + ":"
                if !seen.insert(Array(key.utf8)).inserted, document.firstRepeat == nil { document.firstRepeat = key }
                value(depth: depth + 1, into: &document, using: &generator)
            }
            document.text += "}"
        }
    }

    @Test("the first repeated key of each random document, and only it, is found")
    func randomDocuments() throws {
        var generator = SeededGenerator(seed: 94)
        var withRepeats = 0, failures: [String] = []
        for _ in 0..<Evaluation.rounds(full: 20_000, sample: 2_000) {
            var document = Document()
            document.text = "{\"type\":\"x\",\"body\":"
            Self.value(depth: 0, into: &document, using: &generator)
            document.text += "}"
            let data = Data(document.text.utf8)
            guard (try? JSONSerialization.jsonObject(with: data)) != nil else {
                failures.append("not JSON as written: \(document.text.prefix(200))")
                continue
            }
            if document.firstRepeat != nil { withRepeats += 1 }
            let found = JSONDuplicateKeys.first(in: data)
            if found.map({ Array($0.utf8) }) != document.firstRepeat.map({ Array($0.utf8) }) {
                failures.append("\(document.text.prefix(200)): found \(found.debugDescription), wrote \(document.firstRepeat.debugDescription)")
            }
            // Damaged copies: cut anywhere, or a byte dropped; only that the scan ends.
            var bytes = Array(data)
            bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &generator)..<bytes.count)
            _ = JSONDuplicateKeys.first(in: Data(bytes))
            bytes = Array(data)
            bytes.remove(at: Int.random(in: 0..<bytes.count, using: &generator))
            _ = JSONDuplicateKeys.first(in: Data(bytes))
        }
        #expect(withRepeats > 100, "the pool must make repeats common")
        #expect(failures.isEmpty, "\(failures.count) wrong: \(failures.prefix(5))")
    }
}

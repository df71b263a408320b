import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import OcularStudio

/// The page builds every message it sends with `/api/protocol.js`'s builders, made from the declarations
/// the session decodes messages by; these tests read each builder call of the page's modules against
/// those declarations, so that a message type or field renamed on either side fails here.
@Suite("The page's requests and the server's declarations")
struct ProtocolModuleTests {
    static let publicFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/OcularStudio/Public")

    /// One builder call of a page module: `requests.capture({ slot, at: [x, y] })` is capture with slot and at.
    struct Call: Equatable, CustomStringConvertible {
        let file: String
        let type: String
        let fields: [String]
        var description: String { "\(file): requests.\(type)(\(fields.joined(separator: ", ")))" }
    }

    /// Every `requests.TYPE(…)` call in `text`, with the top-level keys of its object literal (a key
    /// written alone, `{ slot }`, counts as one).
    static func calls(in text: String, file: String) -> [Call] {
        var calls: [Call] = []
        // Whole-line comments out first: a comment inside a call's object is no field, and its apostrophes no quotes.
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        var rest = Substring(code)
        while let found = rest.range(of: "requests.") {
            rest = rest[found.upperBound...]
            let type = String(rest.prefix { $0.isLetter || $0.isNumber })
            rest = rest.dropFirst(type.count)
            guard !type.isEmpty, rest.first == "(" else { continue }
            rest = rest.dropFirst()
            var fields: [String] = []
            if rest.drop(while: \.isWhitespace).first == "{" {
                rest = rest.drop(while: \.isWhitespace).dropFirst()
                var depth = 0, part = ""
                var quote: Character?
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if let open = quote {
                        if character == open { quote = nil }
                        part.append(character)
                        continue
                    }
                    if character == "\"" || character == "'" || character == "`" { quote = character }
                    if "([{".contains(character) { depth += 1 }
                    if ")]}".contains(character) {
                        if depth == 0 { break }
                        depth -= 1
                    }
                    if character == "," && depth == 0 {
                        fields.append(part)
                        part = ""
                    } else {
                        part.append(character)
                    }
                }
                fields.append(part)
                fields = fields.map { $0.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "" }
                    .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            }
            calls.append(Call(file: file, type: type, fields: fields))
        }
        return calls
    }

    /// The calls whose type or fields the declarations do not have, in words.
    static func undeclared(_ calls: [Call], declared: [(type: String, fields: [String])]) -> [String] {
        let fieldsOf = Dictionary(declared.map { ($0.type, $0.fields) }, uniquingKeysWith: { first, _ in first })
        return calls.flatMap { call -> [String] in
            guard let fields = fieldsOf[call.type] else { return ["\(call): the studio takes no '\(call.type)' message"] }
            return call.fields.filter { !fields.contains($0) }.map { "\(call): a \(call.type) message has no '\($0)'" }
        }
    }

    static func pageCalls() throws -> [Call] {
        let files = try FileManager.default.contentsOfDirectory(atPath: publicFolder.path).filter { $0.hasSuffix(".js") }.sorted()
        return try files.flatMap { file in
            calls(in: try String(contentsOf: publicFolder.appendingPathComponent(file), encoding: .utf8), file: file)
        }
    }

    @Test("every message the page builds is one the server declares, with fields it declares")
    func pageBuildsDeclaredMessages() throws {
        let calls = try Self.pageCalls()
        let declared = ProtocolController.requests(of: .standard)
        #expect(Self.undeclared(calls, declared: declared) == [])
        // The page sends its settings, the link's acknowledgements, taps and the two pages' own requests
        // this way; none of them is written out by hand.
        #expect(Set(calls.map(\.type)).isSuperset(of: ["settings", "received", "upload", "tap", "capture", "captureBiggest", "merge", "classify"]))
        #expect(calls.contains(Call(file: "masks.js", type: "capture", fields: ["slot", "at"])))
        #expect(calls.contains(Call(file: "focus.js", type: "tap", fields: ["x", "y", "viewWidth", "viewHeight", "frameWidth", "frameHeight",
                                                                            "layout", "orientation", "position"])))
    }

    @Test("a field or type renamed on one side is found: the reading is not vacuous")
    func renamesAreFound() {
        let made = Self.calls(in: #"send(requests.capture({ slott: 1, at: [f(1, 2), { x: 3 }.x] })); requests.mergeFaces();"#, file: "made.js")
        #expect(made == [Call(file: "made.js", type: "capture", fields: ["slott", "at"]), Call(file: "made.js", type: "mergeFaces", fields: [])])
        #expect(Self.undeclared(made, declared: ProtocolController.requests(of: .standard)) == [
            "made.js: requests.capture(slott, at): a capture message has no 'slott'",
            "made.js: requests.mergeFaces(): the studio takes no 'mergeFaces' message",
        ])
    }

    @Test("the served module declares the studio's messages, and its builders refuse what they do not declare")
    func servedModule() async throws {
        let declared = ProtocolController.requests(of: .standard)
        let actionTypes = PageActionRegistry.standard.actions.flatMap { action in action.messageTypes }
        #expect(declared.map(\.type) == StreamSession.ownTypes + actionTypes)
        try await Studio.makeApplication(configuration: StudioConfiguration(port: 0)).test(.router) { client in
            try await client.execute(uri: "/api/protocol.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                let module = String(buffer: response.body)
                #expect(module.contains(#""capture":["slot","at"]"#) && module.contains(#""settings":["recipe","quality"]"#))
                #expect(module.contains("export const requests") && module.contains("has no '${name}'"))
            }
        }
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import OcularTestSupport
@testable import OcularStudio

/// The page builds every message it sends with `/api/protocol.js`'s builders and names every message it
/// reads by the module's `answers`, both made from the declarations the session decodes and encodes
/// messages by; these tests read each use in the page's modules against those declarations, so that a
/// message type or field renamed on either side fails here.
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
        var rest = Substring(code(of: text))
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

    /// `text` without its comments: a comment inside a call's object is no field, and its apostrophes
    /// no quotes. A `//` or `/*` inside a string stays; with `blankingStrings`, what is inside quotes
    /// goes too (an import's "./answers.js" is no read of `answers`).
    static func code(of text: String, blankingStrings: Bool = false) -> String {
        var code = ""
        var rest = Substring(text)
        var quote: Character?
        while let character = rest.first {
            if let open = quote {
                rest = rest.dropFirst()
                if character == "\\", let escaped = rest.first {
                    if !blankingStrings { code.append(character); code.append(escaped) }
                    rest = rest.dropFirst()
                } else if character == open {
                    quote = nil
                    code.append(character)
                } else if !blankingStrings {
                    code.append(character)
                }
            } else if rest.hasPrefix("//") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                rest = rest.range(of: "*/").map { rest[$0.upperBound...] } ?? ""
            } else {
                if character == "\"" || character == "'" || character == "`" { quote = character }
                code.append(character)
                rest = rest.dropFirst()
            }
        }
        return code
    }

    /// Every `answers.TYPE` a module reads (not `x.answers`, another object's count), with its file.
    static func answerReads(in text: String, file: String) -> [(file: String, type: String)] {
        let code = code(of: text, blankingStrings: true)
        var reads: [(file: String, type: String)] = []
        var rest = Substring(code)
        while let found = rest.range(of: "answers.") {
            let before = rest[..<found.lowerBound].last
            rest = rest[found.upperBound...]
            guard before.map({ !($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }) ?? true else { continue }
            let type = String(rest.prefix { $0.isLetter || $0.isNumber })
            if !type.isEmpty { reads.append((file, type)) }
        }
        return reads
    }

    /// Message types written out as text where the page reads a message: `message.type === "saved"`, or
    /// `case "saved":` in a `switch (message.type)`.
    static func typesWrittenOut(in text: String, file: String) -> [String] {
        let code = code(of: text)
        var found: [String] = []
        for match in code.matches(of: /\.type\s*[!=]==?\s*["'`](\w+)/) { found.append("\(file): .type === \"\(match.1)\"") }
        var rest = Substring(code)
        while let switchStart = rest.range(of: "switch (message.type)") {
            rest = rest[switchStart.upperBound...]
            // The switch's body: to the brace that closes the one it opens.
            var depth = 0, body = ""
            for character in rest {
                body.append(character)
                if character == "{" { depth += 1 }
                if character == "}" { depth -= 1; if depth == 0 { break } }
            }
            for match in body.matches(of: /case\s+["'`](\w+)/) { found.append("\(file): case \"\(match.1)\"") }
        }
        return found
    }

    /// The calls whose type or fields the declarations do not have, in words.
    static func undeclared(_ calls: [Call], declared: [(type: String, fields: [String])]) -> [String] {
        let fieldsOf = Dictionary(declared.map { ($0.type, $0.fields) }, uniquingKeysWith: { first, _ in first })
        return calls.flatMap { call -> [String] in
            guard let fields = fieldsOf[call.type] else { return ["\(call): the studio takes no '\(call.type)' message"] }
            return call.fields.filter { !fields.contains($0) }.map { "\(call): a \(call.type) message has no '\($0)'" }
        }
    }

    /// Every page module's name and text.
    static func pageModules() throws -> [(file: String, text: String)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: publicFolder.path).filter { $0.hasSuffix(".js") }.sorted()
        return try files.map { ($0, try String(contentsOf: publicFolder.appendingPathComponent($0), encoding: .utf8)) }
    }

    static func pageCalls() throws -> [Call] {
        try pageModules().flatMap { calls(in: $0.text, file: $0.file) }
    }

    @Test("every message the page builds is one the server declares, with fields it declares")
    func pageBuildsDeclaredMessages() throws {
        let calls = try Self.pageCalls()
        let declared = ProtocolController.requests(of: .standard)
        #expect(Self.undeclared(calls, declared: declared) == [])
        // The page sends its settings, the link's acknowledgements, taps and the two pages' own requests
        // this way; none of them is written out by hand.
        #expect(Set(calls.map(\.type)).isSuperset(of: ["settings", "received", "upload", "tap", "capture", "captureBiggest", "merge", "classify"]))
        #expect(calls.contains(Call(file: "many-masks.js", type: "capture", fields: ["slot", "at"])))
        #expect(calls.contains(Call(file: "focus.js", type: "tap", fields: ["x", "y", "viewWidth", "viewHeight", "frameWidth", "frameHeight",
                                                                            "layout", "orientation", "position"])))
    }

    @Test("every message type the page reads is one the server sends, named by protocol.js, never written out")
    func pageReadsDeclaredAnswers() throws {
        let modules = try Self.pageModules()
        let reads = modules.flatMap { Self.answerReads(in: $0.text, file: $0.file) }
        let sent = Set(ProtocolController.answers(of: .standard))
        #expect(reads.filter { !sent.contains($0.type) }.map { "\($0.file): answers.\($0.type)" } == [])
        // The pages read the session's messages and their own actions' answers this way.
        #expect(Set(reads.map(\.type)).isSuperset(of: ["hello", "settings", "error", "dropped", "saved", "link", "annotations",
                                                        "captured", "capturedBiggest", "merged", "classified", "tapped"]))
        #expect(modules.flatMap { Self.typesWrittenOut(in: $0.text, file: $0.file) } == [])
    }

    @Test("a type written out, or one the server does not send, is found: the reading is not vacuous")
    func answerReadsAreRead() {
        let made = #"""
            // answers.commented is no read; "answers.quoted" neither
            if (message.type === "saved") live.answers += 1;
            switch (message.type) { case answers.captured: break; case "merged": { f(); } }
            switch (other.kind) { case "number": break; }
            const x = answers.mergedFaces; /* answers.blocked */
            """#
        #expect(Self.answerReads(in: made, file: "made.js").map(\.type) == ["captured", "mergedFaces"])
        #expect(Self.typesWrittenOut(in: made, file: "made.js") == [#"made.js: .type === "saved""#, #"made.js: case "merged""#])
    }

    @Test("the tests' client reads the server's messages by the same declarations: an undeclared type or field is refused by name")
    func clientReadsByDeclarations() throws {
        let declared = StreamProtocol()
        #expect(try declared.answer(#"{"type":"dropped","frame":3,"message":"later"}"#)["frame"] == 3)
        #expect(throws: ProtocolMismatch.self) { try declared.answer(#"{"type":"dropped","frame":3,"frameNumber":3}"#) }
        #expect(throws: ProtocolMismatch.self) { try declared.answer(#"{"type":"mergedFaces","face":{}}"#) }
        // Every field of the annotations is a kind's group.
        #expect(try declared.answer(#"{"type":"annotations","quadrants":[]}"#)["quadrants"] == [])
        // And its requests by the declarations the session decodes by.
        #expect(try declared.request("capture", ["slot": 1]) == #"{"slot":1,"type":"capture"}"#)
        #expect(throws: ProtocolMismatch.self) { try declared.request("capture", ["slott": 1]) }
        #expect(throws: ProtocolMismatch.self) { try declared.request("mergeFaces") }
    }

    @Test("a field or type renamed on one side is found: the reading is not vacuous")
    func renamesAreFound() {
        let made = Self.calls(in: #"send(requests.capture({ slott: 1, // it's the slot\#n at: [f(1, 2), { x: 3 }.x] })); requests.mergeFaces();"#, file: "made.js")
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
                #expect(module.contains(#"const ANSWERS = ["hello","settings","error","dropped","saved","link","annotations","#)
                        && module.contains(#""captured","capturedBiggest","merged""#) && module.contains("sends no '${name}' message"))
            }
        }
    }
}

import Foundation
import Testing
@testable import Ocular

/// A key named twice in one JSON object is found wherever the object is, and only there: not across
/// objects, not in strings, not among values.
@Suite("Keys named twice in JSON")
struct JSONDuplicateKeysTests {
    static func first(_ text: String) -> String? { JSONDuplicateKeys.first(in: Data(text.utf8)) }

    @Test("found in any object, by its unescaped code points")
    func found() {
        #expect(Self.first(#"{"a":1,"a":2}"#) == "a")
        #expect(Self.first(#"{"a":[{"b":1},{"c":2,"b":3,"c":4}]}"#) == "c")
        #expect(Self.first(#"{"a":1,"\u0061":2}"#) == "a")
        #expect(Self.first(#"{"q\"":1,"q\u0022":2}"#) == "q\"")
        #expect(Self.first(#"[1,{"x":{"y":1,"y":2}}]"#) == "y")
        #expect(Self.first(#"{"b":1,"a":2,"b":3,"a":4}"#) == "b", "the first repeat in the text")
    }

    @Test("not found across objects, among values, inside strings, or between Unicode's two forms")
    func notFound() {
        #expect(Self.first(#"{"a":{"b":1},"b":2}"#) == nil)
        #expect(Self.first(#"{"a":"a","b":["a","a"]}"#) == nil)
        #expect(Self.first(#"{"x":"{\"x\":1,\"x\":2}","y":",\"y\":"}"#) == nil)
        #expect(Self.first(#"{"a":[{"k":1},{"k":2}]}"#) == nil)
        #expect(Self.first("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}") == nil, "NFC and NFD are two keys, as in a browser")
        #expect(Self.first(#"{"\\":1,"\\\\":2}"#) == nil)
        #expect(Self.first("") == nil)
    }

    @Test("cut or damaged text ends the scan without reading past it")
    func damaged() {
        for text in [#"{"a":1,"a"#, #"{"a\"#, #"{"#, #"}}}]]"#, #"{"a":1,"a":"#, "\"", #"{"\u"#] {
            _ = Self.first(text)
        }
        #expect(Self.first(#"{"a":1,"a":"#) == "a")
    }
}

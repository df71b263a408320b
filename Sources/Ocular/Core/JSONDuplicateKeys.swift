import Foundation

/// Finds a key named twice in one JSON object.
///
/// JSON leaves such an object to its reader (RFC 8259 says only that names "SHOULD be unique"): a
/// browser's `JSON.parse` and Python's `json` keep the last value, Foundation's decoder the first. A
/// message a page wrote, or a recipe a script wrote, would then mean one thing to its writer and
/// another to Ocular; so the readers of such text refuse it and name the key. Foundation's parsers
/// say nothing of duplicates, hence this scan, which only walks the structure a decoder has already
/// accepted: strings, brackets, braces, commas and colons.
public enum JSONDuplicateKeys {
    /// The first key, in the order of the text, that its object already had; nil when none is.
    /// - Parameter json: JSON text (UTF-8). Meant for text a decoder accepted; on anything else it
    ///   ends without reading out of bounds and finds what it finds.
    /// - Returns: The key, unescaped ("\u0061" is "a"), compared by its code points as a browser does
    ///   (the two Unicode forms of "café" are two keys).
    public static func first(in json: Data) -> String? {
        json.withUnsafeBytes { first(in: $0.bindMemory(to: UInt8.self)) }
    }

    private static func first(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // One entry per open container: an object's keys so far, nil for an array.
        var containers: [Set<[UInt8]>?] = []
        // Whether the next string in the innermost object is a key (after `{` or `,`), not a value.
        var keyNext = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                containers.append([])
                keyNext = true
            case UInt8(ascii: "["):
                containers.append(nil)
                keyNext = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !containers.isEmpty { containers.removeLast() }
                keyNext = false
            case UInt8(ascii: ","):
                keyNext = containers.last.map { $0 != nil } ?? false
            case UInt8(ascii: ":"):
                keyNext = false
            case UInt8(ascii: "\""):
                let start = index
                var escaped = false
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        escaped = true
                        index += 1  // the escaped character, which may be a quote
                    }
                    index += 1
                }
                if keyNext, let last = containers.indices.last, containers[last] != nil {
                    let literal = Array(bytes[start..<min(index + 1, bytes.count)])
                    let key = escaped ? unescaped(literal) : Array(literal.dropFirst().dropLast())
                    if !containers[last]!.insert(key).inserted {
                        return String(decoding: key, as: UTF8.self)
                    }
                    keyNext = false
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A string literal's content with its escapes read, as UTF-8 (its own bytes where it is no
    /// literal JSON reads).
    private static func unescaped(_ literal: [UInt8]) -> [UInt8] {
        let wrapped = Data([UInt8(ascii: "[")] + literal + [UInt8(ascii: "]")])
        guard let texts = try? JSONDecoder().decode([String].self, from: wrapped), let text = texts.first else { return literal }
        return Array(text.utf8)
    }
}

import Foundation

/// Columns of text padded to their widest cell, two spaces apart: the CLI's tables.
struct TextTable {
    let header: [String]
    let rows: [[String]]

    var text: String {
        let lines = [header] + rows
        let widths = header.indices.map { column in lines.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return lines.map { cells in
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}

/// JSON as every command prints and writes it: indented, keys sorted (the same value always prints the
/// same text), slashes as they are, dates in ISO 8601.
enum JSONOutput {
    static func data(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }

    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try data(value), as: UTF8.self)
    }

    /// The text on standard output.
    static func print(_ value: some Encodable) throws {
        Swift.print(try text(value))
    }
}

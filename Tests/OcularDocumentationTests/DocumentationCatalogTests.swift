import Foundation
import Testing

/// The DocC catalog's articles are there, and their Swift code is the code of `DocumentationExamples`,
/// which compiles and runs.
@Suite("The documentation catalog")
struct DocumentationCatalogTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    static let catalog = repository.appendingPathComponent("Sources/Ocular/Ocular.docc")
    static let articles = ["Ocular", "GettingStarted", "ImagesAndPixelFormats", "StagesAndRecipes", "Faces", "BeanCounter",
                           "VideoSourcesAndSinks", "TheGallery", "Errors"]

    /// The ```swift blocks of a Markdown text, each as its lines.
    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = [], current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// Lines without their indentation, blank ones left out.
    static func significant(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `lines` occur one after another in `text`.
    static func contains(_ text: [String], run lines: [String]) -> Bool {
        guard !lines.isEmpty, lines.count <= text.count else { return lines.isEmpty }
        for start in 0...(text.count - lines.count) where text[start..<(start + lines.count)].elementsEqual(lines) {
            return true
        }
        return false
    }

    @Test("the landing page links every article, and each article exists")
    func articlesExist() throws {
        for article in Self.articles {
            let path = Self.catalog.appendingPathComponent(article + ".md").path
            #expect(FileManager.default.fileExists(atPath: path), "missing \(article).md")
        }
        let landing = try String(contentsOf: Self.catalog.appendingPathComponent("Ocular.md"), encoding: .utf8)
        for article in Self.articles.dropFirst() {
            #expect(landing.contains("<doc:\(article)>"), "the landing page does not link \(article)")
        }
    }

    @Test("every Swift block of every article is code that DocumentationExamples compiles and runs")
    func examplesCompile() throws {
        let examples = try String(contentsOf: Self.repository.appendingPathComponent("Tests/OcularDocumentationTests/DocumentationExamples.swift"),
                                  encoding: .utf8)
        let exampleLines = Self.significant(examples.components(separatedBy: "\n"))
        var blocks = 0
        for article in Self.articles {
            let text = try String(contentsOf: Self.catalog.appendingPathComponent(article + ".md"), encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                blocks += 1
                let lines = Self.significant(block)
                let found = Self.contains(exampleLines, run: lines)
                #expect(found, "\(article).md has code that is not in DocumentationExamples.swift:\n\(block.joined(separator: "\n"))")
            }
        }
        #expect(blocks >= 10)
    }
}

import Foundation
import Testing

/// The DocC catalog's articles are there, and their Swift code is the code of `DocumentationExamples`,
/// which compiles and runs.
@Suite("The documentation catalog")
struct DocumentationCatalogTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    static let catalog = repository.appendingPathComponent("Sources/Ocular/Ocular.docc")
    static let articles = ["Ocular", "GettingStarted", "ImagesAndPixelFormats", "StagesAndRecipes", "Faces", "BeanCounter",
                           "VideoSourcesAndSinks", "TheGallery", "Errors", "StageReference", "FaceDetection", "BeanCounterDetection",
                           "Samples", "Filters", "ZoomAndSharpness", "GalleryAndRecording", "OcularStudio", "UsingOcularInYourPackage",
                           "BuildingAndTesting", "DamagedInput", "Performance", "SourceLayout"]
    static let readme = repository.appendingPathComponent("README.md")

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

    /// Where an article's code comes from: the examples this target compiles and runs, and the stage that
    /// "Writing a stage" shows whole, with its test, as they are in the library and its tests.
    static let codeSources = ["Tests/OcularDocumentationTests/DocumentationExamples.swift", "Sources/Ocular/Colour/PosterizeStage.swift",
                              "Tests/OcularTests/PosterizeTests.swift"]

    @Test("every Swift block of every article is code that DocumentationExamples compiles and runs, or a stage's own source")
    func examplesCompile() throws {
        var exampleLines: [String] = []
        for source in Self.codeSources {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(source), encoding: .utf8)
            // A line no code has, between files, so that no run of lines spans two of them.
            exampleLines += Self.significant(text.components(separatedBy: "\n")) + ["\u{0}"]
        }
        var blocks = 0
        for article in Self.articles {
            let text = try String(contentsOf: Self.catalog.appendingPathComponent(article + ".md"), encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                blocks += 1
                let lines = Self.significant(block)
                let found = Self.contains(exampleLines, run: lines)
                #expect(found, "\(article).md has code that is in none of \(Self.codeSources):\n\(block.joined(separator: "\n"))")
            }
        }
        #expect(blocks >= 10)
    }

    /// The targets of a Markdown text's links and pictures, `[text](target)` and `![alt](target)`.
    static func linkTargets(in text: String) -> [String] {
        let pattern = /!?\[[^\]]*\]\(([^)\s]+)\)/
        return text.matches(of: pattern).map { String($0.output.1) }
    }

    @Test("the README opens with the two commands, stays under 250 lines, and links every article and picture that exists")
    func readme() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        #expect(lines.count <= 250, "the README has \(lines.count) lines; the rest belongs in an article")
        let commands = lines.drop { !$0.hasPrefix("```") }.dropFirst().prefix { !$0.hasPrefix("```") }
        #expect(commands.map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["make", "make"], "\(commands)")
        #expect(commands.first?.hasPrefix("make run") == true && commands.last?.hasPrefix("make test") == true)
        let targets = Self.linkTargets(in: text).filter { !$0.hasPrefix("http") }
        for target in targets {
            #expect(FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(target).path),
                    "the README links \(target), which is not in the repository")
        }
        for article in Self.articles.dropFirst() {
            #expect(targets.contains("Sources/Ocular/Ocular.docc/\(article).md"), "the README does not link the article \(article)")
        }
    }

    @Test("every picture an article shows is in the catalog, where DocC finds it by name")
    func pictures() throws {
        let resources = Self.catalog.appendingPathComponent("Resources")
        let names = Set((FileManager.default.enumerator(atPath: resources.path)?.allObjects as? [String] ?? []).map { ($0 as NSString).lastPathComponent })
        var shown = 0
        for article in Self.articles {
            let text = try String(contentsOf: Self.catalog.appendingPathComponent(article + ".md"), encoding: .utf8)
            for match in text.matches(of: /!\[[^\]]*\]\(([^)\s]+)\)/) {
                shown += 1
                #expect(names.contains(String(match.output.1)), "\(article).md shows \(match.output.1), which is not in Resources")
            }
        }
        #expect(shown >= 30)
    }
}

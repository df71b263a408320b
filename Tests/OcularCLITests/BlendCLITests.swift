import Foundation
import Ocular
import Testing

@Suite("ocular blend")
struct BlendCLITests {
    let frame = dataRoot + "/images/coffee.png", picture = dataRoot + "/images/rocket.jpg"

    @Test("blend writes the library's blend of the two files, in colour and in gray")
    func blends() throws {
        let folder = try Folder()
        let run = try ocular("blend", frame, picture, "--mode", "hud", "--opacity", "0.8", "-o", folder.file("hud.png"))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("600 × 400") && run.output.contains("hud at opacity 0.8"), "\(run.output)")
        let expected = try Blend(source: Image(contentsOfFile: picture), mode: .hud, opacity: 0.8).apply(to: Image(contentsOfFile: frame))
        #expect(try Image(contentsOfFile: folder.file("hud.png")) == expected)

        let gray = try ocular("blend", frame, picture, "--mode", "multiply", "--gray", "-o", folder.file("gray.png"))
        #expect(gray.status == 0, "\(gray.errors)")
        let expectedGray = try Blend(source: Image(contentsOfFile: picture), mode: .multiply).apply(to: Image(contentsOfFile: frame).converted(to: .gray8))
        let written = try Image(contentsOfFile: folder.file("gray.png"), options: ImageReadOptions())
        #expect(written.format == .gray8 && written == expectedGray)
    }

    @Test("apply takes a blend recipe whose source is a file path")
    func applyRecipe() throws {
        let folder = try Folder()
        let recipe = #"{"stages":[{"stage":"blend","source":"\#(picture)","mode":"difference"}]}"#
        let run = try ocular("apply", frame, "-o", folder.file("out.png"), "--recipe", recipe)
        #expect(run.status == 0, "\(run.errors)")
        let expected = try Blend(source: Image(contentsOfFile: picture), mode: .difference).apply(to: Image(contentsOfFile: frame))
        #expect(try Image(contentsOfFile: folder.file("out.png")) == expected)
    }

    @Test("an unknown mode lists the modes; a missing picture names it; nothing is written")
    func errors() throws {
        let folder = try Folder()
        expectCleanFailure(try ocular("blend", frame, picture, "--mode", "dissolve", "-o", folder.file("a.png")),
                           mentioning: "unknown blend mode 'dissolve'; the modes are none, average, hud, normal, multiply, screen, overlay")
        expectCleanFailure(try ocular("blend", frame, folder.file("missing.png"), "-o", folder.file("b.png")),
                           mentioning: "stage 'blend', parameter 'source': cannot read '\(folder.file("missing.png"))': no such file")
        expectCleanFailure(try ocular("blend", frame, picture, "--opacity", "2", "-o", folder.file("c.png")), mentioning: "--opacity must be from 0 to 1")
        #expect(folder.contents.isEmpty)
    }
}

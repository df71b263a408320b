import Foundation
import Hummingbird

/// `GET /api/pages.js`: the studio's pages (``StudioPage``) as a JavaScript module, `export const PAGES =
/// [{"name","title","href"}, …];`, which every page's bar imports. A module rather than JSON fetched
/// later: the bar is built as the page loads, with no flash of an empty bar, on the gallery page too,
/// which has no stream and so no hello.
struct PagesController {
    /// The module's text, the same for the server's life.
    static let module: String = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a fixed list of strings cannot fail; an empty list keeps the bar empty rather than crash.
        let pages = (try? encoder.encode(StudioPage.allCases)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return "// The studio's pages, from the server (StudioPage.swift).\nexport const PAGES = \(pages);\n"
    }()

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/api/pages.js") { _, _ in
            Response(status: .ok,
                     headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: Self.module)))
        }
    }
}

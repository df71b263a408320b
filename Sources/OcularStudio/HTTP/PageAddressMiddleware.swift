internal import HTTPTypes
import Hummingbird

/// The pages' addresses, ahead of the file server: the root shows the root page (``StudioPage/root``)
/// from its file, `light-work.html`, with the address left `/` (the one a phone scans from the QR code);
/// a page's former file (`/masks.html`) answers 301 to its file now (`/many-masks.html`), its query kept,
/// so bookmarks and home-screen icons made before the files took their pages' names still open them.
struct PageAddressMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `/masks.html` → the Many Masks page.
    private let formerPaths = Dictionary(uniqueKeysWithValues: StudioPage.allCases.flatMap { page in
        page.formerFiles.map { ("/" + $0, page) }
    })

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        let path = request.uri.path
        let query = request.uri.query.map { "?" + $0 } ?? ""
        if path == "/" {
            var head = request.head
            head.path = "/" + StudioPage.root.file + query
            return try await next(Request(head: head, body: request.body), context)
        }
        if let page = formerPaths[path] {
            let location = page == .root ? "/" : "/" + page.file
            return Response(status: .movedPermanently, headers: [.location: location + query])
        }
        return try await next(request, context)
    }
}

import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import Ocular

/// The gallery over HTTP, by id only:
/// - `GET /api/gallery?limit=60&offset=0`: `{"items":[…],"total":N,"limit":…,"offset":…}`, newest first;
/// - `GET /api/gallery/ID`: the file (byte ranges answered, so videos seek);
/// - `GET /api/gallery/ID/thumbnail`: its JPEG thumbnail;
/// - `DELETE /api/gallery/ID`: `{"deleted":ID}`.
/// An id that is not an item's is answered 404, a bad query 400, each with `{"error":"…"}`.
struct GalleryController {
    let gallery: StudioGallery

    static let path = "/api/gallery"
    static let largestPage = 200

    struct Page: Encodable {
        var items: [GalleryItemResource]
        var total: Int
        var limit: Int
        var offset: Int
    }

    struct Deleted: Encodable {
        var deleted: Int64
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: Self.path)) { request, _ in try await list(request) }
        router.get(RouterPath(stringLiteral: Self.path + "/:id")) { request, context in
            try await withItem(context) { gallery, item in try await file(gallery.path(of: item), request: request, context: context) }
        }
        router.get(RouterPath(stringLiteral: Self.path + "/:id/thumbnail")) { request, context in
            try await withItem(context) { gallery, item in
                guard let thumbnail = gallery.thumbnailPath(of: item) else {
                    return try StudioErrorBody.response(.notFound, "item \(item.id) has no thumbnail")
                }
                return try await file(thumbnail, request: request, context: context)
            }
        }
        router.delete(RouterPath(stringLiteral: Self.path + "/:id")) { _, context in
            guard let id = context.parameters.get("id", as: Int64.self) else { return try Self.unknown(context) }
            let outcome = await blocking { () throws(GalleryError) in try gallery.open().delete(id: id) }
            switch outcome {
            case .success(let item): return try jsonResponse(Deleted(deleted: item.id), status: .ok)
            case .failure(let error): return try response(for: error)
            }
        }
    }

    private func list(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        guard let limit = query.get("limit").map({ Int($0) }) ?? 60, (1...Self.largestPage).contains(limit) else {
            return try StudioErrorBody.response(.badRequest, "limit must be a whole number from 1 to \(Self.largestPage)")
        }
        guard let offset = query.get("offset").map({ Int($0) }) ?? 0, offset >= 0 else {
            return try StudioErrorBody.response(.badRequest, "offset must be a whole number from 0")
        }
        let outcome = await blocking { () throws(GalleryError) in
            let opened = try gallery.open()
            return Page(items: try opened.items(limit: limit, offset: offset).map(GalleryItemResource.init), total: try opened.count(),
                        limit: limit, offset: offset)
        }
        switch outcome {
        case .success(let page): return try jsonResponse(page, status: .ok, datesAs: .iso8601)
        case .failure(let error): return try response(for: error)
        }
    }

    /// Looks the id up, then answers with `body`.
    private func withItem(_ context: BasicRequestContext, _ body: (Gallery, GalleryItem) async throws -> Response) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self) else { return try Self.unknown(context) }
        let outcome = await blocking { () throws(GalleryError) in
            let opened = try gallery.open()
            return (opened, try opened.item(id: id))
        }
        switch outcome {
        case .success(let (opened, item)): return try await body(opened, item)
        case .failure(let error): return try response(for: error)
        }
    }

    /// A file with its type, whole or the one byte range asked for.
    private func file(_ path: String, request: Request, context: BasicRequestContext) async throws -> Response {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int else {
            return try StudioErrorBody.response(.notFound, "the item's file is missing from the gallery")
        }
        var headers: HTTPFields = [.contentType: Self.mediaType(of: path), .acceptRanges: "bytes",
                                   .cacheControl: "no-cache"]
        let fileIO = FileIO(threadPool: .singleton)
        if let header = request.headers[.range] {
            guard let range = Self.byteRange(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers,
                            body: try await fileIO.loadFile(path: path, range: range, context: context))
        }
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
    }

    /// One range of "bytes=a-b", "bytes=a-" or "bytes=-n", inside a file of `size` bytes.
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard size > 0, let match = header.wholeMatch(of: /bytes=([0-9]{0,18})-([0-9]{0,18})/) else { return nil }
        let first = Int(match.1), last = Int(match.2)
        switch (first, last) {
        case (let first?, let last?) where first <= last && first < size: return first...min(last, size - 1)
        case (let first?, nil) where first < size: return first...(size - 1)
        case (nil, let suffix?) where suffix > 0: return max(0, size - suffix)...(size - 1)
        default: return nil
        }
    }

    static func mediaType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "bmp": "image/bmp"
        case "tif", "tiff": "image/tiff"
        case "mp4", "m4v": "video/mp4"
        case "webm": "video/webm"
        case "mov": "video/quicktime"
        case "avi": "video/x-msvideo"
        case "mkv": "video/x-matroska"
        default: "application/octet-stream"
        }
    }

    private static func unknown(_ context: BasicRequestContext) throws -> Response {
        let id = context.parameters.get("id") ?? ""
        return try StudioErrorBody.response(.notFound, "the gallery has no item \(StageError.quoted(id)); ids are whole numbers from \(path)")
    }

    private func response(for error: GalleryError) throws -> Response {
        let message = gallery.clientMessage(for: error)
        switch error {
        case .noSuchItem, .missingFile: return try StudioErrorBody.response(.notFound, message)
        case .invalidName, .notMedia: return try StudioErrorBody.response(.badRequest, message)
        case .readOnly: return try StudioErrorBody.response(.conflict, message)
        case .quotaExceeded: return try StudioErrorBody.response(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), message)
        default: return try StudioErrorBody.response(.internalServerError, message)
        }
    }
}

/// Runs blocking gallery work (SQLite, fsync) on NIO's thread pool, off the cooperative threads.
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws(GalleryError) -> T) async -> Result<T, GalleryError> {
    do {
        return try await NIOThreadPool.singleton.runIfActive { Result { () throws(GalleryError) in try work() } }
    } catch {
        return .failure(.unusableFolder(path: "", reason: "the server is shutting down"))
    }
}

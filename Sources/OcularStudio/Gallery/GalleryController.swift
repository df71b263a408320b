import Foundation
import Hummingbird
internal import NIOCore
internal import NIOPosix
import Ocular
import OcularGallery

/// The gallery over HTTP, by id only:
/// - `GET /api/gallery?limit=60&offset=0`: `{"items":[…],"total":N,"limit":…,"offset":…}`, newest first;
/// - `GET /api/gallery/ID`: the file (byte ranges answered, so videos seek);
/// - `GET /api/gallery/ID/thumbnail`: its JPEG thumbnail;
/// - `GET /api/gallery/ID/alternate`: a video's other file (the MP4 beside a recorded WebM);
/// - `POST /api/gallery/clips`: a recorded clip (``ClipsController``);
/// - `DELETE /api/gallery/ID`: `{"deleted":ID}`.
/// An id that is not an item's is answered 404, a bad query 400, each with `{"error":"…"}`.
struct GalleryController {
    let gallery: StudioGallery
    /// Stops a deleted clip's conversion; nil without FFmpeg.
    var converter: ClipConverter? = nil

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
            try await withItem(context) { gallery, item in try await file(gallery.path(of: item), of: item, request: request, context: context) }
        }
        router.get(RouterPath(stringLiteral: Self.path + "/:id/thumbnail")) { request, context in
            try await withItem(context) { gallery, item in
                guard let thumbnail = gallery.thumbnailPath(of: item) else {
                    throw StudioHTTPError(.notFound, "item \(item.id) has no thumbnail")
                }
                return try await file(thumbnail, of: nil, request: request, context: context)
            }
        }
        router.get(RouterPath(stringLiteral: Self.path + "/:id/alternate")) { request, context in
            try await withItem(context) { gallery, item in
                guard let alternate = gallery.alternatePath(of: item) else {
                    throw StudioHTTPError(.notFound, "item \(item.id) has no other format (yet)")
                }
                return try await file(alternate, of: nil, request: request, context: context)
            }
        }
        router.delete(RouterPath(stringLiteral: Self.path + "/:id")) { _, context in
            guard let id = Self.id(context) else { throw Self.unknown(context) }
            let outcome = await blocking { () throws(GalleryError) in try gallery.open().delete(id: id) }
            switch outcome {
            case .success(let item):
                converter?.cancel(itemID: item.id)
                return try jsonResponse(Deleted(deleted: item.id), status: .ok)
            case .failure(let error): throw refusal(of: error)
            }
        }
    }

    private func list(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        guard let limit = query.get("limit").map({ Int($0) }) ?? 60, (1...Self.largestPage).contains(limit) else {
            throw StudioHTTPError(.badRequest, "limit must be a whole number from 1 to \(Self.largestPage)")
        }
        guard let offset = query.get("offset").map({ Int($0) }) ?? 0, offset >= 0 else {
            throw StudioHTTPError(.badRequest, "offset must be a whole number from 0")
        }
        let outcome = await blocking { () throws(GalleryError) in
            let opened = try gallery.open()
            return Page(items: try opened.items(limit: limit, offset: offset).map(GalleryItemResource.init), total: try opened.count(),
                        limit: limit, offset: offset)
        }
        switch outcome {
        case .success(let page): return try jsonResponse(page, status: .ok, datesAs: .iso8601)
        case .failure(let error): throw refusal(of: error)
        }
    }

    /// Looks the id up, then answers with `body`.
    private func withItem(_ context: BasicRequestContext, _ body: (Gallery, GalleryItem) async throws -> Response) async throws -> Response {
        guard let id = Self.id(context) else { throw Self.unknown(context) }
        let outcome = await blocking { () throws(GalleryError) in
            let opened = try gallery.open()
            return (opened, try opened.item(id: id))
        }
        switch outcome {
        case .success(let (opened, item)): return try await body(opened, item)
        case .failure(let error): throw refusal(of: error)
        }
    }

    /// What a Range header asks for (RFC 9110 §14): the whole file when it is absent, of another unit,
    /// several ranges or malformed (a server may ignore Range); one range clamped to the file; or
    /// nothing the file holds (416).
    enum RangeRequest: Equatable {
        case whole
        case range(ClosedRange<Int>)
        case unsatisfiable
    }

    /// Files up to this size are hashed as they are served: a damaged one is answered 500, not
    /// served as good.
    static let largestHashedFile = 64 << 20

    /// An item's file, or its thumbnail (`item` nil), with its type, whole or the one byte range asked
    /// for. Opened without following a symbolic link, it must be a regular file of the size recorded
    /// (and, when small enough, of the CRC-32 recorded); otherwise 500 with the reason.
    private func file(_ path: String, of item: GalleryItem?, request: Request, context: BasicRequestContext) async throws -> Response {
        let opened = await blocking { () throws(GalleryError) in try GalleryFile(path: path, expecting: item) }
        let file: GalleryFile
        switch opened {
        case .success(let found): file = found
        case .failure(.missingFile): throw StudioHTTPError(.notFound, "the item's file is missing from the gallery")
        case .failure(let error): throw StudioHTTPError(.internalServerError, gallery.clientMessage(for: error))
        }
        let size = file.size
        var headers: HTTPFields = [.contentType: Self.mediaType(of: path), .acceptRanges: "bytes", .cacheControl: "no-cache"]
        if !Self.isShownInline(path) {
            // Not a picture or a video: downloaded, never rendered by the browser as a page.
            headers[.contentDisposition] = "attachment; filename=\"\((path as NSString).lastPathComponent.filter { $0.isASCII && $0 != "\"" && $0 != "\\" })\""
        }
        let range: ClosedRange<Int>?
        switch request.headers[.range].map({ Self.byteRange($0, size: size) }) ?? .whole {
        case .whole: range = nil
        case .range(let asked): range = asked
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        let served = range ?? 0...(size - 1)
        if let range { headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)" }
        headers[.contentLength] = String(size == 0 ? 0 : served.count)
        let body = size == 0 ? ResponseBody() : file.body(range: served)
        return Response(status: range == nil ? .ok : .partialContent, headers: headers, body: body)
    }

    /// One range of "bytes=a-b", "bytes=a-" or "bytes=-n" inside a file of `size` bytes.
    static func byteRange(_ header: String, size: Int) -> RangeRequest {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard let equals = trimmed.firstIndex(of: "="),
              trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "bytes" else { return .whole }
        let specifier = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !specifier.contains(","), let match = specifier.wholeMatch(of: /([0-9]*)-([0-9]*)/) else { return .whole }
        // Positions past what an Int holds are past any file: clamped, not refused.
        func position(_ digits: Substring) -> Int? { digits.isEmpty ? nil : Int(digits) ?? Int.max }
        switch (position(match.1), position(match.2)) {
        case (let first?, let last?):
            guard first <= last else { return .whole }  // invalid: ignored
            return first < size ? .range(first...min(last, size - 1)) : .unsatisfiable
        case (let first?, nil):
            return first < size ? .range(first...(size - 1)) : .unsatisfiable
        case (nil, let suffix?):
            return suffix > 0 && size > 0 ? .range(max(0, size - min(suffix, size))...(size - 1)) : .unsatisfiable
        case (nil, nil):
            return .whole
        }
    }

    /// Pictures and videos are shown by the browser; anything else is downloaded.
    static func isShownInline(_ path: String) -> Bool {
        let type = mediaType(of: path)
        return type.hasPrefix("image/") || type.hasPrefix("video/")
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
        case "gif": "image/gif"
        default: "application/octet-stream"
        }
    }

    /// The id in the path: digits only ("+1", " 1" and "1e0" name no item).
    static func id(_ context: BasicRequestContext) -> Int64? {
        guard let text = context.parameters.get("id"), !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }

    private static func unknown(_ context: BasicRequestContext) -> StudioHTTPError {
        let id = context.parameters.get("id") ?? ""
        return StudioHTTPError(.notFound, "the gallery has no item \(StageError.quoted(id)); ids are whole numbers from \(path)")
    }

    /// The status follows the error's code (a missing item 404, a read-only gallery 409, a full one
    /// 507); the message names files relative to the gallery.
    private func refusal(of error: GalleryError) -> StudioHTTPError {
        StudioHTTPError(error, message: gallery.clientMessage(for: error))
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

extension GalleryFile {
    /// The bytes of `range` as a response body: from memory when the file was read to be hashed,
    /// otherwise read from the open file in 1 MiB chunks off the cooperative threads.
    func body(range: ClosedRange<Int>) -> ResponseBody {
        if let contents { return ResponseBody(byteBuffer: ByteBuffer(bytes: contents[range])) }
        return ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let count = min(1 << 20, range.upperBound + 1 - offset)
                let start = offset
                let chunk = try await NIOThreadPool.singleton.runIfActive { self.read(offset: start, count: count) }
                guard !chunk.isEmpty else { throw HTTPError(.internalServerError, message: "the file ended early") }
                try await writer.write(ByteBuffer(bytes: chunk))
                offset += chunk.count
            }
            try await writer.finish(nil)
        }
    }
}

import Foundation
import Hummingbird
internal import NIOCore
import Ocular

/// `POST /api/sources`: a picture to blend into frames. The body is the image file (JPEG, PNG, …),
/// typed `image/…` or `application/octet-stream` (anything else is answered 415);
/// the answer is `201 {"id":"…","width":…,"height":…}`, the id to put in a recipe's image parameter.
/// Too large a body is answered 413, one that is not a picture 400, each with `{"error":"…"}`.
struct SourcesController {
    let configuration: StudioConfiguration
    let sources: UploadedSources

    static let path = "/api/sources"

    struct Created: Encodable {
        var id: String
        var width: Int
        var height: Int
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post(RouterPath(stringLiteral: Self.path)) { request, context in
            try await upload(request, context: context)
        }
    }

    func upload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        // A form or text/plain body is what another web page can send without asking (a "simple"
        // request, no CORS preflight): a picture must say it is one.
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard type.hasPrefix("image/") || type == "application/octet-stream" else {
            throw StudioHTTPError(.unsupportedMediaType,
                "send the picture with Content-Type image/… or application/octet-stream, not '\(StudioAccess.printable(type))'")
        }
        let limit = configuration.maxSourceBytes
        let tooLarge = "the picture is larger than the limit of \(limit) bytes"
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw StudioHTTPError(.contentTooLarge, tooLarge)
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw StudioHTTPError(.contentTooLarge, tooLarge)
        }
        guard body.readableBytes > 0 else {
            throw StudioHTTPError(.badRequest, "the request has no body: send the picture's file as the body")
        }
        let options = ImageReadOptions(pixelLimit: configuration.maxFramePixels)
        let decoded: Result<Image, OcularError> = body.withUnsafeReadableBytes { bytes in
            Result { () throws(OcularError) in try Image(decoding: bytes, name: "the uploaded picture", options: options) }
        }
        let picture: Image
        switch decoded {
        case .success(let image): picture = image
        case .failure(let error): throw StudioHTTPError(error)
        }
        let id = sources.add(picture)
        context.logger.info("blend source \(id): \(picture.width)×\(picture.height), \(body.readableBytes) bytes")
        return try jsonResponse(Created(id: id, width: picture.width, height: picture.height), status: .created)
    }
}

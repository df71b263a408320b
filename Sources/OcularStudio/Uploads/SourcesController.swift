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
            return try StudioErrorBody.response(.unsupportedMediaType,
                "send the picture with Content-Type image/… or application/octet-stream, not '\(StudioAccess.printable(type))'")
        }
        let limit = configuration.maxSourceBytes
        let tooLarge = "the picture is larger than the limit of \(limit) bytes"
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            return try StudioErrorBody.response(.contentTooLarge, tooLarge)
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            return try StudioErrorBody.response(.contentTooLarge, tooLarge)
        }
        guard body.readableBytes > 0 else {
            return try StudioErrorBody.response(.badRequest, "the request has no body: send the picture's file as the body")
        }
        let options = ImageReadOptions(pixelLimit: configuration.maxFramePixels)
        let decoded: Result<Image, OcularError> = body.withUnsafeReadableBytes { bytes in
            Result { () throws(OcularError) in try Image(decoding: bytes, name: "the uploaded picture", options: options) }
        }
        let picture: Image
        switch decoded {
        case .success(let image): picture = image
        case .failure(let error): return try StudioErrorBody.response(for: error)
        }
        let id = sources.add(picture)
        context.logger.info("blend source \(id): \(picture.width)×\(picture.height), \(body.readableBytes) bytes")
        return try jsonResponse(Created(id: id, width: picture.width, height: picture.height), status: .created)
    }
}

/// The body of every error answer of the HTTP API: `{"error":"what went wrong and why"}`, and for
/// Ocular's errors their code: `{"error":"…","code":"image.tooManyPixels"}`.
struct StudioErrorBody: Encodable {
    var error: String
    var code: String?

    /// The body as JSON text, for answers written below Hummingbird (refused WebSocket upgrades).
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    static func response(_ status: HTTPResponse.Status, _ message: String, code: ErrorCode? = nil) throws -> Response {
        try jsonResponse(StudioErrorBody(error: message, code: code?.name), status: status)
    }

    /// The answer to an error: its status from its code's kind, its message (`message` when the
    /// error's own would name the server's folders).
    static func response(for error: any Error, message: String? = nil) throws -> Response {
        let code = ErrorCode.of(error)
        return try response(code.kind.httpStatus, message ?? "\(error)", code: code)
    }
}

extension ErrorCode.Kind {
    /// The status the studio answers with: the client's mistakes are 4xx, the server's 5xx.
    var httpStatus: HTTPResponse.Status {
        switch self {
        case .badInput: .badRequest
        case .notFound: .notFound
        case .tooLarge: .contentTooLarge
        case .refused: .conflict
        case .full: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        case .unavailable: .serviceUnavailable
        case .ioFailure, .internalFailure: .internalServerError
        }
    }
}

/// A JSON answer with the given status.
func jsonResponse(_ value: some Encodable, status: HTTPResponse.Status,
                  datesAs dateStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate) throws -> Response {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = dateStrategy
    encoder.outputFormatting = [.withoutEscapingSlashes]
    let data = try encoder.encode(value)
    return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
}

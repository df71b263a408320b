import Foundation
import Hummingbird
internal import NIOCore
import Ocular

/// What the studio's HTTP API answers when it refuses a request: thrown by a controller, answered
/// (with the security headers, by ``AccessGuardMiddleware``) as the status and
/// `{"error":"what went wrong and why"}`, and for Ocular's errors their code:
/// `{"error":"…","code":"image.tooManyPixels"}`.
struct StudioHTTPError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String
    let code: ErrorCode?

    init(_ status: HTTPResponse.Status, _ message: String, code: ErrorCode? = nil) {
        self.status = status
        self.message = message
        self.code = code
    }

    /// An error of Ocular's (or any): its status from its code's kind, its message (`message` when
    /// the error's own would name the server's folders).
    init(_ error: any Error, message: String? = nil) {
        let code = ErrorCode.of(error)
        self.init(code.kind.httpStatus, message ?? "\(error)", code: code)
    }

    /// 507: the gallery's disk or quota is full.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    var body: Body { Body(error: message, code: code?.name) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try jsonResponse(body, status: status)
    }

    /// The JSON body of every refusal.
    struct Body: Encodable {
        var error: String
        var code: String?

        /// The body as JSON text, for answers written below Hummingbird (refused WebSocket upgrades).
        var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
        }
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
        case .full: StudioHTTPError.insufficientStorage
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

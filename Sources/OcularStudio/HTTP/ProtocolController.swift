import Foundation
import Hummingbird

/// `GET /api/protocol.js`: the messages a page may send on `/api/stream`, as a JavaScript module built
/// from the declarations the session decodes them by (``StreamMessage/Own`` and every page action's),
/// so that the page writes no message type or field of its own: `send(requests.capture({ slot: 1 }))`.
/// A builder refuses a field the server does not declare, naming it, and a Swift test reads every call
/// of the page's modules against the declarations: a field renamed on one side breaks a test, not a user.
struct ProtocolController {
    /// The module's text, the same for the server's life.
    let module: String

    init(actions: PageActionRegistry) {
        module = Self.module(declaring: Self.requests(of: actions))
    }

    /// Every message type a page may send, with its fields, in the hello's order: the session's own,
    /// then each action's.
    static func requests(of actions: PageActionRegistry) -> [(type: String, fields: [String])] {
        StreamMessage.Own.declarations.map { ($0.type, $0.fields.map(\.name)) }
            + actions.actions.flatMap { $0.requestFields }
    }

    static func module(declaring requests: [(type: String, fields: [String])]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let declared = Dictionary(requests.map { ($0.type, $0.fields) }, uniquingKeysWith: { first, _ in first })
        // A dictionary of strings to lists of strings always encodes; an empty one declares nothing.
        let json = (try? encoder.encode(declared)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return """
            // The messages a page may send on /api/stream, from the server's declarations (ProtocolController.swift).
            const DECLARED = \(json);

            /// A message of `type` with `fields`, each one the server declares for it.
            export function request(type, fields = {}) {
              const declared = DECLARED[type];
              if (!declared) throw new Error(`the studio takes no '${type}' message`);
              for (const name of Object.keys(fields)) {
                if (!declared.includes(name)) {
                  throw new Error(`a ${type} message has no '${name}'; it has ${declared.length ? declared.join(", ") : "only its type"}`);
                }
              }
              return { type, ...fields };
            }

            /// One builder per message type: requests.settings({ recipe }), requests.merge().
            export const requests = Object.freeze(Object.fromEntries(
              Object.keys(DECLARED).map((type) => [type, (fields) => request(type, fields)])));

            """
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        let module = module
        router.get("/api/protocol.js") { _, _ in
            Response(status: .ok,
                     headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: module)))
        }
    }
}

extension PageAction {
    /// The message types it takes, each with its fields.
    static var requestFields: [(type: String, fields: [String])] {
        Message.declarations.map { ($0.type, $0.fields.map(\.name)) }
    }
}

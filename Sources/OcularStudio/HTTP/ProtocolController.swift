import Foundation
import Hummingbird

/// `GET /api/protocol.js`: the messages of `/api/stream` both ways, as a JavaScript module built from
/// the declarations the session decodes and encodes them by (``StreamMessage/Own``,
/// ``StreamMessage/Outbound/declarations`` and every page action's), so that the page writes no message
/// type or field of its own: `send(requests.capture({ slot: 1 }))`, `case answers.captured:`.
/// A builder refuses a field the server does not declare, `answers` a type it does not send, each
/// naming it, and a Swift test reads every use in the page's modules against the declarations: a type
/// or field renamed on one side breaks a test, not a user.
struct ProtocolController {
    /// The module's text, the same for the server's life.
    let module: String

    init(actions: PageActionRegistry) {
        module = Self.module(declaring: Self.requests(of: actions), answers: Self.answers(of: actions))
    }

    /// Every message type a page may send, with its fields, in the hello's order: the session's own,
    /// then each action's.
    static func requests(of actions: PageActionRegistry) -> [(type: String, fields: [String])] {
        StreamMessage.Own.declarations.map { ($0.type, $0.fields.map(\.name)) }
            + actions.actions.flatMap { $0.requestFields }
    }

    /// Every message the server sends: the session's own, then each action's answers.
    static func answerDeclarations(of actions: PageActionRegistry) -> [AnswerDeclaration] {
        StreamMessage.Outbound.declarations + actions.actions.flatMap { $0.answers }
    }

    /// Every message type the server sends, in the same order.
    static func answers(of actions: PageActionRegistry) -> [String] {
        answerDeclarations(of: actions).map(\.type)
    }

    static func module(declaring requests: [(type: String, fields: [String])], answers: [String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let declared = Dictionary(requests.map { ($0.type, $0.fields) }, uniquingKeysWith: { first, _ in first })
        // A dictionary of strings to lists of strings always encodes; an empty one declares nothing.
        let json = (try? encoder.encode(declared)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let answerTypes = (try? encoder.encode(answers)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return """
            // The messages of /api/stream, from the server's declarations (ProtocolController.swift): those a
            // page may send, with their fields, and the types of those the server sends.
            const DECLARED = \(json);
            const ANSWERS = \(answerTypes);

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

            /// The types of the messages the server sends, each its own name: `case answers.captured:`.
            /// A type it does not send throws, naming it, rather than matching nothing.
            export const answers = new Proxy(Object.freeze(Object.fromEntries(ANSWERS.map((type) => [type, type]))), {
              get(types, name) {
                if (typeof name === "string" && !Object.hasOwn(types, name)) throw new Error(`the studio sends no '${name}' message`);
                return types[name];
              },
            });

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

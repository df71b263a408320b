import Hummingbird
internal import HummingbirdWebSocket
import Logging
internal import NIOCore
internal import NIOPosix
import Ocular
import Synchronization

/// `/api/stream`: the WebSocket over which a page sends camera frames and settings and gets processed
/// frames back (see ``StreamMessage``).
struct StreamController {
    let configuration: StudioConfiguration
    let registry: StageRegistry
    /// The page actions streams may use.
    let actions: PageActionRegistry
    /// Where recipes' image ids are looked up.
    let images: any ImageCatalog
    /// Where `save` messages put frames.
    let gallery: StudioGallery
    /// The Bean Counter's classifier, shared by every stream.
    var beanCounter: BeanCounter? = nil
    /// How many clients stream now (reported by the health answer).
    var activity = StreamActivity()

    static let path = "/api/stream"

    /// The threads stream frames are processed on, one per core: apart from NIOThreadPool.singleton,
    /// where gallery reads, clip writes and uploads' checks run, so those never wait behind frames.
    static let framePool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
        pool.start()
        return pool
    }()

    /// Only an upgrade request reaches the WebSocket router; a plain GET is told what to do.
    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: Self.path)) { _, _ in
            Response(status: .upgradeRequired, headers: [.upgrade: "websocket", .connection: "Upgrade"],
                     body: .init(byteBuffer: ByteBuffer(string: "\(Self.path) is a WebSocket: connect with a WebSocket client\n")))
        }
    }

    func addRoutes(to router: Router<StreamRequestContext>) {
        router.ws(RouterPath(stringLiteral: Self.path)) { inbound, outbound, context in
            // A page names itself (`?page=manyMasks`) so that its actions see the frames; a client
            // that does not gets every action.
            let page = context.request.uri.queryParameters.get("page").map { String($0.prefix(64)) }
            // A page on this machine has no network to adapt to (LinkMeter): its answers stay at their best.
            try await stream(inbound: inbound, outbound: outbound, page: page, adaptsToLink: !context.requestContext.isLoopback, logger: context.logger)
        }
    }

    /// Runs one client's stream. Frames are processed one at a time by a second task; a frame that
    /// arrives while another waits replaces it (the waiting one is answered `dropped`), so a client
    /// that floods the server gets the newest frames processed and never builds a queue.
    func stream(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, page: String? = nil, adaptsToLink: Bool = true,
                logger: Logger) async throws {
        let session = try StreamSession(configuration: configuration, registry: registry, actions: actions, page: page, images: images,
                                        gallery: gallery, beanCounter: beanCounter, adaptsToLink: adaptsToLink)
        activity.streams.add(1, ordering: .relaxed)
        var counted = true
        defer { if counted { activity.streams.subtract(1, ordering: .relaxed) } }
        try await outbound.write(.text(session.hello.json))

        // Frames are numbered as they arrive, from 1, as the client numbers them when it sends them;
        // every answer names its frame's number.
        let (frames, pending) = AsyncStream.makeStream(of: (number: Int, bytes: ByteBuffer).self, bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in frames {
                    // The client has gone: its waiting frame is not worth a thread.
                    if session.closed.load(ordering: .acquiring) { continue }
                    // Off the cooperative pool: a frame takes milliseconds of CPU, which would keep
                    // this and other clients' readers from taking frames (and dropping late ones).
                    // On threads of their own, not the pool of gallery reads and clip writes: those
                    // answer at once however heavy the frames in flight.
                    let reply = try await Self.framePool.runIfActive { session.process(frame.bytes) }
                    switch reply {
                    case .frame(let jpeg, let annotations, let answers):
                        let answer = StreamMessage.FrameAnswer(header: .init(frame: frame.number, messages: (annotations.map { [$0] } ?? []) + answers), jpeg: jpeg)
                        let bytes = answer.bytes
                        let count = bytes.readableBytes
                        try await outbound.write(.binary(bytes))
                        session.answerWritten(bytes: count)
                    case .refused(let reason):
                        try await outbound.write(.text(StreamMessage.Outbound.frameRefused(frame: frame.number, message: reason).json))
                    }
                }
            }
            var received = 0
            for try await message in inbound.messages(maxSize: configuration.maxMessageBytes) {
                switch message {
                case .text(let text):
                    // Read off the cooperative pool, whose threads (one a core) serve every client: a
                    // message's parsing and its action's work (a merge of two faces) keep none waiting.
                    // Its size is bounded before it is parsed (StreamSession.receive). This client's next
                    // message waits for the reply, so messages still apply in the order they came.
                    let reply = try await NIOThreadPool.singleton.runIfActive { session.receive(text) }
                    if let reply { try await outbound.write(.text(reply.json)) }
                case .binary(let frame) where frame.readableBytes > configuration.maxFrameBytes:
                    received += 1
                    let reason = "frame of \(frame.readableBytes) bytes refused: the limit is \(configuration.maxFrameBytes) bytes"
                    logger.info("\(reason)")
                    try await outbound.write(.text(StreamMessage.Outbound.frameRefused(frame: received, message: reason).json))
                case .binary(let frame):
                    received += 1
                    session.frameArrived(bytes: frame.readableBytes)
                    if case .dropped(let superseded) = pending.yield((received, frame)) {
                        try await outbound.write(.text(StreamMessage.Outbound.dropped(frame: superseded.number).json))
                    }
                }
            }
            // The client closed: the processor finishes the frame under way, drops the waiting one, and stops.
            session.closed.store(true, ordering: .releasing)
            activity.streams.subtract(1, ordering: .relaxed)
            counted = false
            pending.finish()
            try await group.waitForAll()
        }
    }
}

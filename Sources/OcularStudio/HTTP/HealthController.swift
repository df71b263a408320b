import Hummingbird
import Ocular
import Synchronization

/// `GET /api/health`: alive, which Ocular and OpenCV, and how many clients stream frames.
struct HealthController {
    struct Health: ResponseEncodable {
        var status = "ok"
        var ocular = OcularVersion.current
        var opencv = OcularVersion.openCV
        /// Clients connected to the stream now.
        var streams: Int
    }

    var activity = StreamActivity()

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/api/health") { [activity] _, _ in Health(streams: activity.streams.load(ordering: .relaxed)) }
    }
}

/// What the stream is doing now, for the health answer.
final class StreamActivity: Sendable {
    /// Clients whose WebSocket is open (counted until their last message has been read).
    let streams = Atomic<Int>(0)
}

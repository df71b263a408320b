import Hummingbird
import Ocular

/// `GET /api/health`: alive, and which Ocular and OpenCV.
struct HealthController {
    struct Health: ResponseEncodable {
        var status = "ok"
        var ocular = OcularVersion.current
        var opencv = OcularVersion.openCV
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/api/health") { _, _ in Health() }
    }
}

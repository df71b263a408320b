import Ocular
import Synchronization

/// Pictures uploaded to blend into frames, kept in memory for the server's life and referenced by
/// id in recipes. Bounded: beyond `capacity` pictures or `byteLimit` bytes of pixels the oldest go.
/// A stage holds on to the picture it was built with, so an eviction never breaks a running stream.
final class UploadedSources: ImageCatalog {
    let capacity: Int
    let byteLimit: Int
    private let state = Mutex(State())

    private struct State {
        var pictures: [String: Image] = [:]
        /// Ids, oldest first.
        var order: [String] = []
        var bytes = 0
    }

    init(capacity: Int, byteLimit: Int) {
        self.capacity = max(1, capacity)
        self.byteLimit = byteLimit
    }

    /// Keeps a decoded picture and returns its id: 128 random bits, so that one client cannot guess
    /// another's pictures.
    func add(_ picture: Image) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in
            let half = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - half.count) + half
        }.joined()
        state.withLock { state in
            state.pictures[id] = picture
            state.order.append(id)
            state.bytes += picture.bytes.count
            while state.order.count > capacity || (state.bytes > byteLimit && state.order.count > 1) {
                let oldest = state.order.removeFirst()
                state.bytes -= state.pictures.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
        return id
    }

    /// How many pictures are kept.
    var count: Int { state.withLock { $0.order.count } }

    func image(id: String) throws(OcularError) -> Image {
        guard let picture = state.withLock({ $0.pictures[id] }) else {
            throw .invalidArgument("no uploaded picture has the id '\(id.prefix(60))': upload it to /api/sources first "
                                   + "(the server keeps the latest \(capacity))")
        }
        return picture
    }
}

import Foundation
import Hummingbird
import Ocular
import Synchronization

/// The Bean Counter page's classifier, one for the whole studio: loaded from its stored model, or
/// trained, on a thread of its own, so that the page can say "Training classifier…" until it is
/// ready instead of stalling the first Classify. It starts when first asked for (the Bean Counter
/// page asks as it opens): a studio whose pages never count beans never trains.
final class BeanCounter: Sendable {
    /// How far the classifier is: what `GET /api/bean-counter` answers.
    enum State: Sendable {
        case training(done: Int, total: Int)
        case ready(BlobClassifier, BlobModel.Report)
        case failed(String)
    }

    let trainingList: String
    let profile: BlobProfile
    private let state = Mutex<State?>(nil)

    /// The model goes to the user's cache folder (``BlobModel``), never beside the list, which may lie
    /// in the folder the studio serves.
    init(trainingList: String, profile: BlobProfile = .standard) {
        self.trainingList = trainingList
        self.profile = profile
    }

    private func prepare() {
        do {
            let (classifier, report) = try BlobModel.classifier(forList: trainingList, profile: profile) { done, total, _ in
                self.state.withLock { $0 = .training(done: done, total: total) }
            }
            state.withLock { $0 = .ready(classifier, report) }
        } catch {
            state.withLock { $0 = .failed("\(error)") }
        }
    }

    /// Where the classifier is; the first call starts preparing it.
    var current: State {
        let (state, starts) = self.state.withLock { (state) -> (State, Bool) in
            if let state { return (state, false) }
            state = .training(done: 0, total: 0)
            return (.training(done: 0, total: 0), true)
        }
        if starts {
            let thread = Thread { [self] in self.prepare() }
            thread.name = "ocular.beanCounter.training"
            thread.start()
        }
        return state
    }

    /// The classifier once ready.
    /// - Throws: Saying why not yet, or why never.
    func classifier() throws(StreamMessageError) -> BlobClassifier {
        switch current {
        case .ready(let classifier, _): return classifier
        case .training: throw StreamMessageError("the classifier is still training: classify when it is ready")
        case .failed(let reason): throw StreamMessageError("there is no classifier: \(reason)")
        }
    }

    /// Waits (polling) until the classifier is ready or has failed; for tests and benchmarks.
    func waitUntilPrepared(timeout: Duration = .seconds(60)) async {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if case .training = current { try? await Task.sleep(for: .milliseconds(20)) } else { return }
        }
    }

    /// The JSON of `GET /api/bean-counter`.
    struct Status: ResponseEncodable {
        var state: String
        var done: Int?
        var total: Int?
        var profile: String
        var labels: [String]?
        var references: Int?
        var problems: [String]?
        var message: String?
    }

    var status: Status {
        switch current {
        case .training(let done, let total):
            Status(state: "training", done: done, total: total, profile: profile.name)
        case .ready(let classifier, let report):
            Status(state: "ready", profile: profile.name, labels: classifier.labelDescriptions, references: classifier.references.count,
                   problems: report.problems.map(\.description))
        case .failed(let reason):
            Status(state: "failed", profile: profile.name, message: reason)
        }
    }
}

/// `GET /api/bean-counter`: the Bean Counter's classifier, training or ready.
struct BeanCounterController: Sendable {
    let beanCounter: BeanCounter

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/api/bean-counter") { _, _ in beanCounter.status }
    }
}

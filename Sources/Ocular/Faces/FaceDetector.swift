import Foundation
import Synchronization

/// Finds human and cat faces in a picture with OpenCV's cascades, each frame on its own.
/// For streams, ``FaceTracker`` follows faces between frames instead.
///
/// Loading is done once per cascade file and process; a detector is cheap to make after that and
/// may be shared between threads (searches of one cascade take turns).
public struct FaceDetector: Sendable {
    /// The search's constants.
    public let profile: FaceDetectionProfile
    let humanFace: Cascade
    let catFace: Cascade?
    /// For the eye on the viewer's left and the one on the viewer's right.
    let leftEye: Cascade
    let rightEye: Cascade
    let smile: Cascade?
    /// The profile's face network, nil when it has none or its file could not be read.
    let network: FaceNetwork?
    /// The network that checks its unsure faces (``FaceDetectionProfile/networkCheck``), nil when none.
    let checkNetwork: FaceNetwork?

    /// - Parameters:
    ///   - profile: The numbers to search with.
    ///   - cascades: The files; by default OpenCV's shipped ones of the profile's kind.
    /// - Throws: ``FaceError/unusableCascade(role:path:reason:)`` naming a missing or unreadable file.
    public init(profile: FaceDetectionProfile = .standard, cascades: FaceCascades? = nil) throws(FaceError) {
        let files = cascades ?? .shipped(profile.cascadeKind)
        humanFace = try Cascade.load(files.humanFace, role: "human face")
        catFace = profile.catFaces == nil ? nil : try Cascade.load(files.catFace, role: "cat face")
        // The eye on the viewer's left is the subject's right eye.
        leftEye = try Cascade.load(files.subjectsRightEye, role: "right eye")
        rightEye = try Cascade.load(files.subjectsLeftEye, role: "left eye")
        smile = profile.findsMouth ? try Cascade.load(files.smile, role: "smile") : nil
        let loaded = Self.loadNetworks(of: profile)
        self.profile = loaded.profile
        network = loaded.network
        checkNetwork = loaded.check
    }

    /// The profile's networks, and the profile as it runs with the files there are: a network whose
    /// file is missing or unreadable is left out, and said once (a check without the network it checks
    /// becomes the network; without either, the cascades find people).
    private static func loadNetworks(of wanted: FaceDetectionProfile) -> (profile: FaceDetectionProfile, network: FaceNetwork?, check: FaceNetwork?) {
        var profile = wanted
        var problems: [String] = []
        func load(_ settings: FaceDetectionProfile.NetworkSearch?) -> FaceNetwork? {
            guard let settings else { return nil }
            do {
                return try FaceNetwork.load(settings.model)
            } catch {
                problems.append(error.description)
                return nil
            }
        }
        var network = load(profile.network)
        var checkNetwork = load(profile.networkCheck?.network)
        if network == nil, let check = profile.networkCheck, checkNetwork != nil {
            profile.network = check.network
            (network, checkNetwork) = (checkNetwork, nil)
        }
        if checkNetwork == nil { profile.networkCheck = nil }
        if !problems.isEmpty {
            let instead = network.map { "with \($0.model.name) alone" } ?? "with the cascades instead"
            noticeOnce("ocular: \(problems.joined(separator: "; ")); finding people's faces \(instead) (scripts/fetch-face-model.sh fetches it)")
        }
        return (profile, network, checkNetwork)
    }

    /// Whether people's faces are found by the profile's network (false: by the human cascade).
    public var usesNetwork: Bool { network != nil }

    private static let noticed = Mutex<Set<String>>([])

    /// Writes `notice` to standard error, the first time only: a missing model is said once per process.
    static func noticeOnce(_ notice: String) {
        guard noticed.withLock({ $0.insert(notice).inserted }) else { return }
        FileHandle.standardError.write(Data((notice + "\n").utf8))
    }

    /// Every face in `image`, humans first, each kind in the cascade's order.
    /// - Parameter image: The picture, in any format.
    /// - Returns: The faces.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func faces(in image: Image) throws(OcularError) -> [Face] {
        try faces(in: image, plan: SearchPlan(tilts: profile.turns, catVotes: profile.findsCatsByVote ? [profile.catVoteFillingTheFrame, profile.catVoteAnywhere] : []))
    }

    /// The biggest face by area: "the" face of a picture, or nil when there is none.
    /// - Parameter image: The picture, in any format.
    /// - Returns: The biggest face, or nil.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func biggestFace(in image: Image) throws(OcularError) -> Face? {
        Face.biggest(of: try faces(in: image))
    }

    /// The biggest face of a picture that must have one.
    /// - Parameters:
    ///   - image: The picture.
    ///   - name: How messages name it.
    /// - Returns: Its biggest face.
    /// - Throws: ``FaceError/noFace(in:)`` with `name` (e.g. "'me.png'") when it has none, or the
    ///   ``OcularError`` of a search that failed.
    public func biggestFace(in image: Image, named name: String) throws -> Face {
        guard let face = try biggestFace(in: image) else { throw FaceError.noFace(in: name) }
        return face
    }
}

/// Finds faces, attaches them to the frame as annotations, and draws the textbook's overlay.
///
/// The stage follows faces from frame to frame (the default profile's tracking), so one stage
/// instance belongs to one stream: a recipe builds a fresh one for each.
public struct FacesStage: Stage {
    public static let name = "faces"
    public static let title = "Faces"
    public static let category = StageCategory.detection
    public static let annotationKinds: [any FrameAnnotation.Type] = [Face.self]
    public static let summary = "Finds human and cat faces with their eyes, nose and mouth, and draws them."

    /// The “Profile” parameter: Ocular's default finds smaller faces and follows them between frames; the textbook's is the book's pipeline exactly.
    public static let profile = Key<FaceDetectionProfile.Name>.choice(
        "profile", title: "Profile", default: .standard,
        help: "Ocular's default finds smaller faces and follows them between frames; the textbook's is the book's pipeline exactly.")
    /// The “Cats” parameter: Also look for cat faces.
    public static let cats = Key<Bool>.flag("cats", title: "Cats", default: true, help: "Also look for cat faces.")
    /// The “CLAHE” parameter: Equalise by tiles with a contrast limit instead of over the whole frame: keeps a backlit face's detail.
    public static let clahe = Key<Bool>.flag(
        "clahe", title: "CLAHE", default: false,
        help: "Equalise by tiles with a contrast limit instead of over the whole frame: keeps a backlit face's detail.")
    /// The “Face boxes” parameter: Yellow boxes round people, white round cats.
    public static let drawFaces = Key<Bool>.flag("drawFaces", title: "Face boxes", default: true, help: "Yellow boxes round people, white round cats.")
    /// The “Eyes” parameter: The left eye red, the right green: boxes where found, dots at the centres.
    public static let drawEyes = Key<Bool>.flag(
        "drawEyes", title: "Eyes", default: true, help: "The left eye red, the right green: boxes where found, dots at the centres.")
    /// The “Nose” parameter: A blue dot on the nose tip.
    public static let drawNose = Key<Bool>.flag("drawNose", title: "Nose", default: true, help: "A blue dot on the nose tip.")
    /// The “Mouth” parameter: A cyan dot on the mouth, when one is found.
    public static let drawMouth = Key<Bool>.flag("drawMouth", title: "Mouth", default: true, help: "A cyan dot on the mouth, when one is found.")
    public static let parameters = declared(profile, cats, clahe, drawFaces, drawEyes, drawNose, drawMouth)

    /// Finds and follows the faces.
    public let tracker: FaceTracker
    /// What is drawn over them.
    public let overlay: FaceOverlay

    public init(_ values: StageValues) throws(StageError) {
        var profile = values[Self.profile].profile
        if !values[Self.cats] { profile.catFaces = nil }
        if values[Self.clahe] { profile.equalization = .clahe }
        do {
            tracker = FaceTracker(detector: try FaceDetector(profile: profile))
        } catch {
            throw StageError(stage: Self.name, parameter: Self.profile.name, reason: error.description)
        }
        overlay = FaceOverlay(faces: values[Self.drawFaces], eyes: values[Self.drawEyes], nose: values[Self.drawNose], mouth: values[Self.drawMouth])
    }

    /// The stage around a tracker built in code (a detector with its own cascades, say).
    /// - Parameters:
    ///   - tracker: Finds and follows the faces; it belongs to this stage's stream alone.
    ///   - overlay: What is drawn over them.
    public init(tracker: FaceTracker, overlay: FaceOverlay = FaceOverlay()) {
        self.tracker = tracker
        self.overlay = overlay
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let faces = try tracker.faces(in: frame.image)
        frame.annotations += faces as [any FrameAnnotation]
        frame.image = try overlay.drawn(faces, on: frame.image)
        return frame
    }
}

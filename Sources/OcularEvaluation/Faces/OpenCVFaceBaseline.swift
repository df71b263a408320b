import Ocular

/// What a user who reaches for plain OpenCV does instead of Ocular, in four lines of Python:
/// `haarcascade_frontalface_alt` on the whole frame's equalised gray, `detectMultiScale(gray, 1.1, 4,
/// minSize=(24, 24))`. `ocular faces evaluate --baseline opencv` and the sweep's tables print it beside
/// each profile, on the same pictures in the same run.
package struct OpenCVFaceBaseline: Sendable {
    /// How it is named in tables.
    package static let name = "plain OpenCV"
    package static let scaleStep = 1.1
    package static let minimumNeighbours = 4
    package static let smallestFace = 24

    let cascade: Cascade

    /// - Parameter cascades: The cascade files; by default OpenCV's shipped ones.
    /// - Throws: ``FaceError/unusableCascade(role:path:reason:)`` when the frontal face cascade cannot be read.
    package init(cascades: FaceCascades = .shipped(.haar)) throws(FaceError) {
        cascade = try Cascade.load(cascades.humanFace, role: "human face")
    }

    /// The human faces plain OpenCV finds in `image`.
    package func faces(in image: Image) throws(OcularError) -> [LabelledFace] {
        let gray = try image.converted(to: .gray8).equalized(.histogram)
        return try cascade.detect(in: gray, scaleStep: Self.scaleStep, minimumNeighbours: Self.minimumNeighbours, sizes: Self.smallestFace...Int.max)
            .map { LabelledFace(species: .human, bounds: $0.bounds) }
    }
}

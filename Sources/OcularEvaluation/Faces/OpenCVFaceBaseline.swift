import Ocular

/// What a user who reaches for plain OpenCV does instead of Ocular, in four lines of Python:
/// `haarcascade_frontalface_alt` (for cats `haarcascade_frontalcatface_extended`) on the whole frame's
/// equalised gray, `detectMultiScale(gray, 1.1, 4, minSize=(24, 24))`. `ocular faces evaluate --baseline
/// opencv` and the sweep's tables print it beside each profile, on the same pictures in the same run.
package struct OpenCVFaceBaseline: Sendable {
    /// How it is named in tables.
    package static let name = "plain OpenCV"
    package static let scaleStep = 1.1
    package static let minimumNeighbours = 4
    package static let smallestFace = 24

    let cascade: Cascade
    /// What its cascade finds.
    let species: Species

    /// - Parameters:
    ///   - cascades: The cascade files; by default OpenCV's shipped ones.
    ///   - species: People's faces (the frontal face cascade) or cats' (the frontal cat face cascade).
    /// - Throws: ``FaceError/unusableCascade(role:path:reason:)`` when the cascade cannot be read.
    package init(cascades: FaceCascades = .shipped(.haar), species: Species = .human) throws(FaceError) {
        cascade = species == .cat ? try Cascade.load(cascades.catFace, role: "cat face") : try Cascade.load(cascades.humanFace, role: "human face")
        self.species = species
    }

    /// The faces of its species plain OpenCV finds in `image`.
    package func faces(in image: Image) throws(OcularError) -> [LabelledFace] {
        let gray = try image.converted(to: .gray8).equalized(.histogram)
        return try cascade.detect(in: gray, scaleStep: Self.scaleStep, minimumNeighbours: Self.minimumNeighbours, sizes: Self.smallestFace...Int.max)
            .map { LabelledFace(species: species, bounds: $0.bounds) }
    }
}

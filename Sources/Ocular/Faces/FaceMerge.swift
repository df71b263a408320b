/// Merging two faces into one (the textbook's "many masks" hybrid).
extension Face {
    /// The biggest face by area, the first of equals: "the" face of a frame. Nil for none.
    /// - Parameter faces: The faces.
    /// - Returns: The biggest, or nil.
    public static func biggest(of faces: [Face]) -> Face? {
        faces.max { $0.bounds.area < $1.bounds.area }
    }

    /// This face and `other` merged: the smaller of the two (by area; `other` when they are equal)
    /// is warped by the affine map that takes its left eye, right eye and nose onto the bigger one's,
    /// onto a canvas of the bigger one's size; both are put in one format, and multiplied pixel by
    /// pixel, a·b/255 rounded. The result is the bigger face's size, place and landmarks, with the
    /// species of ``Species/merging(_:_:)``.
    ///
    /// Where the warped face does not reach, its edge pixels are repeated rather than left black:
    /// black would multiply a hard black wedge into the merge wherever the two faces' shapes differ.
    /// - Parameter other: The other face.
    /// - Returns: The merged face.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when the smaller face's landmarks lie on one line.
    public func merged(with other: Face) throws(OcularError) -> Face {
        let (bigger, smaller) = other.bounds.area > bounds.area ? (other, self) : (self, other)
        let format = Self.commonFormat(bigger.image.format, smaller.image.format)
        let map = try Face.alignment(of: smaller, onto: bigger)
        let warped = try smaller.image.warped(by: map, width: bigger.image.width, height: bigger.image.height,
                                              replicatingEdges: true).converted(to: format)
        let backdrop = try bigger.image.converted(to: format)
        let product = try backdrop.blended(with: warped, mode: .multiply)
        return Face(species: .merging(bigger.species, smaller.species), image: product, bounds: bigger.bounds,
                    leftEye: bigger.leftEye, rightEye: bigger.rightEye, nose: bigger.nose,
                    leftEyeBounds: bigger.leftEyeBounds, rightEyeBounds: bigger.rightEyeBounds,
                    mouth: bigger.mouth, smile: bigger.smile)
    }

    /// The affine map that takes `face`'s left eye, right eye and nose onto `target`'s (face
    /// coordinates of each).
    /// - Parameters:
    ///   - face: The face to move.
    ///   - target: The face it goes onto.
    /// - Returns: The map.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when `face`'s three landmarks lie on one line.
    public static func alignment(of face: Face, onto target: Face) throws(OcularError) -> AffineMatrix {
        try AffineMatrix(mapping: [face.leftEye, face.rightEye, face.nose],
                         onto: [target.leftEye, target.rightEye, target.nose])
    }

    /// The format both faces are multiplied in: colour wins over gray (no colour is invented or
    /// thrown away), and between two colour formats the bigger face's. YUV faces are BGR.
    static func commonFormat(_ bigger: PixelFormat, _ smaller: PixelFormat) -> PixelFormat {
        let packed = { (format: PixelFormat) in format.isYUV ? PixelFormat.bgr8 : format }
        return packed(bigger) == .gray8 ? packed(smaller) : packed(bigger)
    }
}

extension Species {
    /// The species of two faces merged: human+human = human, cat+cat = cat, otherwise hybrid.
    /// - Parameters:
    ///   - first: One face's species.
    ///   - second: The other's.
    /// - Returns: The merged face's species.
    public static func merging(_ first: Species, _ second: Species) -> Species {
        first == second ? first : .hybrid
    }
}

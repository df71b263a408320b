internal import OpenCVBridge

extension Image {
    /// The image turned clockwise by `quarterTurns` × 90° (any integer; negative turns go
    /// counter-clockwise). YUV images come back as BGR.
    /// - Parameter quarterTurns: Clockwise quarter turns.
    /// - Returns: The turned image.
    /// - Throws: ``OcularError/openCV(operation:message:)`` when OpenCV fails.
    public func rotated(quarterTurns: Int) throws(OcularError) -> Image {
        let turns = ((quarterTurns % 4) + 4) % 4
        let image = try packed
        guard turns != 0 else { return image }
        let (width, height) = turns == 2 ? (image.width, image.height) : (image.height, image.width)
        return try Image.filledByOpenCV(width: width, height: height, format: image.format) { (output) throws(OcularError) in
            try image.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("rotate \(turns) quarter turns") { ocv_rotate_quarter_turns(input, output, Int32(turns), $0) }
            }
        }
    }

    /// The image mirrored left to right, as a front camera's preview shows it. YUV images come back as BGR.
    /// - Returns: The mirrored image.
    /// - Throws: ``OcularError/openCV(operation:message:)`` when OpenCV fails.
    public func mirrored() throws(OcularError) -> Image {
        let image = try packed
        return try Image.filledByOpenCV(width: image.width, height: image.height, format: image.format) { (output) throws(OcularError) in
            try image.withMatrix { (input) throws(OcularError) in
                try OpenCV.call("mirror") { ocv_mirror(input, output, $0) }
            }
        }
    }

    /// A landscape-right sensor frame as the person holding the camera expects to see it (see
    /// ``CameraGeometry/displayTransform(orientation:position:)``). A tap on the result maps back to
    /// the same sensor pixel through ``CameraGeometry/pointOfInterest(tap:preview:orientation:position:)``.
    /// - Parameters:
    ///   - orientation: How the device is held.
    ///   - position: Which camera took the frame (the front one is mirrored).
    /// - Returns: The frame as the preview shows it.
    /// - Throws: ``OcularError/openCV(operation:message:)`` when OpenCV fails.
    public func forDisplay(orientation: VideoOrientation, position: CameraPosition) throws(OcularError) -> Image {
        let transform = CameraGeometry.displayTransform(orientation: orientation, position: position)
        let upright = transform.mirrored ? try mirrored() : self
        return try upright.rotated(quarterTurns: transform.quarterTurns)
    }
}

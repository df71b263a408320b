import ArgumentParser
import Foundation
import Ocular

struct FacesDetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "List the faces in a picture, and draw them.",
        discussion: """
            Prints one line per face, or with --json: {"faces":[{"species":"human"|"cat","bounds":[x,y,w,h], \
            "leftEye":[x,y],"rightEye":[x,y],"nose":[x,y],"mouth":[x,y]|null,"smile":bool,"angle":degrees}]} \
            in the picture's pixels. "left" is the viewer's left.
            """)

    @Argument(help: "The picture.")
    var input: String

    @Option(help: ArgumentHelp("Write the picture with the faces drawn on it.", valueName: "out.png"))
    var draw: String?

    @Flag(help: "Print the faces as JSON.")
    var json = false

    @OptionGroup var detection: FaceDetectionOptions

    @OptionGroup var read: ReadOptions

    func run() throws {
        let image = try Image(contentsOfFile: input, options: read.imageReadOptions)
        let faces = try detection.detector().faces(in: image)
        if let draw {
            try FaceOverlay().drawn(faces, on: image).write(toFile: draw)
        }
        if json {
            try JSONOutput.print(["faces": faces])
            return
        }
        if faces.isEmpty { print("\(input): no face") }
        for face in faces {
            let mouth = face.mouth.map { "mouth \(face.inFrame($0))" + (face.smile ? ", smiling" : "") } ?? "no mouth found"
            print("\(face.species) \(face.bounds): left eye \(face.inFrame(face.leftEye)), right eye \(face.inFrame(face.rightEye)), "
                  + "nose \(face.inFrame(face.nose)), \(mouth), angle \(ParameterValue.number((face.angle * 10).rounded() / 10))°")
        }
        if let draw { print("\(draw): \(faces.count) face\(faces.count == 1 ? "" : "s") drawn") }
    }
}

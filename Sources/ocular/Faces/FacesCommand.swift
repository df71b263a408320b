import ArgumentParser
import Foundation
import Ocular

struct FacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces",
        abstract: "Find human and cat faces, with their eyes, nose and mouth.",
        discussion: """
            The default profile finds people with the CenterFace network (from 24 px, turned heads too), which \
            scripts/setup.sh puts in ~/.cache/ocular/models (without it, the cascades; Ocular says so once), and \
            cats with OpenCV's cascades (opencv-data: /usr/share/opencv4); --cascades FOLDER names another data \
            folder holding haarcascades/ and lbpcascades/. --profile cascades finds people with the cascades too; \
            --profile textbook is the textbook's pipeline exactly. In videos faces are followed from frame to frame.
            """,
        subcommands: [FacesDetectCommand.self, FacesVideoCommand.self, FacesMergeCommand.self, FacesEvaluateCommand.self, FacesSweepCommand.self])
}

/// The options every faces command shares.
struct FaceDetectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("default: people by the face network (from 24 px), cats by the cascades, tracking in videos; cascades: as before the network; textbook: the book's pipeline exactly.",
                               valueName: FacesStage.profile.valueNames))
    var profile = FacesStage.profile.defaultValue.rawValue

    @Flag(help: "Use the LBP face cascades (faster, a little less reliable) instead of Haar.")
    var lbp = false

    @Flag(name: .customLong("cats"), inversion: .prefixedNo, help: FacesStage.cats.optionHelp)
    var cats = FacesStage.cats.defaultValue

    @Flag(inversion: .prefixedNo, help: FacesStage.clahe.optionHelp)
    var clahe = FacesStage.clahe.defaultValue

    @Option(help: ArgumentHelp("A data folder holding haarcascades/ and lbpcascades/ (default: OpenCV's data package).", valueName: "folder"))
    var cascades: String?

    func validate() throws {
        _ = try FacesStage.profile.choice(profile, option: "profile")
    }

    func detector() throws -> FaceDetector {
        var chosen = try FacesStage.profile.choice(profile, option: "profile").profile
        if lbp { chosen.cascadeKind = .lbp }
        if !cats { chosen.catFaces = nil }
        if clahe { chosen.equalization = .clahe }
        return try FaceDetector(profile: chosen, cascades: .shipped(chosen.cascadeKind, in: cascades))
    }
}

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
            // Sorted keys: the same faces always print the same text.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(["faces": faces]), as: UTF8.self))
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

struct FacesVideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Draw the faces on every frame of a video.",
        discussion: "The output's extension picks the container: .mp4 or .avi. A progress bar shows on a terminal.")

    @Argument(help: "The video.")
    var input: String

    @Option(name: .shortAndLong, help: "The video to write: .mp4 or .avi.")
    var output: String

    @OptionGroup var detection: FaceDetectionOptions

    func validate() throws {
        try VideoOutput.check(output)
    }

    func run() throws {
        PartialFiles.removeOnTermination()
        let tracker = FaceTracker(detector: try detection.detector())
        let source = try VideoFileSource(path: input)
        let sink = VideoFileSink(path: output, framesPerSecond: source.frameRate)
        let progress = ProgressDisplay(title: "faces", total: source.frameCount, unit: "frames")
        var frames = 0, framesWithFaces = 0
        do {
            while let frame = try source.nextFrame() {
                let faces = try tracker.faces(in: frame.image)
                try sink.write(Frame(image: try FaceOverlay().drawn(faces, on: frame.image), timestamp: frame.timestamp))
                frames += 1
                if !faces.isEmpty { framesWithFaces += 1 }
                progress.advance()
            }
            try sink.finish()
            progress.finish()
        } catch {
            progress.finish(succeeded: false)
            throw error
        }
        print("\(output): \(frames) frames, faces found in \(framesWithFaces)")
    }
}

struct FacesMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the biggest face of two pictures into one, a hybrid when they are of different species.",
        discussion: """
            The smaller face is warped so that its eyes and nose land on the bigger one's, then the two are             multiplied (a·b/255). The result has the bigger face's size. Human and human give a human, cat             and cat a cat, anything else a hybrid; --save puts it in the gallery with that as its caption.
            """)

    @Argument(help: "The picture of the first face.")
    var first: String

    @Argument(help: "The picture of the second face.")
    var second: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the merged face (PNG, JPEG, …).", valueName: "out.png"))
    var output: String?

    @OptionGroup var saving: SaveOptions

    @OptionGroup var detection: FaceDetectionOptions

    @OptionGroup var read: ReadOptions

    func validate() throws {
        try saving.requireDestination(output: output)
    }

    func run() throws {
        let detector = try detection.detector()
        let faces = try [first, second].map { path in
            try detector.biggestFace(in: try Image(contentsOfFile: path, options: read.imageReadOptions), named: "'\(path)'")
        }
        let merged = try faces[0].merged(with: faces[1])
        let size = "\(merged.image.width)×\(merged.image.height)"
        if let output {
            try merged.image.write(toFile: output)
            print("\(output): \(merged.species) face, \(size) (\(faces[0].species) of \(first) × \(faces[1].species) of \(second))")
        } else {
            print("\(merged.species) face, \(size)")
        }
        try saving.saveIfAsked(merged.image, recipe: Recipe(), source: "faces merge", defaultCaption: merged.species.rawValue)
    }
}

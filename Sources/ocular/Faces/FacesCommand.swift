import ArgumentParser
import Foundation
import Ocular

struct FacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces",
        abstract: "Find human and cat faces, with their eyes, nose and mouth.",
        discussion: """
            The default profile finds people with the YuNet network over the whole picture (from 24 px, turned \
            heads too), the CenterFace network ruling on the faces YuNet is unsure of; scripts/setup.sh puts both \
            in ~/.cache/ocular/models (without one, the other alone; without either, the cascades; Ocular says so \
            once). Cats are found with OpenCV's cascades (opencv-data: /usr/share/opencv4); --cascades FOLDER names \
            another data folder holding haarcascades/ and lbpcascades/. --profile yunet and --profile centerface \
            find people with one network alone; --profile cascades with the cascades too; --profile textbook is \
            the textbook's pipeline exactly. In videos faces are followed from frame to frame.
            """,
        subcommands: [FacesDetectCommand.self, FacesVideoCommand.self, FacesMergeCommand.self, FacesEvaluateCommand.self, FacesSweepCommand.self])
}

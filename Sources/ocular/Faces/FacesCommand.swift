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

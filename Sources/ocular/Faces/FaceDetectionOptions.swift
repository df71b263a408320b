import ArgumentParser
import Foundation
import Ocular

/// The options every faces command shares.
struct FaceDetectionOptions: ParsableArguments {
    @Option(help: "default: people by YuNet checked by CenterFace (from 24 px), cats by the cascades, tracking in videos; yunet, centerface: one network alone; cascades: as before the networks; textbook: the book's pipeline exactly.")
    var profile = FacesStage.profile.defaultValue

    @Flag(help: "Use the LBP face cascades (faster, a little less reliable) instead of Haar.")
    var lbp = false

    @Flag(name: .customLong("cats"), inversion: .prefixedNo, help: FacesStage.cats.optionHelp)
    var cats = FacesStage.cats.defaultValue

    @Flag(inversion: .prefixedNo, help: FacesStage.clahe.optionHelp)
    var clahe = FacesStage.clahe.defaultValue

    @Option(help: ArgumentHelp("A data folder holding haarcascades/ and lbpcascades/ (default: OpenCV's data package).", valueName: "folder"))
    var cascades: String?

    func detector() throws -> FaceDetector {
        var chosen = profile.profile
        if lbp { chosen.cascadeKind = .lbp }
        if !cats { chosen.catFaces = nil }
        if clahe { chosen.equalization = .clahe }
        return try FaceDetector(profile: chosen, cascades: .shipped(chosen.cascadeKind, in: cascades))
    }

    /// The faces stage as a one-stage pipeline, around this detector: the profile, cats and CLAHE are
    /// the stage's own parameters (what the pipeline's recipe says); the LBP cascades and another
    /// cascade folder are the command line's alone.
    func pipeline() throws -> Pipeline {
        let values = try StageValues(stage: FacesStage.name, declarations: FacesStage.parameters, given: [
            FacesStage.profile.name: profile.parameterValue, FacesStage.cats.name: .flag(cats), FacesStage.clahe.name: .flag(clahe),
        ], images: NoImages())
        return Pipeline(steps: [Pipeline.Step(FacesStage(tracker: FaceTracker(detector: try detector())), values: values)])
    }
}

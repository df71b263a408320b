import Foundation
import Ocular
import OcularGallery
import Testing

/// Ocular's errors exit with a status by the kind of their code, so a script can tell a damaged input
/// from a missing file without reading the message.
@Suite("ocular's exit statuses")
struct ExitStatusCLITests {
    @Test("each kind of failure has its sysexits status, and the message stays one line on standard error")
    func statusesByKind() throws {
        let folder = try Folder()
        let coffee = dataRoot + "/images/coffee.png"
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder.file("notes.png")))
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["info", folder.file("none.png")], 66, "no such file"),                                          // notFound
            (["convert", folder.file("notes.png"), folder.file("o.png")], 65, "not an image"),                // badInput
            (["apply", coffee, "-o", folder.file("o.png"), "--recipe", #"{"stages":[{"stage":"glitter"}]}"#], 65, "unknown stage 'glitter'"),
            (["info", coffee, "--max-megapixels", "0.01"], 65, "over the limit"),                              // tooLarge
            (["faces", "detect", coffee, "--cascades", folder.path], 69, "cannot load the human face cascade"),  // unavailable
            (["tint", coffee, "-o", folder.file("o.png"), "--frames", "0"], 64, "--frames must be from 1"),   // ArgumentParser's usage error
        ]
        for (arguments, status, message) in cases {
            let run = try ocular(arguments)
            #expect(run.status == status, "\(arguments): \(run.status) \(run.errors)")
            #expect(run.errors.contains(message) && run.errors.split(separator: "\n").count <= 3, "\(arguments): \(run.errors)")
        }
        #expect(folder.contents == ["notes.png"])
    }

    @Test("every code names its domain and case, and no two cases of one error share a name")
    func codes() {
        let ocular: [OcularError] = [.fileNotFound(path: ""), .unreadableFile(path: "", reason: ""), .emptyFile(path: ""), .notAnImage(path: ""),
                                     .corruptImage(path: "", format: "", reason: ""), .tooManyPixels(path: "", width: 1, height: 1, limit: 0),
                                     .unsupportedFileType(path: ""), .writeFailed(path: "", reason: ""), .unreadableMedia(path: "", reason: ""),
                                     .damagedVideo(path: "", frame: 0, frameCount: 1), .cameraUnavailable(index: 0, reason: ""),
                                     .invalidImage(reason: ""), .invalidArgument(""), .openCV(operation: "", message: "")]
        let names = ocular.map(\.code.name) + [FaceError.noFace(in: ""), .unusableCascade(role: "", path: "", reason: ""), .badLabels(path: "", reason: "")]
            .map(\.code.name) + [BlobError.noBlob(in: ""), .badTrainingList(path: "", reason: "")].map(\.code.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names.allSatisfy { $0.split(separator: ".").count == 2 })
        #expect(StageError(reason: "x").code == ErrorCode("stage.invalid", .badInput))
        #expect(GalleryError.file(.fileNotFound(path: "")).code.kind == .notFound)
        // Foundation's reporting shows the same message as the description.
        #expect(OcularError.fileNotFound(path: "x").localizedDescription == "cannot read 'x': no such file")
        #expect(FaceError.noFace(in: "'a.png'").localizedDescription == "no face found in 'a.png'")
        struct Foreign: Error {}
        #expect(ErrorCode.of(Foreign()).kind == .internalFailure)
    }
}

// Ocular Studio with a stage the studio has never heard of (BrightestQuadrantStage, of the tests):
// the browser tests start it in place of `ocular studio` to see that a registered stage reaches the
// page and its findings are listed, with no change to the session or the page.
//
//     ocular-studio-fixture [studio] --port 0 --gallery FOLDER
import Foundation
import Ocular
import OcularStudio
import StudioPlugins

var port = 0
var gallery: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = arguments.next().flatMap { Int($0) } ?? 0
    case "--gallery": gallery = arguments.next()
    case "studio": continue  // as `ocular studio` is called
    default:
        FileHandle.standardError.write(Data("ocular-studio-fixture: unknown argument \(argument)\n".utf8))
        exit(64)
    }
}
let registry = StageRegistry(StageRegistry.standard.stages + [BrightestQuadrantStage.self])
do {
    try await Studio.run(configuration: StudioConfiguration(port: port, galleryFolder: gallery), registry: registry) { bound in
        // Unbuffered: the test reads the address from a pipe.
        FileHandle.standardOutput.write(Data("Ocular Studio (test fixture) is running at http://127.0.0.1:\(bound)/\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("ocular-studio-fixture: \(error)\n".utf8))
    exit(1)
}

// Ocular Studio with a stage the studio has never heard of (BrightestQuadrantStage, of the tests):
// the browser tests start it in place of `ocular studio` to see that a registered stage reaches the
// page and its findings are listed, with no change to the session or the page.
//
// It also serves the slow recipes of the latency tests (SleepStage), over HTTPS in a network namespace.
//
// And it sets what the page must take from the server, not keep a copy of (--frames-per-second).
//
//     ocular-studio-fixture [studio] --port 0 --gallery FOLDER [--host ADDRESS] [--self-signed] [--fixed-quality]
//                                    [--frames-per-second N]
import Foundation
import Ocular
import OcularStudio
import StudioPlugins

var port = 0
var gallery: String?
var host = "127.0.0.1"
var selfSigned = false
var fixedQuality = false
var framesPerSecond: Double?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = arguments.next().flatMap { Int($0) } ?? 0
    case "--gallery": gallery = arguments.next()
    case "--host": host = arguments.next() ?? host
    case "--self-signed": selfSigned = true
    case "--fixed-quality": fixedQuality = true
    case "--frames-per-second": framesPerSecond = arguments.next().flatMap { Double($0) }
    case "studio": continue  // as `ocular studio` is called
    default:
        FileHandle.standardError.write(Data("ocular-studio-fixture: unknown argument \(argument)\n".utf8))
        exit(64)
    }
}
let registry = StageRegistry(StageRegistry.standard.stages + [BrightestQuadrantStage.self, SleepStage.self])
do {
    var configuration = StudioConfiguration(host: host, port: port, galleryFolder: gallery)
    configuration.adaptsToLink = !fixedQuality
    if let framesPerSecond { configuration.framesPerSecond = framesPerSecond }
    if selfSigned {
        configuration.tls = try SelfSignedCertificate.load(names: LocalAddresses.certificateNames(including: host)).tls
    }
    let query = configuration.access.token.map { "?token=\($0)" } ?? ""
    let scheme = configuration.scheme
    let address = host
    try await Studio.run(configuration: configuration, registry: registry) { bound in
        // Unbuffered: the test reads the address from a pipe.
        FileHandle.standardOutput.write(Data("Ocular Studio (test fixture) is running at \(scheme)://\(address):\(bound)/\(query)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("ocular-studio-fixture: \(error)\n".utf8))
    exit(1)
}

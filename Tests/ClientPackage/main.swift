// A client of Ocular as a registry release would be used: `from: "0.0.0-test"`, the library product alone.
// scripts/client-package.sh copies this file into a throwaway package and runs it:
//     client INPUT OUTPUT
import Foundation
import Ocular

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: client INPUT OUTPUT\n".utf8))
    exit(2)
}
do {
    let picture = try Image(contentsOfFile: arguments[1])
    let recipe = try Recipe(json: #"{"stages": [{"stage": "gray"}, {"stage": "zoom", "factor": 2}]}"#)
    let pipeline = try Pipeline(recipe, registry: .standard)
    let result = try pipeline.process(picture)
    try result.write(toFile: arguments[2])
    print("\(picture.width)x\(picture.height) \(picture.format) -> \(result.width)x\(result.height) \(result.format)")
} catch {
    FileHandle.standardError.write(Data("client: \(error)\n".utf8))
    exit(1)
}

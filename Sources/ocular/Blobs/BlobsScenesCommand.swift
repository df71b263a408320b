import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

extension BlobScenes.Arrangement: ExpressibleByArgument {}

struct BlobsScenesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenes",
        abstract: "Write a labelled set of table scenes made from a training list's pictures.",
        discussion: """
            Each scene lays several of the list's objects on a plain table at random turns and real relative sizes. \
            Scattered scenes: some touching, under uneven light with soft shadows, blur, noise or JPEG; 640×480 and \
            1280×960 in turn; written as scene-NNN-WxH.png. Rings (a coin with objects around it, each touching it and \
            the next) and heaps (most objects touching two or more): photographed as a tablet does (2–5 megapixels, \
            a JPEG with its EXIF orientation, tilted up to 15°, vignetting, the white balance off) or, one in four, \
            as a webcam's 1280×720 frame, as real tables look: one in three on dark card under a lamp, the rest on \
            paper exposed 0.72–1, one in three from farther, coins shining on their lit side; written as \
            ring-NNN-WxH.jpg. Also writes scenes.json (labels and boxes), \
            which `ocular blobs evaluate --labelled` reads.
            """)

    @Argument(help: "The folder to write into (made when missing).")
    var output: String

    @Option(help: ArgumentHelp("The training list whose pictures are laid.", valueName: "file"))
    var training: String

    @Option(help: "How the objects lie: scattered, ring or heap.")
    var arrangement: BlobScenes.Arrangement = .scattered

    @Option(help: "How many scenes.")
    var count = 48

    @Option(help: "The first scene's number: scenes 0–47 and 96–191 chose Ocular's constants; 48–95 and 200 on were never looked at while choosing.")
    var first = 0

    func validate() throws {
        guard (1...1000).contains(count) else { throw ValidationError("--count must be 1 to 1000, got \(count)") }
        guard (0...1_000_000).contains(first) else { throw ValidationError("--first must be 0 to 1000000, got \(first)") }
    }

    func run() throws {
        let scenes = try BlobScenes(list: try TrainingList(contentsOfFile: training), count: first + count)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let entries = try ProgressDisplay.showing("drawing", total: count, unit: "scenes") { progress in
            try (first..<(first + count)).map { index in
                let scene = try scenes.scene(index, arrangement: arrangement)
                let file: String
                if let photo = scene.file {
                    file = scene.name + ".jpg"
                    try FileAccess.write(photo, to: (output as NSString).appendingPathComponent(file))
                } else {
                    file = scene.name + ".png"
                    try scene.image.write(toFile: (output as NSString).appendingPathComponent(file))
                }
                progress.advance()
                return BlobSceneList.Entry(image: file, blobs: scene.blobs, conditions: scene.conditions)
            }
        }
        let list = (output as NSString).appendingPathComponent("scenes.json")
        try JSONOutput.data(BlobSceneList(scenes: entries)).write(to: URL(fileURLWithPath: list), options: .atomic)
        print("\(list): \(count) scenes, \(entries.reduce(0) { $0 + $1.blobs.count }) objects")
    }
}

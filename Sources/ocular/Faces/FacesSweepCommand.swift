import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct FacesSweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Write the face robustness sweep: labelled pictures varied in size, place, tilt, light and quality.",
        discussion: """
            SOURCES is a labelled list as `faces evaluate` reads: each picture's first face is placed on plain and \
            busy backgrounds (the pictures without faces), at sizes 0.08–0.9 of the frame's short side, in corners \
            and cut off by edges, mirrored, tilted −25…+25°, darker, brighter, in side light, as JPEG quality 30, \
            with noise and blur, in 640×480, 1280×720 and 720×1280 frames, several to a frame; the faceless \
            pictures also stand alone. OUT gets one PNG per frame and faces.json with every face's box and the \
            frame's axis as its group: `ocular faces evaluate --labelled OUT` scores a profile on it. The \
            repository's Tests/Fixtures/faces/sweep-sources.json is the sweep its tests use.
            """)

    @Argument(help: "The labelled source pictures (a list, or a folder holding faces.json).")
    var sources: String

    @Argument(help: "The folder to write the sweep into (created; must not hold a faces.json already).")
    var output: String

    @Option(name: .customLong("only"), help: ArgumentHelp("Write only the frame of this name (e.g. size-0.50-grace_hopper); repeat for more.",
                                                          valueName: "frame"))
    var only: [String] = []

    func run() throws {
        let sweep = try FaceSweep(list: try FaceLabelList(contentsOf: sources))
        let list = (output as NSString).appendingPathComponent(FaceLabelList.fileName)
        guard !FileManager.default.fileExists(atPath: list) else {
            throw ValidationError("\(list) already exists; give an empty or new folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw OcularError.writeFailed(path: output, reason: "cannot create the folder: \(FileAccess.reason(for: error))")
        }
        let names = sweep.names.map(\.name)
        if let unknown = only.first(where: { !names.contains($0) }) {
            throw ValidationError("the sweep has no frame '\(unknown)' (its frames are named like \(names.prefix(3).joined(separator: ", ")))")
        }
        let chosen = only.isEmpty ? Array(0..<sweep.count) : names.indices.filter { only.contains(names[$0]) }
        let entries = try ProgressDisplay.showing("sweep", total: chosen.count, unit: "frames") { progress in
            try chosen.map { index in
                let frame = try sweep.frame(index)
                let file = frame.name + ".png"
                try frame.image.write(toFile: (output as NSString).appendingPathComponent(file))
                progress.advance()
                return FaceLabelList.Entry(file: file, faces: frame.faces, group: frame.axis)
            }
        }
        let data = try FaceLabelList(entries: entries, folder: output).encoded()
        do {
            try data.write(to: URL(fileURLWithPath: list), options: .atomic)
        } catch {
            throw OcularError.writeFailed(path: list, reason: FileAccess.reason(for: error))
        }
        let faces = entries.reduce(0) { $0 + $1.faces.count }
        print("\(output): \(entries.count) frames with \(faces) labelled faces; score a profile with `ocular faces evaluate --labelled \(output)`")
    }
}

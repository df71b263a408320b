import ArgumentParser
import Foundation
import Ocular

struct FacesEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Find faces in labelled pictures and print recall, precision and mean IoU per species.",
        discussion: """
            --labelled names a JSON list [{"file":"a.jpg","faces":[{"species":"human","bounds":[x,y,w,h]}]}] \
            (files relative to the list; a picture without faces checks for false boxes), or a folder holding \
            faces.json, such as `faces sweep` writes. A box finds a labelled face of its species when their \
            intersection over union is at least 0.5. Then the misses and the false boxes, picture by picture; \
            entries with a "group" are also reported per group.
            """)

    @Option(help: ArgumentHelp("The labelled pictures: a list, or a folder holding faces.json.", valueName: "folder|file"))
    var labelled: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    @OptionGroup var detection: FaceDetectionOptions

    @OptionGroup var read: ReadOptions

    func run() throws {
        let list = try FaceLabelList(contentsOf: labelled)
        let detector = try detection.detector()
        let progress = ProgressDisplay(title: "evaluating", total: list.entries.count, unit: "pictures")
        let evaluation: FaceEvaluation, problems: [TrainingProblem]
        do {
            (evaluation, problems) = try FaceEvaluation.evaluate(detector, on: list, readOptions: read.imageReadOptions) { index, _, _ in
                if index > 0 { progress.advance() }
            }
            progress.finish()
        } catch {
            progress.finish(succeeded: false)
            throw error
        }
        for problem in problems { FileHandle.standardError.write(Data("ocular: not evaluated: \(problem)\n".utf8)) }
        if json {
            print(try Self.json(evaluation, profile: detector.profile.name, problems: problems))
        } else {
            print(Self.report(evaluation, profile: detector.profile.name))
        }
        if evaluation.pictures == 0 { throw ExitCode(1) }
    }

    struct Figures: Encodable {
        var labelled: Int, found: Int, matched: Int, recall: Double, precision: Double, meanIoU: Double

        init(_ tally: FaceEvaluation.Tally) {
            labelled = tally.labelled
            found = tally.found
            matched = tally.matched
            recall = Self.rounded(tally.recall)
            precision = Self.rounded(tally.precision)
            meanIoU = Self.rounded(tally.meanOverlap)
        }

        static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    }

    static func json(_ evaluation: FaceEvaluation, profile: String, problems: [TrainingProblem]) throws -> String {
        struct Mistake: Encodable { var file: String; var species: Species; var bounds: [Int] }
        struct Report: Encodable {
            var profile: String, pictures: Int, overall: Figures, species: [String: Figures], groups: [String: [String: Figures]]
            var misses: [Mistake], falseBoxes: [Mistake], unreadable: [String]
        }
        func mistakes(_ list: [FaceEvaluation.Mistake]) -> [Mistake] {
            list.map { Mistake(file: $0.picture, species: $0.face.species, bounds: [$0.face.bounds.x, $0.face.bounds.y, $0.face.bounds.width, $0.face.bounds.height]) }
        }
        let report = Report(profile: profile, pictures: evaluation.pictures, overall: Figures(evaluation.overall),
                            species: Dictionary(uniqueKeysWithValues: evaluation.tallies.map { ($0.key.rawValue, Figures($0.value)) }),
                            groups: evaluation.groups.mapValues { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, Figures($0.value)) }) },
                            misses: mistakes(evaluation.misses), falseBoxes: mistakes(evaluation.falseBoxes), unreadable: problems.map(\.description))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    /// A table of the figures per species (and per group), then the mistakes.
    static func report(_ evaluation: FaceEvaluation, profile: String) -> String {
        func percent(_ value: Double) -> String { String(format: "%5.1f %%", value * 100) }
        func row(_ name: String, _ tally: FaceEvaluation.Tally) -> String {
            name.padding(toLength: 22, withPad: " ", startingAt: 0)
                + String(format: "%8d %8d %8d  ", tally.labelled, tally.found, tally.matched)
                + "\(percent(tally.recall))  \(percent(tally.precision))  " + String(format: "%.2f", tally.meanOverlap)
        }
        let header = "".padding(toLength: 22, withPad: " ", startingAt: 0) + "labelled    found  matched    recall  precision  mean IoU"
        var lines = ["\(evaluation.pictures) pictures, \(profile) profile (a find: IoU ≥ \(FaceEvaluation.requiredOverlap))", "", header]
        for species in Species.allCases where evaluation.tallies[species] != nil { lines.append(row(species.rawValue, evaluation.tally(species))) }
        lines.append(row("all", evaluation.overall))
        if !evaluation.groups.isEmpty {
            lines += ["", "per group", header]
            for group in evaluation.groups.keys.sorted() {
                for (species, tally) in evaluation.groups[group]!.sorted(by: { $0.key.rawValue > $1.key.rawValue }) {
                    lines.append(row("\(group) \(species.rawValue)", tally))
                }
                if evaluation.groups[group]!.isEmpty { lines.append(row("\(group)", FaceEvaluation.Tally())) }
            }
        }
        func list(_ title: String, _ mistakes: [FaceEvaluation.Mistake]) {
            guard !mistakes.isEmpty else { return }
            lines += ["", "\(title) (\(mistakes.count))"]
            lines += mistakes.map { "  \($0.picture): \($0.face.species) \($0.face.bounds)" }
        }
        list("misses", evaluation.misses)
        list("false boxes", evaluation.falseBoxes)
        return lines.joined(separator: "\n")
    }
}

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

    func run() throws {
        let sweep = try FaceSweep(list: try FaceLabelList(contentsOf: sources))
        let list = (output as NSString).appendingPathComponent(FaceLabelList.fileName)
        guard !FileManager.default.fileExists(atPath: list) else {
            throw ValidationError("\(list) already exists; give an empty or new folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw OcularError.writeFailed(path: output, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let progress = ProgressDisplay(title: "sweep", total: sweep.count, unit: "frames")
        var entries: [FaceLabelList.Entry] = []
        do {
            for index in 0..<sweep.count {
                let frame = try sweep.frame(index)
                let file = frame.name + ".png"
                try frame.image.write(toFile: (output as NSString).appendingPathComponent(file))
                entries.append(FaceLabelList.Entry(file: file, faces: frame.faces, group: frame.axis))
                progress.advance()
            }
            progress.finish()
        } catch {
            progress.finish(succeeded: false)
            throw error
        }
        let data = try FaceLabelList(entries: entries, folder: output).encoded()
        do {
            try data.write(to: URL(fileURLWithPath: list), options: .atomic)
        } catch {
            throw OcularError.writeFailed(path: list, reason: error.localizedDescription)
        }
        let faces = entries.reduce(0) { $0 + $1.faces.count }
        print("\(output): \(entries.count) frames with \(faces) labelled faces; score a profile with `ocular faces evaluate --labelled \(output)`")
    }
}
